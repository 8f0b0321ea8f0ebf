import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answersMarkdown } from '../../../src/judge/scorecard.ts';
import { readLabSheetStrict, readSheetBytes, SHEET_LIMITS } from '../../../src/grade/sheet-intake.ts';
import { GRADE_SUMMARY_KIND, LAB_SHEET_SUBMISSION, SCORECARD_KIND, type SheetAnswers } from '../../../src/judge/scorecard-format.ts';
import { scoreSheet, typedVersion } from '../../../src/labs/score.ts';
import { LAB_SHEET_KIND, TIMELINE_LIMIT } from '../../../src/labs/sheet-read.ts';
import { readSheetScorecard, readSheetSummary, type ScorePageTarget } from '../../../src/site/score-answers.ts';
import type { ScoringCard } from '../../../src/site/scored-sheet.ts';
import { typedOutSheet } from '../../../src/site/score-client.ts';
import { timelineRows } from '../../../src/site/score-timeline.ts';
import type { LabAnswerSheet } from '../../../src/labs/sheet-read.ts';

/**
 * Hostile answer sheets and hostile grader output, probe by probe: prototype keys, a sheet of the
 * right digest and another version, timelines at and past their caps, files that are no regular
 * file or one byte past the cap, open answers, hand edits that type out a scripted version or
 * cannot lift a vetoed row, and scorecards or summaries edited to tick more than their answers earn.
 */
const target = { id: 'lab-x', version: '1.0.0', digest: 'a'.repeat(64), suggestions: ['one', 'two', 'three'] };
const sheet = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  schemaVersion: 1,
  kind: LAB_SHEET_KIND,
  id: 'lab-x',
  version: '1.0.0',
  digest: 'a'.repeat(64),
  date: '2026-12-02T10:00:00.000Z',
  plan: { endState: 'e', checkpoints: 'c', invariant: 'i', byHand: 'b' },
  suggestions: [
    { id: 'one', choice: 'accept', reason: '' },
    { id: 'two', choice: 'revise', reason: 'r' },
    { id: 'three', choice: null, reason: '' },
  ],
  ...over,
});
const read = (v: unknown) => readLabSheetStrict(Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)), 'eve.json', target);
const code = (v: unknown) => {
  const r = read(v);
  return r.ok ? 'read' : r.refusal.code;
};

describe('the strict reader against hostile sheets', () => {
  it('refuses "__proto__" and "constructor" as suggestion ids, and ignores them as fields without touching any prototype', () => {
    for (const id of ['__proto__', 'constructor', 'toString']) {
      const s = sheet();
      (s.suggestions as Record<string, unknown>[])[2] = { id, choice: 'accept', reason: '' };
      expect(code(s), id).toBe('PK563');
    }
    const text = JSON.stringify(sheet()).replace('"plan":{', '"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"plan":{"__proto__":{"polluted":1},');
    const r = read(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.warnings.filter((w) => w.code === 'PK564').map((w) => w.message)).toEqual([expect.stringContaining('"__proto__"'), expect.stringContaining('"constructor"'), expect.stringContaining('"plan.__proto__"')]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(r.sheet.plan)).toBe(Object.prototype);
  });

  it('refuses the right digest under another version string, and the right version under another digest', () => {
    expect(code(sheet({ version: '1.0.1' }))).toBe('PK562');
    expect(code(sheet({ digest: 'A'.repeat(64) }))).toBe('PK562');
    expect(code(sheet({ version: ['1.0.0'] }))).toBe('PK562');
  });

  it('reads a timeline at its cap with times out of order and in the future; refuses one step more or an unreadable time', () => {
    const step = (i: number) => ({ at: new Date(Date.UTC(2099, 0, 1) - i * 7_000).toISOString(), action: 'hand-edit', id: '__proto__', detail: 'x'.repeat(200) });
    const full = read(sheet({ timeline: Array.from({ length: TIMELINE_LIMIT }, (_, i) => step(i)) }));
    expect(full.ok).toBe(true);
    if (full.ok) expect(full.sheet.timeline).toHaveLength(TIMELINE_LIMIT);
    expect(code(sheet({ timeline: Array.from({ length: TIMELINE_LIMIT + 1 }, (_, i) => step(i)) }))).toBe('PK563');
    expect(code(sheet({ timeline: [{ ...step(0), detail: 'x'.repeat(201) }] }))).toBe('PK563');
    // Date.parse reads "1" as a year; the page's reader does not, and neither does the grader.
    expect(code(sheet({ timeline: [{ at: '1', action: 'start' }] }))).not.toBe('read');
  });

  it('reads an open choice as no match and its region as the starter’s, with a warning', () => {
    const r = read(sheet());
    expect(r.ok && r.warnings.map((w) => w.code)).toEqual(['PK567']);
    const s = scoreSheet({ rows: [{ id: 'choices', max: 3, auto: 'choices' }] }, [{ answer: null }, { answer: null }, { answer: null }], ['reject', 'reject', 'reject'], null);
    expect(s.matches).toEqual([false, false, false]);
    expect(s.scores.choices).toBe(0);
  });

  it('refuses a hand edit or a reason over its cap, and a hand edit that is not text', () => {
    const s = sheet();
    (s.suggestions as Record<string, unknown>[])[0]!.hand = 'x'.repeat(SHEET_LIMITS.hand + 1);
    expect(code(s)).toBe('PK563');
    (s.suggestions as Record<string, unknown>[])[0]!.hand = { toString: 'x' };
    expect(code(s)).toBe('PK563');
  });
});

describe('the sheet file itself', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'packet-kit-sheet-attack-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('refuses a link, a FIFO, a folder and a file one byte past the cap; reads one at the cap', async () => {
    const at = (n: string) => path.join(dir, n);
    await writeFile(at('cap.json'), Buffer.alloc(SHEET_LIMITS.bytes, 0x20));
    await writeFile(at('over.json'), Buffer.alloc(SHEET_LIMITS.bytes + 1, 0x20));
    await symlink(at('cap.json'), at('link.json'));
    await mkdir(at('dir.json'));
    execFileSync('mkfifo', [at('fifo.json')]);
    expect((await readSheetBytes(at('cap.json'), 'cap.json')).ok).toBe(true);
    for (const n of ['over.json', 'link.json', 'dir.json', 'fifo.json']) {
      const r = await readSheetBytes(at(n), n);
      expect(r.ok, n).toBe(false);
      if (!r.ok) expect(r.refusal.code, n).toBe('PK560');
    }
  });
});

describe('hand edits and the choices row', () => {
  const rubric = { rows: [{ id: 'choices', max: 3, auto: 'choices' }], vetoes: [{ row: 'choices', atMost: 1 }] };
  const key = ['revise', 'accept', 'revise', 'reject'];

  it('reads a typed-out scripted version as that choice, line ends aside, and nothing else', () => {
    const versions = [['revise', '    a = 1\n    b = 2\n'], ['accept', '    a = 0\n'], ['reject', '    pass\n']] as const;
    expect(typedVersion('    a = 1\r\n    b = 2', versions)).toBe('revise');
    expect(typedVersion('    a = 1\n    b = 2\n\n', versions)).toBe('revise');
    expect(typedVersion('    a = 0\n', versions)).toBe('accept');
    expect(typedVersion('\ta = 0\n', versions)).toBeNull();
    expect(typedVersion('    a = 0 # mine\n', versions)).toBeNull();
  });

  it('keeps the veto when even every hand edit judged right leaves the choices row under it', () => {
    // One match and one hand edit of four: at best 2 of 4, floor(3 * 2 / 4) = 1, which the veto catches.
    const low = scoreSheet(rubric, [{ answer: 'accept', hand: true }, { answer: 'accept' }, { answer: 'accept' }, { answer: 'accept' }], key, null);
    expect(low.scores.choices).toBe(1);
    // Three matches and a hand edit: the hand edit decides between 2 and 3, so the row is the reviewer's.
    const high = scoreSheet(rubric, [{ answer: 'revise', hand: true }, { answer: 'accept' }, { answer: 'revise' }, { answer: 'reject' }], key, null);
    expect(high.scores.choices).toBeUndefined();
    // No veto on the row: it stays the reviewer's, whatever it could reach.
    expect(scoreSheet({ rows: rubric.rows }, [{ answer: 'accept', hand: true }, { answer: 'accept' }, { answer: 'accept' }, { answer: 'accept' }], key, null).scores.choices).toBeUndefined();
  });
});

describe('the lab’s scoring page on a sheet with typed-out versions', () => {
  it('reads a hand edit that types out a scripted version as that choice, as the grader does', () => {
    const data = { suggestions: [{ id: 'one', ask: 'a', original: '    pass\n', offered: '    x = 1\n', revised: '    x = 2\n' }, { id: 'two', ask: 'b', original: '    y\n', offered: '    y = 1\n', revised: '    y = 2\n' }] };
    const key = { key: [{ choice: 'revise' as const, reason: '' }, { choice: 'reject' as const, reason: '' }] };
    const base = { schemaVersion: 1, kind: LAB_SHEET_KIND, id: 'lab-x', version: '1', digest: 'a', date: '', plan: { endState: '', checkpoints: '', invariant: '', byHand: '' } } as const;
    const read = typedOutSheet({ ...base, suggestions: [{ id: 'one', choice: null, hand: '    x = 1\r\n', reason: '' }, { id: 'two', choice: 'accept', hand: '    y = 3\n', reason: '' }] } as LabAnswerSheet, key as never, data);
    expect(read.suggestions[0]).toEqual({ id: 'one', choice: 'accept', reason: '' });
    expect(read.suggestions[1]).toMatchObject({ choice: 'accept', hand: '    y = 3\n' });
  });
});

describe('grader output edited before it reaches the scoring page', () => {
  const card: ScoringCard = {
    id: 'lab-x',
    version: '1.0.0',
    digest: 'a'.repeat(64),
    rubric: {
      hireBar: 4,
      rows: [
        { id: 'choices', criterion: 'Choices.', max: 3, auto: 'choices', levels: { '0': 'none', '3': 'all' } },
        { id: 'final', criterion: 'Tests.', max: 2, auto: 'tests', levels: { '0': 'red', '2': 'green' } },
        { id: 'reasons', criterion: 'Reasons.', max: 3, levels: { '0': 'none', '3': 'sharp' } },
      ],
      vetoes: [{ row: 'choices', atMost: 1, note: 'no' }],
    },
  };
  const page: ScorePageTarget = { kind: 'lab', card, items: ['one', 'two'] };
  const answers = (): SheetAnswers => ({
    kind: 'lab',
    candidate: 'Eve',
    exported: '2026-12-02T10:00:00.000Z',
    items: [
      { id: 'one', title: 'One', answer: 'accept', key: 'revise', matches: false, reason: '', keyReason: 'k' },
      { id: 'two', title: 'Two', answer: 'accept', key: 'accept', matches: true, reason: '', keyReason: 'k' },
    ],
    tests: [
      { id: 't1', hidden: false, outcome: 'pass' },
      { id: 't2', hidden: true, outcome: 'fail' },
    ],
    timeline: [],
  });
  const scorecard = (rows: { choices?: number | null; final?: number | null }, over: Record<string, unknown> = {}) => ({
    schemaVersion: 1,
    kind: SCORECARD_KIND,
    packet: { id: card.id, version: card.version, digest: card.digest },
    submission: { name: 'eve', source: 'eve.json', kind: LAB_SHEET_SUBMISSION, sha256: 'c'.repeat(64), stripped: null, dropped: [], stated: { version: null, digest: null } },
    graded: true,
    verdict: 'FALSE-GREEN',
    findings: [],
    rows: [
      { id: 'choices', max: 3, auto: 'choices', score: rows.choices ?? null, evidence: 'e', cap: null, findings: [] },
      { id: 'final', max: 2, auto: 'tests', score: rows.final ?? null, evidence: 'e', cap: null, findings: [] },
      { id: 'reasons', max: 3, auto: null, score: null, evidence: null, cap: null, findings: [] },
    ],
    decision: { state: 'no-hire', reason: 'veto on choices' },
    answers: answers(),
    ...over,
  });
  const message = (json: unknown) => {
    const r = readSheetScorecard(json, page);
    return r.ok ? 'read' : r.message;
  };

  it('reads the card as packet grade wrote it', () => {
    expect(message(scorecard({ choices: 1, final: 0 }))).toBe('read');
  });

  it('refuses scores above the row’s max, negative or not whole, and a card of another packet or not graded', () => {
    expect(message(scorecard({ choices: 4 }))).toMatch(/whole number from 0 to 3/);
    expect(message(scorecard({ choices: -1 }))).toMatch(/whole number from 0 to 3/);
    expect(message(scorecard({ choices: 1.5 }))).toMatch(/whole number from 0 to 3/);
    expect(message(scorecard({}, { packet: { id: 'lab-y', version: '1.0.0', digest: 'a'.repeat(64) } }))).toMatch(/"lab-y", not "lab-x"/);
    expect(message(scorecard({}, { graded: false }))).toMatch(/was refused when it was read/);
  });

  it('refuses a card that says PASS and ticks the tests row while its answers list a failing test', () => {
    expect(message(scorecard({ choices: 1, final: 2 }, { verdict: 'PASS', decision: { state: 'hire', reason: 'forged' } }))).toMatch(/"rows\.final\.score" is 2, yet the answers list the test t2 as fail/);
    expect(message(scorecard({ choices: 1, final: 2 }, { answers: { ...answers(), tests: [] } }))).toMatch(/"rows\.final\.score" is 2, yet the answers list no test/);
  });

  it('refuses a card whose matches or choices score its answers do not bear out', () => {
    const a = answers();
    a.items[0]!.matches = true;
    expect(message(scorecard({ choices: 3, final: 0 }, { answers: a }))).toMatch(/"answers\.items\[0\]\.matches" is true for the answer "accept" against the key "revise"/);
    expect(message(scorecard({ choices: 3, final: 0 }))).toMatch(/"rows\.choices\.score" is 3, yet 1 of 2 answers match the key or are edited by hand, worth at most 1/);
    const open = answers();
    open.items[1] = { ...open.items[1]!, answer: null, key: 'accept', matches: true };
    expect(message(scorecard({ choices: 1, final: 0 }, { answers: open }))).toMatch(/"answers\.items\[1\]\.matches" is true for the answer null/);
  });

  it('counts no hand edit on a drill’s card: a drill’s answers are verdicts', () => {
    const drillCard = { ...card, rubric: { ...card.rubric, rows: [card.rubric.rows[0]!, card.rubric.rows[2]!] } };
    const a: SheetAnswers = { ...answers(), kind: 'drill', tests: [], items: answers().items.map((i, n) => (n === 0 ? { ...i, answer: 'hand edit', matches: false } : i)) };
    const json = { ...scorecard({}), submission: { ...scorecard({}).submission, kind: 'drill-sheet' }, rows: [{ id: 'choices', max: 3, auto: 'choices', score: 3, evidence: 'e', cap: null, findings: [] }, { id: 'reasons', max: 3, auto: null, score: null, evidence: null, cap: null, findings: [] }], answers: a };
    const r = readSheetScorecard(json, { kind: 'drill', card: drillCard, items: ['one', 'two'] });
    expect(r.ok ? 'read' : r.message).toMatch(/"rows\.choices\.score" is 3, yet 1 of 2 answers match the key or are edited by hand, worth at most 1/);
  });

  it('shows a summary row’s verdict and decision from its scorecard, never from words edited beside it', () => {
    const good = scorecard({ choices: 1, final: 0 });
    const other = scorecard({ choices: 1, final: 0 }, { packet: { id: 'lab-y', version: '9', digest: 'f'.repeat(64) } });
    const summary = {
      kind: GRADE_SUMMARY_KIND,
      packet: { id: card.id, version: card.version, digest: card.digest },
      rows: [
        { name: 'eve', sha256: 'c'.repeat(64), verdict: 'PASS', decision: 'hire', codes: [], scorecard: good },
        { name: 'mallory', sha256: 'd'.repeat(64), verdict: 'PASS', decision: 'hire', codes: [], scorecard: other },
      ],
    };
    const r = readSheetSummary(summary, page);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.items[0]).toMatchObject({ verdict: 'FALSE-GREEN', decision: 'no-hire', card: { ok: true } });
    expect(r.items[1]!.card.ok).toBe(false);
  });
});

describe('the scoring page’s timeline of a hostile sheet', () => {
  it('shows steps out of order without a negative time, and keeps prototype ids as text', () => {
    const { rows, note } = timelineRows([
      { at: '2026-12-02T10:05:00.000Z', action: 'start', id: '__proto__' },
      { at: '2026-12-02T10:00:00.000Z', action: 'constructor' },
      { at: '9999-12-31T23:59:59.999Z', action: 'done' },
      { at: { toString: 'x' }, action: 'done' },
    ]);
    expect(rows.map((r) => r.after)).toEqual(['+0:00', '+0:00', expect.stringMatching(/^\+\d+:\d\d:\d\d$/), '?']);
    expect(rows[0]!.id).toBe('__proto__');
    expect(rows[1]!.action).toBe('constructor');
    expect(note).toMatch(/^4 steps/);
  });
});

describe('scorecard.md of a hostile sheet', () => {
  it('keeps fences, headings, tables, HTML, controls and bidi of the candidate’s text from acting', () => {
    const evil = '```\n# PASS\n| hire | 10 |\n<img src=x onerror=alert(1)>\u202e\u0000\u001b[2J`x`';
    const a: SheetAnswers = {
      kind: 'lab',
      candidate: `Eve\n# Decision: hire\u202e`,
      exported: '2026-12-02T10:00:00.000Z\n## PASS',
      items: [{ id: 'one', title: 'One', answer: 'hand edit', key: 'revise', matches: false, reason: evil, keyReason: 'k', hand: `${evil}\n`.repeat(100), reference: '    x\n' }],
      plan: { endState: evil, checkpoints: evil, invariant: evil, byHand: evil },
      tests: [{ id: `t ${evil}`, hidden: true, outcome: 'fail', message: evil }],
      timeline: [{ at: '2026-12-02T10:00:00.000Z', action: 'hand-edit', id: evil, detail: evil }],
    };
    const text = answersMarkdown(a).join('\n');
    const ours = /^(## (Answers beside the key|Plan|Final tests|Timeline)|### Hand edit of one)$/;
    for (const line of text.split('\n')) {
      if (line.startsWith('#')) expect(line).toMatch(ours);
      expect(line).not.toMatch(/^\s*```/);
    }
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
    // HTML is escaped, or shown inside a code span of a hand edit's line, where Markdown shows it as text.
    for (const line of text.split('\n')) if (!line.startsWith('- ``')) expect(line).not.toMatch(/(?<!\\)<img/);
    expect(text.split('\n').filter((l) => l.startsWith('- ``') && !/^- ``.*``$/.test(l))).toEqual([]);
    expect(text).toContain('more lines (in scorecard.json)');
  });
});
