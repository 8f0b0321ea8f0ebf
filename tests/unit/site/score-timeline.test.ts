import { describe, expect, it } from 'vitest';
import { TIMELINE_LIMIT } from '../../../src/labs/sheet-read.ts';
import { formatAfter, formatClock, NO_TIMELINE, timelineRows } from '../../../src/site/score-timeline.ts';

describe('the timeline on a scoring page', () => {
  it('formats the time after the first step and the clock time', () => {
    expect(formatAfter(0)).toBe('+0:00');
    expect(formatAfter(250_000)).toBe('+4:10');
    expect(formatAfter(3_723_000)).toBe('+1:02:03');
    expect(formatAfter(-5000)).toBe('+0:00');
    expect(formatClock(Date.parse('2026-12-01T10:04:10.000Z'))).toBe('10:04:10 UTC');
  });

  it('says a sheet kept none when the timeline is absent, empty or not a list', () => {
    for (const t of [undefined, [], null, 'x', { at: 1 }]) expect(timelineRows(t)).toEqual({ rows: [], note: NO_TIMELINE });
    expect(NO_TIMELINE).toBe('This sheet kept no timeline (exported before timelines were kept).');
  });

  it('shows each step with its times, the action in words or as written, its id and detail', () => {
    const { rows, note } = timelineRows([
      { at: '2026-12-01T10:00:00.000Z', action: 'start' },
      { at: '2026-12-01T10:04:10.000Z', action: 'accept', id: 'gaps' },
      { at: '2026-12-01T10:05:00.000Z', action: 'teleport', detail: 'x'.repeat(500) },
    ]);
    expect(rows[0]).toEqual({ after: '+0:00', clock: '10:00:00 UTC', action: 'started', id: '', detail: '' });
    expect(rows[1]).toEqual({ after: '+4:10', clock: '10:04:10 UTC', action: 'accepted', id: 'gaps', detail: '' });
    expect(rows[2]!.action).toBe('teleport');
    expect(rows[2]!.detail).toBe(`${'x'.repeat(200)}…`);
    expect(note).toBe('3 steps, over 5:00.');
  });

  it('reads every step defensively: a bad time, a missing action, a step that is not an object, fields of the wrong type', () => {
    const { rows } = timelineRows([{ at: 'not a date', action: 'accept' }, 42, { at: '2026-12-01T10:00:00Z', action: 7, id: 3, detail: {} }, { at: '2026-12-01T10:01:00Z', action: 'done' }]);
    expect(rows[0]).toEqual({ after: '?', clock: '(no time)', action: 'accepted', id: '', detail: '' });
    expect(rows[1]).toEqual({ after: '?', clock: '(no time)', action: '(an unreadable step)', id: '', detail: '' });
    expect(rows[2]).toEqual({ after: '+0:00', clock: '10:00:00 UTC', action: '(no action)', id: '', detail: '' });
    expect(rows[3]!.after).toBe('+1:00');
  });

  it('shows at most the limit of steps and says how many were left out', () => {
    const many = Array.from({ length: TIMELINE_LIMIT + 3 }, (_, i) => ({ at: new Date(Date.UTC(2026, 11, 1, 10, 0, i)).toISOString(), action: 'test-run' }));
    const { rows, note } = timelineRows(many);
    expect(rows).toHaveLength(TIMELINE_LIMIT);
    expect(note).toContain(`3 more left out (a sheet keeps at most ${TIMELINE_LIMIT})`);
  });
});
