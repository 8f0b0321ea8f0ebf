import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import type { GradeSummary } from '../../src/grade/grade.ts';
import type { Scorecard } from '../../src/judge/scorecard.ts';
import { DRILL_SHEET_KIND, LAB_SHEET_KIND } from '../../src/labs/sheet-read.ts';
import { loadPackets } from '../../src/packets/load.ts';
import type { Drill, Lab } from '../../src/packets/packet.ts';

/**
 * `packet grade` on answer sheets, with the shipped lab-free-time (one batch, one sandbox) and
 * drill-retry-backoff (no sandbox): the key's sheet, one taking every suggestion as offered, a
 * hand edit green on the visible tests and red on a held-out one, a hand edit that tampers with
 * the test framework, a sheet of another version, tampered sheets; the key's drill sheet and an
 * all-wrong one. Every card carries its answers, and summary.json carries every card.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
let out: string;
let sheets: string;
let lab: Lab;
let drill: Drill;
let labExit: number;
let labStdout: string;
let drillExit: number;
let drillStdout: string;
let drillBadExit: number;

const card = async (packet: string, name: string) => JSON.parse(await readFile(path.join(out, packet, name, 'scorecard.json'), 'utf8')) as Scorecard;
const md = (packet: string, name: string) => readFile(path.join(out, packet, name, 'scorecard.md'), 'utf8');
const row = (c: Scorecard, id: string) => c.rows.find((r) => r.id === id)!;

function labSheet(choices: Record<string, string | null>, hand: Record<string, string> = {}, extra: Record<string, unknown> = {}) {
  return {
    schemaVersion: 1,
    kind: LAB_SHEET_KIND,
    id: lab.id,
    version: lab.prompt.data.version,
    digest: lab.digest,
    date: '2026-12-02T10:00:00.000Z',
    candidate: 'Ada',
    plan: { endState: 'free slots right', checkpoints: 'merge\ngaps', invariant: 'tests green', byHand: 'the reasons' },
    suggestions: lab.lab!.suggestions.map((s) => ({ id: s.id, choice: choices[s.id] ?? null, ...(hand[s.id] !== undefined ? { hand: hand[s.id] } : {}), reason: `because ${s.id}` })),
    timeline: [
      { at: '2026-12-02T09:40:00.000Z', action: 'start' },
      { at: '2026-12-02T09:45:00.000Z', action: 'accept', id: 'gaps', detail: '**PASS** | <b>x</b>' },
    ],
    ...extra,
  };
}

const write = (name: string, value: unknown) => writeFile(path.join(sheets, name), typeof value === 'string' ? value : JSON.stringify(value, null, 2));

beforeAll(async () => {
  const loaded = await loadPackets({ packetsDir: 'packets', cwd: ROOT });
  lab = loaded.packets.find((p) => p.id === 'lab-free-time') as Lab;
  drill = loaded.packets.find((p) => p.id === 'drill-retry-backoff') as Drill;
  const tmp = await mkdtemp(path.join(tmpdir(), 'packet-kit-sheets-'));
  out = path.join(tmp, 'grades');
  sheets = path.join(tmp, 'sheets');
  await mkdir(path.join(sheets, 'drills'), { recursive: true });
  const key = Object.fromEntries(lab.lab!.suggestions.map((s) => [s.id, s.key.choice]));
  const offered = Object.fromEntries(lab.lab!.suggestions.map((s) => [s.id, 'accept']));
  const merge = lab.lab!.suggestions.find((s) => s.id === 'merge')!;
  const rounding = lab.lab!.suggestions.find((s) => s.id === 'quarter-hours')!;
  await write('key.json', labSheet(key));
  await write('offered.json', labSheet(offered));
  // The offered merge, strict "<", typed by hand: the visible tests pass, the held-out touching-meetings test fails.
  await write('hand-hidden.json', labSheet(key, { merge: merge.offered.replace('for start, end', '# by hand\n    for start, end') }));
  // A hand edit that silences every assertion when the code runs.
  const indent = /^\s*/.exec(rounding.original)![0];
  await write('hand-tamper.json', labSheet(key, { 'quarter-hours': `${indent}import unittest\n${indent}unittest.TestCase.assertEqual = lambda self, a, b, msg=None: None\n${rounding.original}` }));
  await write('old-version.json', { ...labSheet(key), version: '0.9.0', digest: 'f'.repeat(64) });
  const dup = labSheet(key);
  dup.suggestions.push({ id: 'merge', choice: 'accept', reason: 'again' });
  await write('duplicate.json', dup);
  const bad = labSheet(key);
  (bad.suggestions[1] as Record<string, unknown>).choice = 'approve';
  await write('bad-choice.json', bad);
  await write('forged.json', labSheet(offered, {}, { score: 10, results: { testsGreen: true } }));
  await write('ghost-hand.json', { ...labSheet(key), suggestions: [...labSheet(key).suggestions, { id: 'no-such', choice: null, hand: 'x = 1\n', reason: '' }] });
  await write('not-json.json', '{"kind": ');
  await writeFile(path.join(sheets, 'code.zip'), 'PK\u0003\u0004');

  const drillSheet = (verdicts: (d: Drill['diffs'][number]) => string) => ({
    schemaVersion: 1,
    kind: DRILL_SHEET_KIND,
    id: drill.id,
    version: drill.prompt.data.version,
    digest: drill.digest,
    date: '2026-12-02T11:00:00.000Z',
    diffs: drill.diffs.map((d) => ({ id: d.id, verdict: verdicts(d), reason: `reason ${d.id}`, ...(verdicts(d) === 'accept-with-change' ? { change: 'cap it' } : {}) })),
  });
  const wrong = (v: string) => (v === 'reject' ? 'accept' : 'reject');
  await writeFile(path.join(sheets, 'drills', 'drill-key.json'), JSON.stringify(drillSheet((d) => d.key.verdict)));
  await writeFile(path.join(sheets, 'drills', 'drill-wrong.json'), JSON.stringify(drillSheet((d) => wrong(d.key.verdict))));
  // A drill's sheet of another version, and tampered ones: a diff answered twice, a verdict outside the three, a forged score.
  await mkdir(path.join(sheets, 'drills-bad'), { recursive: true });
  const keyed = drillSheet((d) => d.key.verdict);
  await writeFile(path.join(sheets, 'drills-bad', 'drill-old.json'), JSON.stringify({ ...keyed, version: '0.9.0', digest: 'f'.repeat(64) }));
  await writeFile(path.join(sheets, 'drills-bad', 'drill-twice.json'), JSON.stringify({ ...keyed, diffs: [...keyed.diffs, { ...keyed.diffs[0]!, verdict: wrong(keyed.diffs[0]!.verdict) }] }));
  await writeFile(path.join(sheets, 'drills-bad', 'drill-approve.json'), JSON.stringify({ ...keyed, diffs: keyed.diffs.map((d, i) => (i === 1 ? { ...d, verdict: 'approve' } : d)) }));
  await writeFile(path.join(sheets, 'drills-bad', 'drill-forged.json'), JSON.stringify({ ...drillSheet((d) => wrong(d.key.verdict)), score: 10, decision: 'hire' }));

  const names = ['key', 'offered', 'hand-hidden', 'hand-tamper', 'old-version', 'duplicate', 'bad-choice', 'forged', 'ghost-hand', 'not-json'].map((n) => path.join(sheets, `${n}.json`));
  const io = memoryIo(ROOT, { env: process.env });
  labExit = await runCli(['grade', lab.id, ...names, path.join(sheets, 'code.zip'), '--out', out, '--jobs', '2'], io);
  labStdout = io.stdout;
  const dio = memoryIo(ROOT, { env: process.env });
  drillExit = await runCli(['grade', drill.id, path.join(sheets, 'drills'), '--out', out], dio);
  drillStdout = dio.stdout;
  drillBadExit = await runCli(['grade', drill.id, path.join(sheets, 'drills-bad'), '--out', out], memoryIo(ROOT, { env: process.env }));
}, 120_000);

afterAll(() => rm(path.dirname(out), { recursive: true, force: true }));

describe('packet grade on a lab’s answer sheets', () => {
  it('grades the batch, prints a line per sheet, and exits 1 since some sheets were refused', () => {
    expect(labExit).toBe(1);
    expect(labStdout).toMatch(/grading 11 submissions/);
    expect(labStdout).toMatch(/key: PASS, tests 13\/13 expected passed/);
    expect(labStdout.trimEnd().split('\n').at(-1)).toMatch(/open \/labs\/lab-free-time\/score\/ on the site/);
  });

  it('scores the key’s sheet: choices at their max, every test green, held-out ones too', async () => {
    const c = await card(lab.id, 'key');
    expect(c).toMatchObject({ graded: true, verdict: 'PASS', submission: { kind: 'lab-sheet' } });
    expect(c.submission.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(row(c, 'choices')).toMatchObject({ score: 3, max: 3 });
    expect(row(c, 'final-tests')).toMatchObject({ score: 2 });
    expect(row(c, 'reasons').score).toBeNull();
    expect(c.decision.state).toBe('pending');
    const a = c.answers!;
    expect(a.kind).toBe('lab');
    expect(a.candidate).toBe('Ada');
    expect(a.items.map((i) => [i.id, i.answer, i.key, i.matches])).toEqual(lab.lab!.suggestions.map((s) => [s.id, s.key.choice, s.key.choice, true]));
    expect(a.items[0]!.keyReason).toBe(lab.lab!.suggestions[0]!.key.reason);
    expect(a.tests).toHaveLength(13);
    expect(a.tests.filter((t) => t.hidden)).toHaveLength(3);
    expect(a.tests.every((t) => t.outcome === 'pass')).toBe(true);
    expect(a.timeline).toHaveLength(2);
    expect(a.plan?.endState).toBe('free slots right');
  });

  it('scores the sheet that takes every suggestion as offered low: the veto fires, no-hire', async () => {
    const c = await card(lab.id, 'offered');
    expect(c.graded).toBe(true);
    expect(c.verdict).not.toBe('PASS');
    expect(row(c, 'choices').score).toBe(0);
    expect(row(c, 'final-tests').score).toBe(0);
    expect(c.decision.state).toBe('no-hire');
    expect(c.decision.reason).toMatch(/veto on choices/);
    expect(c.answers!.items.filter((i) => i.matches).map((i) => i.id)).toEqual(['gaps']);
  });

  it('runs a hand edit through the judge: green on the visible tests, red on the held-out one it breaks', async () => {
    const c = await card(lab.id, 'hand-hidden');
    expect(c.verdict).toBe('FALSE-GREEN');
    expect(row(c, 'final-tests').score).toBe(0);
    expect(c.tests!.failingVisible).toEqual([]);
    expect(c.tests!.failingHidden).toEqual(['tests/test_hidden_free_time.py::HiddenFreeTimeTest::test_touching_meetings_merge']);
    // A hand edit is the reviewer's to judge: the choices row stays open.
    expect(row(c, 'choices').score).toBeNull();
    const merge = c.answers!.items.find((i) => i.id === 'merge')!;
    expect(merge).toMatchObject({ answer: 'hand edit', matches: false, key: 'revise' });
    expect(merge.hand).toContain('# by hand');
    expect(merge.reference).toBe(lab.lab!.suggestions[0]!.revised);
    expect(c.answers!.tests.find((t) => t.id.endsWith('test_touching_meetings_merge'))).toMatchObject({ hidden: true, outcome: 'fail' });
    expect(await md(lab.id, 'hand-hidden')).toMatch(/### Hand edit of merge/);
  });

  it('catches a hand edit that tampers with the test framework: never green', async () => {
    const c = await card(lab.id, 'hand-tamper');
    expect(c.graded).toBe(true);
    expect(c.verdict).toBe('CAUGHT');
    expect(row(c, 'final-tests').score).toBe(0);
    // The harness saw unittest's assertEqual replaced: the run's report is not evidence.
    expect(c.findings.filter((f) => f.kind === 'tamper').map((f) => f.code)).toContain('PK434');
    expect(c.answers!.items.find((i) => i.id === 'quarter-hours')).toMatchObject({ answer: 'hand edit', matches: false });
  });

  it('refuses a sheet of another version, naming both', async () => {
    const c = await card(lab.id, 'old-version');
    expect(c).toMatchObject({ graded: false, verdict: 'REFUSED' });
    expect(c.findings.map((f) => f.code)).toEqual(['PK562']);
    expect(c.findings[0]!.message).toContain('version 0.9.0, digest ffff');
    expect(c.findings[0]!.message).toContain(`version ${lab.prompt.data.version}, digest ${lab.digest}`);
    expect(c.rows.every((r) => r.score === null)).toBe(true);
  });

  it('refuses tampered sheets by file and field, and never believes a forged score', async () => {
    const dup = await card(lab.id, 'duplicate');
    expect(dup.verdict).toBe('REFUSED');
    expect(dup.findings[0]!.code).toBe('PK563');
    expect(dup.findings[0]!.message).toContain('"suggestions[4].id" of the answer sheet duplicate.json');
    const bad = await card(lab.id, 'bad-choice');
    expect(bad.findings[0]!.message).toContain('"suggestions[1].choice"');
    expect(bad.findings[0]!.message).toContain('"approve"');
    const ghost = await card(lab.id, 'ghost-hand');
    expect(ghost.findings[0]!.message).toContain('"suggestions[4].id"');
    const forged = await card(lab.id, 'forged');
    expect(forged.findings.filter((f) => f.code === 'PK564').map((f) => f.message)).toEqual([expect.stringContaining('"score"'), expect.stringContaining('"results"')]);
    expect(forged.findings.filter((f) => f.code === 'PK564').every((f) => f.severity === 'warning')).toBe(true);
    expect(row(forged, 'final-tests').score).toBe(0);
    expect(row(forged, 'choices').score).toBe(0);
    const notJson = await card(lab.id, 'not-json');
    expect(notJson.findings.map((f) => f.code)).toEqual(['PK560']);
    const zip = await card(lab.id, 'code');
    expect(zip.findings.map((f) => f.code)).toEqual(['PK566']);
    expect(zip.findings[0]!.message).toContain('code.zip');
  });

  it('escapes the candidate’s text in scorecard.md', async () => {
    const text = await md(lab.id, 'key');
    expect(text).toMatch(/## Answers beside the key/);
    expect(text).toMatch(/## Final tests/);
    expect(text).toContain('\\*\\*PASS\\*\\* \\| \\<b\\>x\\</b\\>');
    expect(text).not.toContain('<b>');
  });

  it('writes summary.json with every scorecard and its answers', async () => {
    const summary = JSON.parse(await readFile(path.join(out, lab.id, 'summary.json'), 'utf8')) as GradeSummary;
    expect(summary.kind).toBe('packet-kit/grade-summary');
    expect(summary.rows).toHaveLength(11);
    for (const r of summary.rows) expect(r.scorecard).toEqual(await card(lab.id, r.name));
    expect(summary.rows.filter((r) => r.graded).every((r) => r.scorecard!.answers?.kind === 'lab')).toBe(true);
  });
});

describe('packet grade on a drill’s answer sheets', () => {
  it('grades a folder of sheets without running code, and exits 0', () => {
    expect(drillExit).toBe(0);
    expect(drillStdout).toMatch(/grading 2 submissions/);
    expect(drillStdout).toMatch(/drill-key: NOT-RUN, tests not run/);
    expect(drillStdout).toMatch(/\/drills\/drill-retry-backoff\/score\//);
  });

  it('scores the key’s verdicts at the max and every wrong verdict at 0', async () => {
    const good = await card(drill.id, 'drill-key');
    const choicesRow = drill.rubric.data.rows.find((r) => r.auto === 'choices')!;
    expect(good).toMatchObject({ graded: true, verdict: 'NOT-RUN', sandbox: null, tests: null, submission: { kind: 'drill-sheet' } });
    expect(row(good, choicesRow.id).score).toBe(choicesRow.max);
    expect(good.answers!.items.every((i) => i.matches)).toBe(true);
    expect(good.answers!.tests).toEqual([]);
    const bad = await card(drill.id, 'drill-wrong');
    expect(row(bad, choicesRow.id).score).toBe(0);
    expect(bad.answers!.items.some((i) => i.matches)).toBe(false);
    expect(bad.decision.state).toBe('no-hire');
  });

  it('refuses a drill sheet of another version or tampered with, and never believes a forged score', async () => {
    expect(drillBadExit).toBe(1);
    const old = await card(drill.id, 'drill-old');
    expect(old).toMatchObject({ graded: false, verdict: 'REFUSED' });
    expect(old.findings.map((f) => f.code)).toEqual(['PK562']);
    expect(old.findings[0]!.message).toContain(`version ${drill.prompt.data.version}, digest ${drill.digest}`);
    for (const name of ['drill-twice', 'drill-approve']) {
      const c = await card(drill.id, name);
      expect(c, name).toMatchObject({ graded: false, verdict: 'REFUSED' });
      expect(c.findings[0]!.code, name).toBe('PK563');
      expect(c.rows.every((r) => r.score === null), name).toBe(true);
    }
    expect((await card(drill.id, 'drill-approve')).findings[0]!.message).toContain('"diffs[1].verdict"');
    const forged = await card(drill.id, 'drill-forged');
    const choicesRow = drill.rubric.data.rows.find((r) => r.auto === 'choices')!;
    expect(forged.findings.map((f) => f.code)).toContain('PK564');
    expect(row(forged, choicesRow.id).score).toBe(0);
    expect(forged.decision.state).toBe('no-hire');
  });
});

describe('packet calibrate on a lab or a drill', () => {
  it('exits 2 with PK532: only a take-home has a calibration set', async () => {
    for (const id of ['lab-free-time', 'drill-retry-backoff']) {
      const io = memoryIo(ROOT, { env: process.env });
      expect(await runCli(['calibrate', id, '--out', path.join(path.dirname(out), 'calibration')], io)).toBe(2);
      expect(io.stderr).toMatch(new RegExp(`PK532 "${id}" is a (lab|drill): a calibration set is made of a take-home's sample and mutants`));
    }
  });
});

describe('packet grade --help', () => {
  it('says that labs and drills are graded from their exported answer sheets', async () => {
    const io = memoryIo(ROOT, { env: process.env });
    expect(await runCli(['grade', '--help'], io)).toBe(0);
    expect(io.stdout.replace(/\s+/g, ' ')).toContain('Labs and drills are graded from the answer sheets their pages export');
  });
});
