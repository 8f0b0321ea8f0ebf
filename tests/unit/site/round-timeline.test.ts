import { ChangeSet } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { TIMELINE_DETAIL_LIMIT, TIMELINE_LIMIT } from '../../../src/labs/sheet-read.ts';
import { BURST_MS, RoundTimeline, touchedRegions } from '../../../src/site/round-timeline.ts';
import { timeBoxText } from '../../../src/site/time-box.ts';

/** A timeline on a clock the test moves, counting its saves. */
function clocked() {
  let t = Date.parse('2026-12-02T10:00:00.000Z');
  let saves = 0;
  const round = new RoundTimeline(
    () => saves++,
    () => new Date(t),
  );
  return { round, tick: (ms: number) => (t += ms), saves: () => saves };
}

describe("the round's timeline", () => {
  it('starts with the first step, keeps the steps in order with their times, and saves on each', () => {
    const { round, tick, saves } = clocked();
    expect(round.field()).toEqual({});
    round.record('accept', 'gaps');
    tick(1000);
    round.record('test-run', undefined, '3 of 4 tests pass');
    expect(round.entries).toEqual([
      { at: '2026-12-02T10:00:00.000Z', action: 'start' },
      { at: '2026-12-02T10:00:00.000Z', action: 'accept', id: 'gaps' },
      { at: '2026-12-02T10:00:01.000Z', action: 'test-run', detail: '3 of 4 tests pass' },
    ]);
    expect(round.started?.toISOString()).toBe('2026-12-02T10:00:00.000Z');
    round.record('start');
    expect(round.entries.filter((e) => e.action === 'start')).toHaveLength(1);
    expect(saves()).toBe(3);
  });

  it('records one hand edit per burst of typing in a region', () => {
    const { round, tick } = clocked();
    round.handEdit('merge');
    tick(1000);
    round.handEdit('merge');
    tick(BURST_MS - 1);
    round.handEdit('merge');
    tick(BURST_MS);
    round.handEdit('merge'); // a pause ends the burst
    round.handEdit('gaps'); // another region
    round.handEdit('merge');
    round.record('reject', 'gaps');
    round.handEdit('merge'); // another step ends it too
    expect(round.entries.map((e) => [e.action, e.id])).toEqual([
      ['start', undefined],
      ['hand-edit', 'merge'],
      ['hand-edit', 'merge'],
      ['hand-edit', 'gaps'],
      ['hand-edit', 'merge'],
      ['reject', 'gaps'],
      ['hand-edit', 'merge'],
    ]);
  });

  it('caps its steps and details, keeping the start first', () => {
    const { round } = clocked();
    for (let i = 0; i < TIMELINE_LIMIT + 10; i++) round.record('test-run', undefined, 'x'.repeat(TIMELINE_DETAIL_LIMIT + 5));
    expect(round.entries).toHaveLength(TIMELINE_LIMIT);
    expect(round.entries[0]!.action).toBe('start');
    expect(round.entries[1]!.detail).toHaveLength(TIMELINE_DETAIL_LIMIT);
  });

  it('takes a restored timeline as it is, and redraws without saving', () => {
    const { round, saves } = clocked();
    let redrawn = 0;
    round.onSet = () => redrawn++;
    round.set([{ at: '2026-12-02T09:00:00.000Z', action: 'start' }]);
    expect(round.started?.toISOString()).toBe('2026-12-02T09:00:00.000Z');
    expect([redrawn, saves()]).toEqual([1, 0]);
    round.set(undefined);
    expect(round.started).toBeUndefined();
  });

  it("names the regions an editor change touched, in the new document's positions", () => {
    const regions = [
      { index: 0, from: 0, to: 10 },
      { index: 1, from: 20, to: 30 },
    ];
    expect(touchedRegions(ChangeSet.of({ from: 25, insert: 'x' }, 40), regions)).toEqual([1]);
    expect(touchedRegions(ChangeSet.of({ from: 12, to: 14 }, 40), regions)).toEqual([]);
  });
});

describe('the time box', () => {
  const start = new Date('2026-12-02T10:00:00Z');
  it("says the packet's minutes before the round starts, the minutes left while it runs, and plainly when time is up", () => {
    expect(timeBoxText(45, undefined, start)).toEqual({ text: 'Time box: 45 minutes. The clock starts with your first step, or when you press Start.', up: false });
    expect(timeBoxText(45, start, start).text).toMatch(/^Time box: 45 of 45 minutes left/);
    expect(timeBoxText(45, start, new Date(start.getTime() + 44.5 * 60_000)).text).toMatch(/^Time box: 1 of 45 minutes left/);
    const up = timeBoxText(45, start, new Date(start.getTime() + 45 * 60_000));
    expect(up.up).toBe(true);
    expect(up.text).toMatch(/^Time is up: your 45 minutes ended at .*Nothing is locked/);
  });
});
