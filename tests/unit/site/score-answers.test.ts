import { describe, expect, it } from 'vitest';
import { DRILL_SHEET_SUBMISSION, GRADE_SUMMARY_KIND, LAB_SHEET_SUBMISSION, SCORECARD_KIND, type SheetAnswers } from '../../../src/judge/scorecard-format.ts';
import { CARD_FILE_LIMIT, isSummary, readSheetScorecard, readSheetSummary, REGION_LIMIT, SHEET_FILE_LIMIT, TEXT_LIMIT, tooLarge, variantIdOf, type ScorePageTarget } from '../../../src/site/score-answers.ts';
import type { ScoringCard } from '../../../src/site/scored-sheet.ts';

const card: ScoringCard = {
  id: 'lab-signup-form',
  version: '1.0.1',
  digest: 'b'.repeat(64),
  rubric: {
    hireBar: 6,
    rows: [
      { id: 'choices', criterion: 'Choices.', max: 3, auto: 'choices', levels: { '0': 'none', '3': 'all' } },
      { id: 'reasons', criterion: 'Reasons.', max: 3, levels: { '0': 'none', '3': 'sharp' } },
    ],
    vetoes: [],
  },
};
const target: ScorePageTarget = { kind: 'lab', card, items: ['merge', 'gaps'] };
const answers = (): SheetAnswers => ({
  kind: 'lab',
  candidate: 'Kim',
  exported: '2026-12-01T10:31:05.000Z',
  items: [
    { id: 'merge', title: 'Merge the rules', answer: 'hand edit', key: 'revise', matches: false, reason: 'r1', keyReason: 'k1', hand: 'h', reference: 'ref' },
    { id: 'gaps', title: 'Close the gaps', answer: 'accept', key: 'accept', matches: true, reason: 'r2', keyReason: 'k2' },
  ],
  plan: { endState: 'e', checkpoints: 'c', invariant: 'i', byHand: 'b' },
  tests: [{ id: 't1', hidden: true, outcome: 'fail', message: 'm' }],
  timeline: [{ at: '2026-12-01T10:00:00.000Z', action: 'start' }],
});
const scorecard = (over: Record<string, unknown> = {}, sub: Record<string, unknown> = {}) => ({
  schemaVersion: 1,
  kind: SCORECARD_KIND,
  packet: { id: card.id, version: card.version, digest: card.digest },
  submission: { name: 'kim-lab', source: 'kim.json', kind: LAB_SHEET_SUBMISSION, sha256: 'a'.repeat(64), stripped: null, dropped: [], stated: { version: null, digest: null }, ...sub },
  graded: true,
  verdict: 'PASS',
  findings: [{ code: 'PK541', severity: 'error', message: 'held out fails', hint: '' }],
  rows: [
    { id: 'choices', criterion: 'Choices.', max: 3, auto: 'choices', score: 2, evidence: 'e', cap: null, findings: [] },
    { id: 'reasons', criterion: 'Reasons.', max: 3, auto: null, score: null, evidence: null, cap: null, findings: [] },
  ],
  decision: { state: 'pending', reason: 'open' },
  answers: answers(),
  ...over,
});
const refused = (json: unknown, t = target) => {
  const r = readSheetScorecard(json, t);
  if (r.ok) throw new Error('expected a refusal');
  return r.message;
};

describe('a scorecard graded from an answer sheet, read onto its scoring page', () => {
  it('reads the rows, the grader evidence and the answers, the candidate from the sheet', () => {
    const r = readSheetScorecard(scorecard(), target);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.card.scores).toEqual({ choices: 2 });
    expect(r.value.card.candidate).toBe('Kim');
    expect(r.value.card.graderEvidence?.findings.map((f) => f.code)).toEqual(['PK541']);
    expect(r.value.answers).toEqual(answers());
  });

  it('falls back to the submission name when the sheet names no one', () => {
    const r = readSheetScorecard(scorecard({ answers: { ...answers(), candidate: null } }), target);
    expect(r.ok && r.value.card.candidate).toBe('kim-lab');
  });

  it('refuses another version, naming both', () => {
    const m = refused(scorecard({ packet: { id: card.id, version: '0.9.0', digest: 'f'.repeat(64) } }));
    expect(m).toContain('version 0.9.0 (digest ffffffffffff)');
    expect(m).toContain('this page is version 1.0.1 (digest bbbbbbbbbbbb)');
  });

  it('refuses a take-home or the other kind, naming the page that reads it', () => {
    expect(refused(scorecard({}, { kind: 'zip' }))).toContain("a take-home submission, not a lab's answer sheet: the packet's rubric page (/packets/lab-signup-form/rubric/) reads it");
    expect(refused(scorecard({}, { kind: undefined }))).toContain('the packet\'s rubric page');
    expect(refused(scorecard({}, { kind: DRILL_SHEET_SUBMISSION }))).toContain("the drill's scoring page (/drills/lab-signup-form/score/)");
    expect(refused(scorecard({}, { kind: LAB_SHEET_SUBMISSION }), { ...target, kind: 'drill' })).toContain("the lab's scoring page (/labs/lab-signup-form/score/)");
  });

  it('refuses what is not a scorecard, another packet, and a card refused at intake', () => {
    expect(refused({ kind: 'x' })).toContain('is not a scorecard.json');
    expect(refused(null)).toContain('is not a scorecard.json');
    expect(refused(scorecard({ packet: { id: 'other', version: '1', digest: 'c'.repeat(64) } }))).toContain('grades the packet "other"');
    expect(refused(scorecard({ graded: false }))).toContain('was refused when it was read');
  });

  it('refuses missing or malformed answers, naming the field', () => {
    expect(refused(scorecard({ answers: undefined }))).toContain('has no "answers"');
    const cases: [(a: Record<string, unknown>) => void, string][] = [
      [(a) => (a.kind = 'drill'), '"answers.kind" is "drill", not "lab"'],
      [(a) => (a.candidate = 3), '"answers.candidate" is neither a name nor null'],
      [(a) => (a.items = 'x'), '"answers.items" is not a list'],
      [(a) => ((a.items as Record<string, unknown>[])[1]!.matches = 'yes'), '"answers.items[1].matches" is not true or false'],
      [(a) => ((a.items as Record<string, unknown>[])[0]!.hand = 5), '"answers.items[0].hand" is not a text'],
      [(a) => ((a.items as Record<string, unknown>[])[0]!.answer = 5), '"answers.items[0].answer" is neither a text nor null'],
      [(a) => (a.items = (a.items as unknown[]).slice(0, 1)), '"answers.items" names merge; this lab has merge, gaps, in that order'],
      [(a) => (a.items = [...(a.items as unknown[])].reverse()), 'in that order'],
      [(a) => (a.plan = 'x'), '"answers.plan" is not an object'],
      [(a) => ((a.plan as Record<string, unknown>).byHand = 1), '"answers.plan.byHand" is not a text'],
      [(a) => (a.tests = {}), '"answers.tests" is not a list'],
      [(a) => ((a.tests as Record<string, unknown>[])[0]!.hidden = 'no'), '"answers.tests[0].hidden" is not true or false'],
      [(a) => (a.tests = Array.from({ length: 2001 }, () => ({ id: 't', hidden: false, outcome: 'pass' }))), 'more than 2000'],
      [(a) => (a.timeline = undefined), '"answers.timeline" is not a list'],
      [(a) => (a.timeline = Array.from({ length: 2001 }, () => ({}))), 'more than 2000'],
    ];
    for (const [spoil, words] of cases) {
      const a = answers() as unknown as Record<string, unknown>;
      spoil(a);
      expect(refused(scorecard({ answers: a })), words).toContain(words);
    }
  });

  it('cuts over-long texts instead of carrying them whole', () => {
    const a = answers();
    a.items[1]!.reason = 'r'.repeat(TEXT_LIMIT + 10);
    a.items[0]!.hand = 'h'.repeat(REGION_LIMIT + 10);
    const r = readSheetScorecard(scorecard({ answers: a }), target);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.answers.items[1]!.reason).toHaveLength(TEXT_LIMIT + 1);
    expect(r.value.answers.items[0]!.hand).toHaveLength(REGION_LIMIT + 1);
  });
});

describe("a batch's summary.json on a scoring page", () => {
  const summary = (rows: unknown[]) => ({ kind: GRADE_SUMMARY_KIND, packet: { id: card.id, version: card.version, digest: card.digest }, rows });
  it('reads each row with its scorecard, keeping rows that cannot be scored', () => {
    expect(isSummary(summary([]))).toBe(true);
    expect(isSummary(scorecard())).toBe(false);
    const r = readSheetSummary(summary([
      { name: 'kim-lab', sha256: 'a'.repeat(64), verdict: 'PASS', decision: 'pending', codes: ['PK541'], scorecard: scorecard() },
      { name: 'bad', sha256: null, verdict: 'REFUSED', decision: 'not-graded', codes: ['PK530'], cardError: 'refused' },
      { name: 'th', verdict: 'PASS', decision: 'pending', codes: [], scorecard: scorecard({}, { kind: 'zip' }) },
    ]), target);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.items.map((i) => [i.name, i.verdict, i.decision, i.codes, i.card.ok])).toEqual([
      ['kim-lab', 'PASS', 'pending', ['PK541'], true],
      ['bad', 'REFUSED', 'not-graded', ['PK530'], false],
      ['th', 'PASS', 'pending', [], false],
    ]);
    expect(!r.items[2]!.card.ok && r.items[2]!.card.message).toContain('take-home');
  });

  it("gives each row its variant: the scorecard's variant.id, else the row's, cut, and none when neither is text", () => {
    const r = readSheetSummary(summary([
      { name: 'ada', verdict: 'PASS', decision: 'pending', codes: [], variant: 'v1', scorecard: scorecard({ variant: { id: 'v2', number: 2 } }) },
      { name: 'bob', verdict: 'REFUSED', decision: 'not-graded', codes: ['PK583'], variant: 'v3', cardError: 'refused' },
      { name: 'cy', verdict: 'PASS', decision: 'pending', codes: [], variant: null, scorecard: scorecard() },
      { name: 'dee', verdict: 'REFUSED', decision: 'not-graded', codes: [], variant: 7 },
    ]), target);
    expect(r.ok && r.items.map((i) => i.variant)).toEqual(['v2', 'v3', undefined, undefined]);
    const read = readSheetScorecard(scorecard({ variant: { id: `<b>${'x'.repeat(60)}` } }), target);
    expect(read.ok && read.value.variant).toBe(`<b>${'x'.repeat(37)}…`);
    expect([variantIdOf('v4'), variantIdOf({ id: 'v5' }), variantIdOf(''), variantIdOf({ id: 5 }), variantIdOf(undefined)]).toEqual(['v4', 'v5', undefined, undefined, undefined]);
  });

  it('refuses a batch of another version or with no rows', () => {
    const other = { ...summary([{ name: 'x' }]), packet: { id: card.id, version: '0.9.0', digest: 'f'.repeat(64) } };
    const r = readSheetSummary(other, target);
    expect(!r.ok && r.message).toContain('version 0.9.0');
    const empty = readSheetSummary(summary([]), target);
    expect(!empty.ok && empty.message).toContain('no submissions');
  });
});

describe('the size of a file the scoring page reads', () => {
  it('refuses a file over its limit before reading it, naming the file and both sizes', () => {
    expect(tooLarge('kim.json', SHEET_FILE_LIMIT, SHEET_FILE_LIMIT)).toBeNull();
    expect(tooLarge('kim.json', SHEET_FILE_LIMIT + 1, SHEET_FILE_LIMIT)).toBe('kim.json is 8.0 MB, more than the 8.0 MB this page reads: it is not a file packet-kit wrote. Nothing was changed.');
    expect(tooLarge('summary.json', 40 * 1024 * 1024, CARD_FILE_LIMIT)).toContain('40.0 MB, more than the 32.0 MB');
  });
});
