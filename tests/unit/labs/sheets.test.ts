import { describe, expect, it } from 'vitest';
import { LAB_SHEET_KIND, missingReasons, readDrillKey, readDrillSheet, readLabKey, readLabSheet, sheetFileName, type LabAnswerSheet } from '../../../src/labs/sheets.ts';

const target = { id: 'lab', version: '1.0.0', digest: 'a'.repeat(64), suggestions: ['x', 'y'] };
const sheet = (over: Partial<LabAnswerSheet> = {}): LabAnswerSheet => ({
  schemaVersion: 1,
  kind: LAB_SHEET_KIND,
  id: 'lab',
  version: '1.0.0',
  digest: 'a'.repeat(64),
  date: '2026-11-30T10:00:00.000Z',
  candidate: 'Ada',
  plan: { endState: 'done', checkpoints: 'a\nb\nc', invariant: 'green', byHand: 'the regex' },
  suggestions: [
    { id: 'x', choice: 'accept', reason: '' },
    { id: 'y', choice: 'reject', reason: 'it logs passwords' },
  ],
  ...over,
});

describe('answer sheets', () => {
  it('read back what they exported', () => {
    const read = readLabSheet(JSON.stringify(sheet()), target);
    expect(read).toEqual({ ok: true, value: sheet() });
    expect(sheetFileName(sheet())).toBe('lab-1.0.0-answers-ada.json');
  });

  it('are refused, with a sentence, when they are for another lab, another version, or not a sheet', () => {
    expect(readLabSheet('{', target)).toEqual({ ok: false, message: 'This file is not JSON, so it is not a lab answer sheet. Nothing was changed.' });
    expect(readLabSheet(JSON.stringify({ ...sheet(), id: 'other' }), target)).toMatchObject({ ok: false, message: expect.stringContaining('is for "other", not "lab"') });
    expect(readLabSheet(JSON.stringify({ ...sheet(), digest: 'b'.repeat(64), version: '0.9.0' }), target)).toMatchObject({ ok: false, message: expect.stringContaining('another version of "lab" (version 0.9.0, digest bbbbbbbbbbbb)') });
    expect(readLabSheet(JSON.stringify({ ...sheet(), suggestions: [{ id: 'x', choice: 'maybe', reason: '' }, { id: 'y', choice: null, reason: '' }] }), target)).toMatchObject({ ok: false, message: expect.stringContaining('"maybe"') });
    expect(readLabSheet(JSON.stringify({ ...sheet(), suggestions: [{ id: 'x', choice: 'accept', reason: '' }] }), target)).toMatchObject({ ok: false, message: expect.stringContaining('no answer for the suggestion "y"') });
  });

  it('need a reason for every rejection, revision and hand edit', () => {
    expect(missingReasons(sheet())).toEqual([]);
    expect(missingReasons(sheet({ suggestions: [{ id: 'x', choice: 'revise', reason: ' ' }, { id: 'y', choice: 'accept', hand: 'x = 1\n', reason: '' }] }))).toEqual(['x', 'y']);
  });

  it("a lab's key and a drill's sheet and key are checked the same way", () => {
    expect(readLabKey(JSON.stringify({ kind: 'packet-kit/lab-key', schemaVersion: 1, id: 'lab', digest: 'a'.repeat(64), suggestions: ['x', 'y'], key: [], tests: [], visibleCount: 0, combinations: [] }), target)).toMatchObject({ ok: false, message: expect.stringContaining('not this lab') });
    const drill = { id: 'd', version: '1.0.0', digest: 'c'.repeat(64), diffs: ['p', 'q'] };
    const answers = { schemaVersion: 1, kind: 'packet-kit/drill-answer-sheet', id: 'd', version: '1.0.0', digest: 'c'.repeat(64), date: '', diffs: [{ id: 'p', verdict: 'reject', reason: 'r' }, { id: 'q', verdict: 'accept-with-change', reason: 'r', change: 'c' }] };
    expect(readDrillSheet(JSON.stringify(answers), drill)).toMatchObject({ ok: true, value: { diffs: [{ id: 'p', verdict: 'reject' }, { id: 'q', change: 'c' }] } });
    expect(readDrillSheet(JSON.stringify({ ...answers, kind: 'packet-kit/lab-answer-sheet' }), drill)).toMatchObject({ ok: false });
    expect(readDrillKey(JSON.stringify({ schemaVersion: 1, kind: 'packet-kit/drill-key', id: 'd', digest: 'c'.repeat(64), key: [{ id: 'q' }, { id: 'p' }] }), drill)).toMatchObject({ ok: false, message: expect.stringContaining("not this drill's") });
  });
});
