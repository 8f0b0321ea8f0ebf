import { describe, expect, it } from 'vitest';
import { readDrillSheet, readLabSheet, readTimeline, TIMELINE_ACTIONS, TIMELINE_DETAIL_LIMIT, TIMELINE_LIMIT } from '../../../src/labs/sheet-read.ts';

const digest = 'c'.repeat(64);
const drill = { id: 'd', version: '1.0.0', digest, diffs: ['p'] };
const lab = { id: 'l', version: '1.0.0', digest, suggestions: ['s'] };
const drillSheet = (timeline: unknown) =>
  JSON.stringify({ schemaVersion: 1, kind: 'packet-kit/drill-answer-sheet', id: 'd', version: '1.0.0', digest, date: '2026-12-02T10:00:00.000Z', diffs: [{ id: 'p', verdict: 'reject', reason: 'r' }], timeline });
const labSheet = (timeline: unknown) =>
  JSON.stringify({
    schemaVersion: 1,
    kind: 'packet-kit/lab-answer-sheet',
    id: 'l',
    version: '1.0.0',
    digest,
    date: '2026-12-02T10:00:00.000Z',
    plan: { endState: 'e', checkpoints: 'c', invariant: 'i', byHand: 'b' },
    suggestions: [{ id: 's', choice: 'accept', reason: '' }],
    timeline,
  });
const AT = '2026-12-02T10:00:00.000Z';
const FIX = 'Export the sheet again from the page, or remove its "timeline". Nothing was changed.';

describe("an answer sheet's timeline, read by hand", () => {
  it('is optional: a sheet exported before it was kept reads without one', () => {
    const lab1 = readLabSheet(labSheet(undefined), lab);
    const drill1 = readDrillSheet(drillSheet(undefined), drill);
    expect(lab1.ok && 'timeline' in lab1.value).toBe(false);
    expect(drill1.ok && 'timeline' in drill1.value).toBe(false);
  });

  it('keeps every action in order, with only the fields of the format', () => {
    const steps = TIMELINE_ACTIONS.map((action, i) => ({ at: `2026-12-02T10:00:${String(i).padStart(2, '0')}.000Z`, action, id: 's', detail: `step ${i}`, extra: '<script>' }));
    const read = readLabSheet(labSheet(steps), lab);
    expect(read.ok && read.value.timeline).toEqual(steps.map(({ extra: _extra, ...rest }) => rest));
    const drillRead = readDrillSheet(drillSheet([{ at: AT, action: 'verdict', id: 'p', detail: 'reject' }, { at: AT, action: 'done' }]), drill);
    expect(drillRead.ok && drillRead.value.timeline).toEqual([{ at: AT, action: 'verdict', id: 'p', detail: 'reject' }, { at: AT, action: 'done' }]);
  });

  it('refuses a hostile timeline, naming the step and the field', () => {
    const refusals: [unknown, string][] = [
      ['steps', `The sheet's "timeline" is not a list of steps. ${FIX}`],
      [{ 0: { at: AT, action: 'start' } }, `The sheet's "timeline" is not a list of steps. ${FIX}`],
      [null, `The sheet's "timeline" is not a list of steps. ${FIX}`],
      [[null], `Step 1 of the sheet's "timeline" is not an object with "at" and "action". ${FIX}`],
      [[{ at: AT, action: 'start' }, ['accept']], `Step 2 of the sheet's "timeline" is not an object with "at" and "action". ${FIX}`],
      [[{ action: 'start' }], `Step 1 of the sheet's "timeline" has no readable time: its "at" must be an ISO 8601 time such as 2026-12-02T10:00:00.000Z. ${FIX}`],
      [[{ at: 'yesterday', action: 'start' }], `Step 1 of the sheet's "timeline" has no readable time: its "at" must be an ISO 8601 time such as 2026-12-02T10:00:00.000Z. ${FIX}`],
      [[{ at: '2026-13-45T99:00:00Z', action: 'start' }], `Step 1 of the sheet's "timeline" has no readable time: its "at" must be an ISO 8601 time such as 2026-12-02T10:00:00.000Z. ${FIX}`],
      [[{ at: 1764669600000, action: 'start' }], `Step 1 of the sheet's "timeline" has no readable time: its "at" must be an ISO 8601 time such as 2026-12-02T10:00:00.000Z. ${FIX}`],
      [[{ at: `${AT}${' '.repeat(100)}`, action: 'start' }], `Step 1 of the sheet's "timeline" has no readable time: its "at" must be an ISO 8601 time such as 2026-12-02T10:00:00.000Z. ${FIX}`],
      [[{ at: AT, action: 'cheat' }], `Step 1 of the sheet's "timeline" has the action cheat; it must be one of ${TIMELINE_ACTIONS.join(', ')}. ${FIX}`],
      [[{ at: AT, action: 'toString' }], `Step 1 of the sheet's "timeline" has the action toString; it must be one of ${TIMELINE_ACTIONS.join(', ')}. ${FIX}`],
      [[{ at: AT }], `Step 1 of the sheet's "timeline" has the action undefined; it must be one of ${TIMELINE_ACTIONS.join(', ')}. ${FIX}`],
      [[{ at: AT, action: ['accept'] }], `Step 1 of the sheet's "timeline" has the action ["accept"]; it must be one of ${TIMELINE_ACTIONS.join(', ')}. ${FIX}`],
      [[{ at: AT, action: 'accept', id: 7 }], `Step 1 of the sheet's "timeline" has an "id" that is not a short text. ${FIX}`],
      [[{ at: AT, action: 'accept', id: null }], `Step 1 of the sheet's "timeline" has an "id" that is not a short text. ${FIX}`],
      [[{ at: AT, action: 'accept', detail: { toString: 'x' } }], `Step 1 of the sheet's "timeline" has a "detail" that is not a text of at most ${TIMELINE_DETAIL_LIMIT} characters. ${FIX}`],
      [[{ at: AT, action: 'accept', detail: 'x'.repeat(TIMELINE_DETAIL_LIMIT + 1) }], `Step 1 of the sheet's "timeline" has a "detail" that is not a text of at most ${TIMELINE_DETAIL_LIMIT} characters. ${FIX}`],
      [Array.from({ length: TIMELINE_LIMIT + 1 }, () => ({ at: AT, action: 'start' })), `The sheet's "timeline" has ${TIMELINE_LIMIT + 1} steps; a sheet keeps at most ${TIMELINE_LIMIT}. ${FIX}`],
    ];
    for (const [timeline, message] of refusals) {
      expect(readTimeline(timeline), JSON.stringify(timeline)?.slice(0, 80)).toEqual({ ok: false, message });
      expect(readLabSheet(labSheet(timeline), lab), 'lab').toEqual({ ok: false, message });
      expect(readDrillSheet(drillSheet(timeline), drill), 'drill').toEqual({ ok: false, message });
    }
  });

  it('takes a timeline at its limits', () => {
    const full = Array.from({ length: TIMELINE_LIMIT }, () => ({ at: AT, action: 'hand-edit', detail: 'x'.repeat(TIMELINE_DETAIL_LIMIT) }));
    const read = readTimeline(full);
    expect(read.ok && read.value?.length).toBe(TIMELINE_LIMIT);
  });
});
