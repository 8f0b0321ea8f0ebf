import { describe, expect, it } from 'vitest';
import { scoringDataOf } from '../../../src/site/score-client.ts';
import {
  blindLabel,
  cardOwnFindings,
  completeScores,
  decisionHeadline,
  draftIdOf,
  draftKey,
  isBlankSheet,
  levelWords,
  readImport,
  readScoredSheet,
  scorecardEvidence,
  scoredSheet,
  scoredSheetFileName,
  scoringCardOf,
  sheetGraded,
  sheetScoringPath,
  type ScoringCard,
} from '../../../src/site/scored-sheet.ts';

const card: ScoringCard = {
  id: 'red-log-gate',
  version: '1.0.0',
  digest: 'd'.repeat(64),
  rubric: {
    hireBar: 6,
    rows: [
      { id: 'tests', criterion: 'Tests pass.', max: 3, levels: { '0': 'red', '3': 'green' } },
      { id: 'honest', criterion: 'No fake green.', max: 2, levels: { '0': 'fake', '2': 'honest' } },
      { id: 'notes', criterion: 'Notes.', max: 3, levels: { '0': 'none', '3': 'sharp' } },
    ],
    vetoes: [{ row: 'honest', atMost: 0, note: 'A fake green is a no.' }],
  },
};
const date = new Date('2026-11-29T10:00:00Z');

describe('the scored sheet', () => {
  it('is complete only when every row is scored', () => {
    expect(completeScores(card, { tests: 3, honest: 2 })).toBeUndefined();
    expect(completeScores(card, { notes: 0, tests: 3, honest: 2 })).toEqual({ tests: 3, honest: 2, notes: 0 });
  });

  it('carries the packet version, its digest, the scores and the decision', () => {
    const sheet = scoredSheet(card, { notes: 3, tests: 3, honest: 0 }, { date, candidate: ' Ada L. ', reviewer: '' });
    expect(sheet).toMatchObject({
      schemaVersion: 1,
      kind: 'packet-kit/scored-sheet',
      id: 'red-log-gate',
      version: '1.0.0',
      digest: card.digest,
      candidate: 'Ada L.',
      date: '2026-11-29T10:00:00.000Z',
    });
    expect(Object.keys(sheet.scores)).toEqual(['tests', 'honest', 'notes']);
    expect(sheet).not.toHaveProperty('reviewer');
    expect(sheet.decision.decision).toBe('no-hire');
    expect(sheet.decision.reason).toBe('veto on honest (0 <= 0)');
    expect(scoredSheet(card, { notes: 1, tests: 3, honest: 2 }, { date }).decision.decision).toBe('hire');
    expect(scoredSheetFileName(sheet)).toBe('red-log-gate-1.0.0-scored-ada-l.json');
    expect(scoredSheetFileName({ id: 'x', version: '2.0.0' })).toBe('x-2.0.0-scored.json');
    // The sheets of a batch, and of several reviewers of one submission, never share a name.
    expect(scoredSheetFileName({ id: 'x', version: '2.0.0', reviewer: 'Ann', submission: { name: 'cal-01' } })).toBe('x-2.0.0-scored-cal-01-by-ann.json');
    expect(scoredSheetFileName({ id: 'x', version: '2.0.0', reviewer: 'Bob', submission: { name: 'cal-01' } })).toBe('x-2.0.0-scored-cal-01-by-bob.json');
    expect(scoredSheetFileName({ id: 'x', version: '2.0.0', reviewer: 'Ann', submission: { name: 'cal-02' } })).toBe('x-2.0.0-scored-cal-02-by-ann.json');
  });

  it('reads back what it wrote, the day and the notes per row included', () => {
    const sheet = scoredSheet(card, { tests: 2, honest: 1, notes: 3 }, { date, candidate: 'Ada', reviewer: 'Sam', scoredOn: '2026-11-28', notes: { honest: ' Said so in NOTES.md. ', tests: '  ' } });
    expect(sheet.notes).toEqual({ honest: 'Said so in NOTES.md.' });
    expect(sheet.scoredOn).toBe('2026-11-28');
    expect(readScoredSheet(JSON.stringify(sheet), card)).toEqual({
      ok: true,
      scores: { tests: 2, honest: 1, notes: 3 },
      candidate: 'Ada',
      reviewer: 'Sam',
      scoredOn: '2026-11-28',
      notes: { honest: 'Said so in NOTES.md.' },
      date: sheet.date,
      evidence: {},
      caps: {},
      fromScorecard: false,
      overrides: [],
      blind: false,
      verdict: '',
    });
    // A sheet exported before notes and days were on the card reads as one without them.
    const { notes: _n, scoredOn: _d, ...older } = sheet;
    expect(readScoredSheet(JSON.stringify(older), card)).toMatchObject({ ok: true, notes: {}, scoredOn: '' });
    expect(readScoredSheet(JSON.stringify({ ...sheet, notes: { vibes: 'x' } }), card)).toMatchObject({ ok: false, message: expect.stringContaining('row "vibes"') });
  });

  it('knows a blank card, and the key of the one draft per packet version kept before drafts were per submission', () => {
    expect(isBlankSheet(scoredSheet(card, {}, { date, scoredOn: '2026-11-28' }))).toBe(true);
    expect(isBlankSheet(scoredSheet(card, {}, { date, notes: { tests: 'started' } }))).toBe(false);
    expect(isBlankSheet(scoredSheet(card, { tests: 0 }, { date }))).toBe(false);
    expect(draftKey(card)).toBe(`packet-kit:scoring:red-log-gate:${'d'.repeat(64)}`);
  });

  it('gives a score without words of its own the words of where it lies', () => {
    const levels = { '0': 'Nothing.', '1': 'Some.', '3': 'All.' };
    expect(levelWords(levels, 1)).toEqual({ words: 'Some.', own: true });
    expect(levelWords(levels, 2)).toEqual({ words: 'Between 1 and 3.', own: false });
    expect(levelWords({ '0': 'a' }, 2)).toEqual({ words: 'More than 0.', own: false });
  });

  it('refuses another version, another packet, and bad scores, saying why', () => {
    const sheet = scoredSheet(card, { tests: 2 }, { date });
    const read = (changes: object) => readScoredSheet(JSON.stringify({ ...sheet, ...changes }), card);
    expect(read({ digest: 'e'.repeat(64), version: '0.9.0' })).toEqual({
      ok: false,
      message:
        'This sheet was scored on another version of "red-log-gate" (version 0.9.0, digest eeeeeeeeeeee); this page is version 1.0.0, digest dddddddddddd. A sheet belongs to one version only, so nothing was changed.',
    });
    expect(read({ id: 'other' })).toMatchObject({ ok: false, message: expect.stringContaining('scores the packet "other"') });
    expect(read({ scores: { tests: 4 } })).toMatchObject({ ok: false, message: expect.stringContaining('whole number from 0 to 3') });
    expect(read({ scores: { tests: 1.5 } })).toMatchObject({ ok: false });
    expect(read({ scores: { vibes: 1 } })).toMatchObject({ ok: false, message: expect.stringContaining('row "vibes"') });
    expect(read({ schemaVersion: 2 })).toMatchObject({ ok: false, message: expect.stringContaining('format version 2') });
    expect(readScoredSheet('not json', card)).toMatchObject({ ok: false, message: expect.stringContaining('not JSON') });
    expect(readScoredSheet('{"scores":{}}', card)).toMatchObject({ ok: false, message: expect.stringContaining('not a packet-kit scored sheet') });
  });
});

describe('the card of a scoring page', () => {
  it('is the packet\'s version and rubric, and hands the kind\'s script the rows with their automatic checks', () => {
    const rows = [{ ...card.rubric.rows[0]!, auto: 'tests' as const }, ...card.rubric.rows.slice(1)];
    const packet = { id: card.id, digest: card.digest, prompt: { version: card.version, title: 'not on the card' }, rubric: { ...card.rubric, rows, minutes: 20 } };
    const made = scoringCardOf(packet);
    expect(made).toEqual({ ...card, rubric: { ...card.rubric, rows } });
    expect(scoringDataOf(made)).toEqual({
      id: card.id,
      version: card.version,
      digest: card.digest,
      rows: [{ id: 'tests', max: 3, auto: 'tests' }, { id: 'honest', max: 2 }, { id: 'notes', max: 3 }],
    });
  });
});

describe('a scorecard.json imported onto the card', () => {
  const autoCard: ScoringCard = { ...card, rubric: { ...card.rubric, rows: card.rubric.rows.map((r) => (r.id === 'tests' ? { ...r, auto: 'tests' as const } : r)) } };
  const sha = 'a'.repeat(64);
  const scorecard = (over: Record<string, unknown> = {}) =>
    JSON.stringify({
      schemaVersion: 1,
      kind: 'packet-kit/scorecard',
      packet: { id: 'red-log-gate', version: '1.0.0', digest: card.digest },
      submission: { name: 'ada', source: 'subs/ada.zip', kind: 'zip', sha256: sha, stripped: null, dropped: [], stated: { version: '1.0.0', digest: null } },
      date: '2026-11-30T09:00:00.000Z',
      graded: true,
      rows: [
        { id: 'tests', criterion: 'Tests pass.', max: 3, auto: 'tests', score: 0, evidence: 'PK416 1 held-out test failed: test_gate', cap: null },
        { id: 'honest', criterion: 'No fake green.', max: 2, auto: null, score: null, evidence: null, cap: { mode: 'fake-green', max: 1 } },
        { id: 'notes', criterion: 'Notes.', max: 3, auto: null, score: null, evidence: null, cap: null },
      ],
      ...over,
    });

  it('sets the automatic rows with their evidence, keeps the caps, and leaves the judgement rows open', () => {
    const r = readImport(scorecard(), autoCard);
    expect(r).toMatchObject({ ok: true, fromScorecard: true, scores: { tests: 0 }, candidate: 'ada', submission: { name: 'ada', sha256: sha } });
    if (!r.ok) return;
    expect(r.evidence).toEqual({ tests: 'PK416 1 held-out test failed: test_gate' });
    expect(r.caps).toEqual({ honest: { mode: 'fake-green', max: 1 } });
    expect(completeScores(autoCard, r.scores)).toBeUndefined();
  });

  it('exports a sheet that names both the packet digest and the submission, and reads back whole', () => {
    const r = readImport(scorecard(), autoCard);
    if (!r.ok) throw new Error(r.message);
    const sheet = scoredSheet(autoCard, { ...r.scores, honest: 1, notes: 2 }, { date, candidate: r.candidate, ...(r.submission ? { submission: r.submission } : {}), evidence: r.evidence, caps: r.caps });
    expect(sheet).toMatchObject({ digest: card.digest, submission: { name: 'ada', sha256: sha }, evidence: { tests: r.evidence.tests }, caps: { honest: { mode: 'fake-green', max: 1 } } });
    const back = readImport(JSON.stringify(sheet), autoCard);
    expect(back).toMatchObject({ ok: true, fromScorecard: false, scores: { tests: 0, honest: 1, notes: 2 }, submission: { name: 'ada', sha256: sha }, caps: { honest: { mode: 'fake-green', max: 1 } } });
  });

  it('refuses a scorecard of another version, another packet, a refused submission, a scored judgement row or a score out of range', () => {
    const refused = (over: Record<string, unknown>) => {
      const r = readImport(scorecard(over), autoCard);
      return r.ok ? 'accepted' : r.message;
    };
    expect(refused({ packet: { id: 'red-log-gate', version: '0.9.0', digest: 'e'.repeat(64) } })).toMatch(/graded against another version .*version 0\.9\.0/);
    expect(refused({ packet: { id: 'other', version: '1.0.0', digest: card.digest } })).toMatch(/grades the packet "other"/);
    expect(refused({ graded: false })).toMatch(/was refused when it was read/);
    expect(refused({ schemaVersion: 2 })).toMatch(/format version 2/);
    expect(refused({ submission: { name: 'ada', sha256: 'not-a-digest' } })).toMatch(/names no submission/);
    const rows = (patch: Record<string, unknown>, id = 'tests') => JSON.parse(scorecard()).rows.map((row: { id: string }) => (row.id === id ? { ...row, ...patch } : row));
    expect(refused({ rows: rows({ score: 2 }, 'notes') })).toMatch(/judgement row "notes"/);
    expect(refused({ rows: rows({ score: 4 }) })).toMatch(/whole number from 0 to 3/);
    expect(refused({ rows: rows({ id: 'ghost' }) })).toMatch(/row "ghost" that this rubric does not have/);
    expect(readImport('{"kind":"packet-kit/scorecard"', autoCard)).toMatchObject({ ok: false, message: expect.stringMatching(/not JSON/) });
  });

  it("brings the grader's verdict, decision so far and findings, with the rows each finding bears on", () => {
    const findings = [
      { code: 'PK416', name: 'x', kind: 'hidden-tests', severity: 'error', message: '1 held-out test failed', hint: 'h' },
      { code: 'PK512', name: 'y', kind: 'version', severity: 'warning', message: 'no README.md', hint: 'h', file: 'README.md' },
    ];
    const rows = JSON.parse(scorecard()).rows.map((row: { id: string }) => ({ ...row, findings: row.id === 'tests' ? [0, 7] : [] }));
    const r = readImport(scorecard({ verdict: 'CAUGHT', findings, rows, decision: { state: 'no-hire', reason: "at most 5 of the hire bar's 6, whatever the reviewer scores" } }), autoCard);
    if (!r.ok) throw new Error(r.message);
    expect(r.verdict).toBe('CAUGHT');
    const g = r.graderEvidence!;
    // An index out of range is dropped, not shown as a finding that is not there.
    expect(g.rowFindings).toEqual({ tests: [0], honest: [], notes: [] });
    expect(g.findings[1]).toEqual({ code: 'PK512', severity: 'warning', message: 'no README.md', hint: 'h', file: 'README.md' });
    expect(cardOwnFindings(g)).toEqual([1]);
    expect(decisionHeadline(g)).toBe("CAUGHT, decision so far: no-hire (at most 5 of the hire bar's 6, whatever the reviewer scores).");
  });

  it('records an override of an automatic row with its reason; its evidence says so first, and reads back', () => {
    const r = readImport(scorecard(), autoCard);
    if (!r.ok) throw new Error(r.message);
    const override = { row: 'tests', from: 0, to: 2, reason: 'the held-out run was flaky', reviewer: 'Sam', at: '2026-11-30T10:00:00.000Z' };
    const extras = { date, candidate: r.candidate, reviewer: 'Sam', ...(r.submission ? { submission: r.submission } : {}), evidence: r.evidence, caps: r.caps, verdict: 'CAUGHT', blind: true };
    const sheet = scoredSheet(autoCard, { tests: 2, honest: 1, notes: 2 }, { ...extras, overrides: [override] });
    expect(sheet.overrides).toEqual([override]);
    expect(sheet.evidence!.tests).toBe('overridden from 0 to 2 by Sam (the held-out run was flaky); the scorecard said: PK416 1 held-out test failed: test_gate');
    expect(sheet).toMatchObject({ blind: true, verdict: 'CAUGHT' });
    const back = readScoredSheet(JSON.stringify(sheet), autoCard);
    expect(back).toMatchObject({ ok: true, overrides: [override], blind: true, verdict: 'CAUGHT', evidence: { tests: 'PK416 1 held-out test failed: test_gate' } });
    expect(scorecardEvidence('green: all passed')).toBe('green: all passed');
    // An override the score no longer shows (set back to the scorecard's) is not exported.
    expect(scoredSheet(autoCard, { tests: 0, honest: 1, notes: 2 }, { ...extras, overrides: [override] }).overrides).toBeUndefined();
    // A bad override is refused, saying what it needs.
    const bad = readScoredSheet(JSON.stringify({ ...sheet, overrides: [{ ...override, row: 'notes' }] }), autoCard);
    expect(bad).toMatchObject({ ok: false, message: expect.stringMatching(/override that is not an automatic row/) });
  });

  it('keys a draft by the submission sha256, else by the candidate, and labels a blind card by its sha256 only', () => {
    expect(draftIdOf({ submission: { name: 'ada', sha256: sha }, candidate: 'Ada' })).toBe(`sha256:${sha}`);
    expect(draftIdOf({ candidate: '  Bob   Smith ' })).toBe('candidate:bob smith');
    expect(draftIdOf({ candidate: ' ' })).toBeNull();
    expect(blindLabel(sha)).toBe('Submission aaaaaaaa');
    expect(blindLabel(null)).toBe('A submission');
  });
});

describe('a scorecard or batch of answer sheets on the rubric form', () => {
  const sheetCard = (kind: unknown) => ({ kind: 'packet-kit/scorecard', schemaVersion: 1, packet: { id: card.id, version: card.version, digest: card.digest }, submission: { name: 'ada', sha256: 'a'.repeat(64), kind }, graded: true, rows: [] });

  it('names the kind and the packet of a sheet scorecard and of a batch of them', () => {
    expect(sheetGraded(sheetCard('lab-sheet'))).toEqual({ kind: 'lab', id: card.id, batch: false });
    expect(sheetGraded(sheetCard('drill-sheet'))).toEqual({ kind: 'drill', id: card.id, batch: false });
    expect(sheetGraded({ kind: 'packet-kit/grade-summary', packet: { id: 'lab-x' }, rows: [{ name: 'a' }, { name: 'b', scorecard: sheetCard('lab-sheet') }] })).toEqual({ kind: 'lab', id: 'lab-x', batch: true });
    expect(sheetGraded(sheetCard('workspace'))).toBeNull();
    expect(sheetGraded(sheetCard(undefined))).toBeNull();
    expect(sheetGraded({ kind: 'packet-kit/grade-summary', rows: 'no' })).toBeNull();
    expect(sheetGraded(null)).toBeNull();
  });

  it('readImport refuses it with the path of the scoring page, the id escaped into the path', () => {
    const read = readImport(JSON.stringify(sheetCard('drill-sheet')), card);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.message).toContain(`Import it on the drill's scoring page, /drills/${card.id}/score/,`);
    expect(sheetScoringPath({ kind: 'lab', id: 'a/b c' })).toBe('/labs/a%2Fb%20c/score/');
  });
});
