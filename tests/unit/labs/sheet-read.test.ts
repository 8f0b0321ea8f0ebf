import { describe, expect, it } from 'vitest';
import { DRILL_VERDICTS } from '../../../src/packets/schema/assistant.ts';
import { readDrillSheet, readLabSheet, SHEET_DRILL_VERDICTS } from '../../../src/labs/sheet-read.ts';
import * as sheets from '../../../src/labs/sheets.ts';

const drill = { id: 'd', version: '1.0.0', digest: 'c'.repeat(64), diffs: ['p', 'q'] };
const answers = (over: Record<string, unknown> = {}) => ({
  schemaVersion: 1,
  kind: 'packet-kit/drill-answer-sheet',
  id: 'd',
  version: '1.0.0',
  digest: 'c'.repeat(64),
  date: '2026-12-01T10:00:00.000Z',
  diffs: [
    { id: 'p', verdict: 'reject', reason: 'r' },
    { id: 'q', verdict: 'accept-with-change', reason: 'r', change: 'c' },
  ],
  ...over,
});
const read = (value: unknown) => readDrillSheet(typeof value === 'string' ? value : JSON.stringify(value), drill);

describe("the browser's reader of answer sheets", () => {
  it("takes the drill schema's verdicts, no more and no fewer", () => {
    expect([...SHEET_DRILL_VERDICTS]).toEqual([...DRILL_VERDICTS]);
  });

  it('is the reader the rest of the kit uses', () => {
    expect(sheets.readDrillSheet).toBe(readDrillSheet);
    expect(sheets.readLabSheet).toBe(readLabSheet);
  });

  it('reads a sheet the drill page exports, keeping only the fields of the format', () => {
    expect(read(answers({ extra: '<script>', candidate: 'Ada' }))).toEqual({
      ok: true,
      value: {
        schemaVersion: 1,
        kind: 'packet-kit/drill-answer-sheet',
        id: 'd',
        version: '1.0.0',
        digest: 'c'.repeat(64),
        date: '2026-12-01T10:00:00.000Z',
        candidate: 'Ada',
        diffs: [
          { id: 'p', verdict: 'reject', reason: 'r' },
          { id: 'q', verdict: 'accept-with-change', reason: 'r', change: 'c' },
        ],
      },
    });
  });

  it('refuses hostile sheets, each with its sentence', () => {
    const refusals: [unknown, string][] = [
      ['{"kind":', 'This file is not JSON, so it is not a drill answer sheet. Nothing was changed.'],
      ['null', 'This file is not a drill answer sheet (its "kind" is not "packet-kit/drill-answer-sheet"). Nothing was changed.'],
      [[answers()], 'This file is not a drill answer sheet (its "kind" is not "packet-kit/drill-answer-sheet"). Nothing was changed.'],
      ['"packet-kit/drill-answer-sheet"', 'This file is not a drill answer sheet (its "kind" is not "packet-kit/drill-answer-sheet"). Nothing was changed.'],
      [answers({ kind: 'packet-kit/lab-answer-sheet' }), 'This file is not a drill answer sheet (its "kind" is not "packet-kit/drill-answer-sheet"). Nothing was changed.'],
      [answers({ schemaVersion: '1' }), 'This file has format version 1; this page reads version 1. Nothing was changed.'],
      [answers({ schemaVersion: 2 }), 'This file has format version 2; this page reads version 1. Nothing was changed.'],
      [answers({ id: 'other' }), 'This file is for "other", not "d". Nothing was changed.'],
      [
        answers({ digest: 'b'.repeat(64), version: '0.9.0' }),
        'This file belongs to another version of "d" (version 0.9.0, digest bbbbbbbbbbbb); this page is version 1.0.0, digest cccccccccccc. Nothing was changed.',
      ],
      [answers({ digest: { toString: 'x' } }), 'This file belongs to another version of "d" (version 1.0.0, digest {"toString":); this page is version 1.0.0, digest cccccccccccc. Nothing was changed.'],
      [answers({ diffs: 'p,q' }), 'The sheet has no answer for the diff "p". Nothing was changed.'],
      [answers({ diffs: [null, 7, ['p'], { id: 'q', verdict: 'reject', reason: '' }] }), 'The sheet has no answer for the diff "p". Nothing was changed.'],
      [answers({ diffs: [{ id: 'p', verdict: 'reject', reason: '' }] }), 'The sheet has no answer for the diff "q". Nothing was changed.'],
      [
        answers({ diffs: [{ id: 'p', verdict: 'approve', reason: '' }, { id: 'q', verdict: null, reason: '' }] }),
        'The verdict on "p" is "approve"; it must be accept, accept-with-change or reject. Nothing was changed.',
      ],
      [
        answers({ diffs: [{ id: 'p', verdict: ['reject'], reason: '' }, { id: 'q', verdict: null, reason: '' }] }),
        'The verdict on "p" is ["reject"]; it must be accept, accept-with-change or reject. Nothing was changed.',
      ],
      [
        answers({ diffs: [{ id: 'p', verdict: 'constructor', reason: '' }, { id: 'q', verdict: null, reason: '' }] }),
        'The verdict on "p" is "constructor"; it must be accept, accept-with-change or reject. Nothing was changed.',
      ],
    ];
    for (const [sheet, message] of refusals) expect(read(sheet), JSON.stringify(sheet)).toEqual({ ok: false, message });
  });

  it('reads fields of the wrong type as empty, never passing them on', () => {
    const odd = read(answers({ candidate: { name: 'x' }, date: 5, diffs: [{ id: 'p', verdict: null, reason: 42 }, { id: 'q', reason: 'r', change: ['c'] }], ['__proto__']: { polluted: true } }));
    expect(odd).toEqual({
      ok: true,
      value: expect.objectContaining({ date: '', diffs: [{ id: 'p', verdict: null, reason: '' }, { id: 'q', verdict: null, reason: 'r' }] }),
    });
    expect(odd.ok && 'candidate' in odd.value).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
