import { describe, expect, it } from 'vitest';
import { agreementReport, type AgreementRubric } from '../../../src/agreement/agreement.ts';
import { readCalibrationKey } from '../../../src/agreement/key.ts';
import { reviewSheet, sheetHead, type ReviewSheet } from '../../../src/agreement/sheet.ts';
import { CALIBRATION_KEY_KIND, SCORED_SHEET_KIND } from '../../../src/judge/scorecard-format.ts';

const RUBRIC: AgreementRubric = {
  rows: [
    { id: 'tests', criterion: 'Tests pass.', max: 3, levels: { '0': 'none', '3': 'all' }, auto: 'tests' },
    { id: 'design', criterion: 'Design.', max: 3, levels: { '0': 'none', '3': 'clear' } },
  ],
  hireBar: 4,
  vetoes: [{ row: 'design', atMost: 0, note: 'no design is a no' }],
  combine: { rows: 'median', veto: 'any' },
};
const PACKET = { id: 'p', version: '1.0.0', digest: 'd'.repeat(64) };
const OPTIONS = { seed: 23, resamples: 200 };

function sheet(reviewer: string, submission: string, scores: Record<string, number>, extra: Partial<ReviewSheet> = {}): ReviewSheet {
  return { file: `${reviewer}-${submission}.json`, reviewer, submission: `candidate:${submission}`, label: submission, sha256: null, scores, complete: 'tests' in scores && 'design' in scores, blind: false, overrides: 0, ...extra };
}

describe('the agreement report', () => {
  it('matches blank cards by candidate, leaves an incomplete sheet out of the totals and the decisions, and keeps it for its rows', () => {
    const r = agreementReport(PACKET, RUBRIC, [
      sheet('ann', 'kim', { tests: 3, design: 3 }),
      sheet('bob', 'kim', { tests: 3, design: 2 }),
      sheet('ann', 'lee', { tests: 1, design: 0 }),
      sheet('bob', 'lee', { tests: 1 }),
      sheet('ann', 'mo', { tests: 0, design: 1 }),
      sheet('bob', 'mo', { tests: 0, design: 1 }),
    ], OPTIONS);
    expect(r.rows.find((x) => x.id === 'tests')!.submissions).toBe(3);
    expect(r.rows.find((x) => x.id === 'design')!.submissions).toBe(2);
    expect(r.totals.submissions).toBe(2);
    expect(r.decision.submissions).toBe(2);
    expect(r.submissions.find((s) => s.label === 'lee')!.combined).toMatchObject({ sheets: 1 });
    expect(r.rows[0]!.kappa).toBe(1);
  });

  it('combines by the rubric\'s rule: the lowest score per row, a majority veto', () => {
    const sheets = [sheet('ann', 'kim', { tests: 3, design: 0 }), sheet('bob', 'kim', { tests: 2, design: 3 }), sheet('cat', 'kim', { tests: 3, design: 3 })];
    const median = agreementReport(PACKET, RUBRIC, sheets, OPTIONS).submissions[0]!.combined!;
    expect(median).toMatchObject({ decision: 'no-hire', total: 6 });
    expect(median.reason).toBe('veto on design (fired by a reviewer)');
    const lenient = agreementReport(PACKET, { ...RUBRIC, combine: { rows: 'lowest', veto: 'majority' } }, sheets, OPTIONS).submissions[0]!.combined!;
    expect(lenient).toMatchObject({ decision: 'no-hire', total: 2 });
    expect(lenient.reason).toBe('2 of 6 is below the hire bar of 4');
  });

  it('names the reviewers\' split decisions, and a row without variation is not vague', () => {
    const r = agreementReport(PACKET, RUBRIC, [sheet('ann', 'kim', { tests: 3, design: 3 }), sheet('bob', 'kim', { tests: 3, design: 0 }), sheet('ann', 'lee', { tests: 3, design: 2 }), sheet('bob', 'lee', { tests: 3, design: 2 })], OPTIONS);
    expect(r.decision.splits).toEqual([{ submission: 'kim', by: { ann: 'hire', bob: 'no-hire' } }]);
    const tests = r.rows.find((x) => x.id === 'tests')!;
    expect(tests).toMatchObject({ alpha: null, vague: false, splits: [] });
    expect(tests.note).toMatch(/no variation/);
    expect(r.vague.rows).toEqual(['design']);
  });

  it('gives no alpha from one submission, where it is 0 whatever the scores, and says why', () => {
    // One unit: observed and expected disagreement are the same pairs, so alpha is 0 for a split of 1 point or of 3.
    const r = agreementReport(PACKET, RUBRIC, [sheet('ann', 'kim', { tests: 3, design: 2 }), sheet('bob', 'kim', { tests: 2, design: 2 })], OPTIONS);
    const tests = r.rows.find((x) => x.id === 'tests')!;
    expect(tests.alpha).toBeNull();
    expect(tests.kappa).toBeNull();
    expect(tests.note).toMatch(/one submission/);
    expect(tests.splits).toEqual([{ submission: 'kim', by: { ann: 3, bob: 2 } }]);
    expect(r.decision.alpha).toBeNull();
  });

  it('gives the same intervals for the same seed, and others for another', () => {
    const sheets = ['a', 'b', 'c', 'd', 'e'].flatMap((s, i) => [sheet('ann', s, { tests: i % 4, design: (i * 2) % 4 }), sheet('bob', s, { tests: (i + 1) % 4, design: (i * 2) % 4 })]);
    const a = agreementReport(PACKET, RUBRIC, sheets, OPTIONS);
    expect(agreementReport(PACKET, RUBRIC, sheets, OPTIONS)).toEqual(a);
    expect(agreementReport(PACKET, RUBRIC, sheets, { ...OPTIONS, seed: 24 }).rows[0]!.alphaInterval).not.toEqual(a.rows[0]!.alphaInterval);
    expect(a.method.intervals).toContain('200 resamples, seed 23');
  });

  it('compares each reviewer with the key: a missing or undecided card is off the key', () => {
    const h = (n: number) => `${n}`.repeat(64);
    const key = { packet: { ...PACKET }, submissions: [{ name: 'cal-01', sha256: h(1), source: 'sample', expected: { decision: 'hire' as const, reason: '', scores: { tests: 3 } } }] };
    const at = (reviewer: string, scores: Record<string, number>) => sheet(reviewer, 'cal-01', scores, { submission: `sha256:${h(1)}`, sha256: h(1) });
    const r = agreementReport(PACKET, RUBRIC, [at('ann', { tests: 3, design: 2 }), at('bob', { tests: 3 }), sheet('cat', 'other', { tests: 3, design: 3 })], OPTIONS, key);
    expect(r.key!.reviewers.map((k) => [k.name, k.offKey, k.decisionsMatched])).toEqual([
      ['ann', false, 1],
      ['bob', true, 0],
      ['cat', true, 0],
    ]);
    expect(r.key!.reviewers[1]!.decisionMisses[0]!.got).toBe('not decided (rows left unscored)');
    expect(r.key!.reviewers[2]!.missing).toEqual(['cal-01']);
    expect(r.submissions.map((s) => s.label)).toContain('cal-01');
  });
});

describe('reading a sheet and a key', () => {
  const digest = 'd'.repeat(64);
  const json = (o: Record<string, unknown>) => JSON.stringify({ schemaVersion: 1, kind: SCORED_SHEET_KIND, id: 'p', version: '1.0.0', digest, scores: {}, reviewer: 'ann', candidate: 'kim', ...o });
  it('skips a JSON file of another kind in a folder, and reads the head of a sheet', () => {
    expect(sheetHead('a.json', JSON.stringify({ kind: 'packet-kit/grade-summary' }))).toMatchObject({ notSheet: true });
    expect(sheetHead('a.json', json({}))).toMatchObject({ head: { id: 'p', digest } });
    expect(sheetHead('a.json', json({ schemaVersion: 2 }))).toMatchObject({ notSheet: false, diagnostic: { code: 'PK551' } });
  });
  it('trims the reviewer and falls back on the candidate for a blank card', () => {
    const head = sheetHead('a.json', json({ reviewer: '  ann ', scores: { tests: 2 } }));
    const s = reviewSheet('a.json', (head as { json: Record<string, unknown> }).json, RUBRIC) as ReviewSheet;
    expect(s).toMatchObject({ reviewer: 'ann', submission: 'candidate:kim', label: 'kim', complete: false, scores: { tests: 2 } });
  });
  it('refuses a key of another packet version, or with a decision that is neither', () => {
    const key = (o: Record<string, unknown>) => JSON.stringify({ kind: CALIBRATION_KEY_KIND, schemaVersion: 1, packet: { id: 'p', version: '1.0.0', digest }, submissions: [], ...o });
    expect(readCalibrationKey('k.json', key({}), { id: 'p', digest }, RUBRIC)).toMatchObject({ submissions: [] });
    const other = readCalibrationKey('k.json', key({ packet: { id: 'p', digest: 'e'.repeat(64) } }), { id: 'p', digest }, RUBRIC);
    expect(other).toMatchObject({ code: 'PK556', file: 'k.json' });
    expect((other as { message: string }).message).toContain('"packet"');
    const decision = readCalibrationKey('k.json', key({ submissions: [{ name: 'c', sha256: 'a'.repeat(64), expected: { decision: 'maybe' } }] }), { id: 'p', digest }, RUBRIC);
    expect((decision as { message: string }).message).toContain('submissions[0].expected.decision');
    const row = readCalibrationKey('k.json', key({ submissions: [{ name: 'c', sha256: 'a'.repeat(64), expected: { decision: 'hire', scores: { tests: 9 } } }] }), { id: 'p', digest }, RUBRIC);
    expect((row as { message: string }).message).toContain('expected.scores.tests');
  });
});
