import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import type { Scorecard } from '../../src/judge/scorecard.ts';
import { DRILL_SHEET_KIND, LAB_SHEET_KIND } from '../../src/labs/sheet-read.ts';
import { loadPackets } from '../../src/packets/load.ts';
import type { Drill, Lab } from '../../src/packets/packet.ts';
import { readSheetSummary } from '../../src/site/score-answers.ts';
import type { ScoringCard } from '../../src/site/scored-sheet.ts';

/**
 * Hostile answer sheets through `packet grade`, one lab batch in one sandbox (lab-free-time) and
 * one drill batch (no code): hand edits that stay inside their region yet try to end green (exit
 * the process with 0, print a runner's report, patch unittest, overwrite the tests), hand edits
 * that break the region's structure (an open triple quote, a trailing backslash, NUL), hand edits
 * that are a scripted version typed out (the key's or the assistant's), all-open choices, the
 * same sheet twice; a drill sheet with a full timeline of long steps and controls in its text.
 * Not one may end with a better score or decision than its answers earn.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
let out: string;
let sheets: string;
let lab: Lab;
let drill: Drill;
let labStdout: string;

const card = async (packet: string, name: string) => JSON.parse(await readFile(path.join(out, packet, name, 'scorecard.json'), 'utf8')) as Scorecard;
/** The card name of the one drill sheet, as the summary gives it. */
const drillName = async () => (JSON.parse(await readFile(path.join(out, drill.id, 'summary.json'), 'utf8')) as { rows: { name: string }[] }).rows[0]!.name;
const row = (c: Scorecard, id: string) => c.rows.find((r) => r.id === id)!;

function labSheet(choices: Record<string, string | null>, hand: Record<string, string> = {}) {
  return {
    schemaVersion: 1,
    kind: LAB_SHEET_KIND,
    id: lab.id,
    version: lab.prompt.data.version,
    digest: lab.digest,
    date: '2026-12-02T10:00:00.000Z',
    candidate: 'Eve',
    plan: { endState: 'e', checkpoints: 'c', invariant: 'i', byHand: 'b' },
    suggestions: lab.lab!.suggestions.map((s) => ({ id: s.id, choice: choices[s.id] ?? null, ...(hand[s.id] !== undefined ? { hand: hand[s.id] } : {}), reason: `because ${s.id}` })),
  };
}
const write = (name: string, value: unknown) => writeFile(path.join(sheets, `${name}.json`), typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** The key's region of quarter-hours (`return slots`) with code run before it. */
const beforeReturn = (code: string) => `${code
  .split('\n')
  .map((l) => `    ${l}`)
  .join('\n')}\n    return slots\n`;

const LAB_SHEETS = [
  'offered-by-hand',
  'offered-by-hand-blank',
  'key-by-hand',
  'key-crlf',
  'all-open',
  'exit-zero',
  'fake-report',
  'patch-result',
  'overwrite-tests',
  'open-quote',
  'backslash',
  'nul',
  'key',
  'key-copy',
  'lying-eq',
  'gc-walk',
  'fd2-rewrite',
] as const;

beforeAll(async () => {
  const loaded = await loadPackets({ packetsDir: 'packets', cwd: ROOT });
  lab = loaded.packets.find((p) => p.id === 'lab-free-time') as Lab;
  drill = loaded.packets.find((p) => p.id === 'drill-retry-backoff') as Drill;
  const tmp = await mkdtemp(path.join(tmpdir(), 'packet-kit-sheet-attack-'));
  out = path.join(tmp, 'grades');
  sheets = path.join(tmp, 'sheets');
  await mkdir(path.join(sheets, 'drills'), { recursive: true });
  const sug = (id: string) => lab.lab!.suggestions.find((s) => s.id === id)!;
  const key = Object.fromEntries(lab.lab!.suggestions.map((s) => [s.id, s.key.choice]));
  const offered = Object.fromEntries(lab.lab!.suggestions.map((s) => [s.id, 'accept']));
  // Every suggestion taken as offered, one of them typed out by hand: the assistant's text, word for word.
  await write('offered-by-hand', labSheet(offered, { merge: sug('merge').offered }));
  // The same with a blank at the end of a line: not the scripted text, yet no hand edit can lift the choices past the veto.
  await write('offered-by-hand-blank', labSheet(offered, { merge: sug('merge').offered.replace('\n', ' \n') }));
  // The key's own version of a region, typed out by hand.
  await write('key-by-hand', labSheet(key, { 'min-length': sug('min-length').revised }));
  await write('key-crlf', labSheet(key, { 'min-length': sug('min-length').revised.replace(/\n/g, '\r\n') }));
  await write('all-open', labSheet({}));
  // Hostile code inside the quarter-hours region, the rest as the key has it.
  await write('exit-zero', labSheet(key, { 'quarter-hours': beforeReturn('import os\nos._exit(0)') }));
  await write('fake-report', labSheet(key, { 'quarter-hours': beforeReturn('import sys\nprint("Ran 13 tests in 0.001s\\n\\nOK")\nsys.stdout.flush()\nsys.exit(0)') }));
  await write(
    'patch-result',
    labSheet({ ...key, merge: 'accept' }, { 'quarter-hours': beforeReturn('import unittest\nunittest.TestResult.addFailure = lambda self, test, err: self.addSuccess(test)\nunittest.TestResult.addError = lambda self, test, err: self.addSuccess(test)') }),
  );
  await write(
    'overwrite-tests',
    labSheet(
      { ...key, merge: 'accept' },
      {
        'quarter-hours': beforeReturn(
          'import os, glob\nfor f in glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "**", "test_*.py"), recursive=True):\n    try:\n        open(f, "w").write("import unittest\\nclass T(unittest.TestCase):\\n    def test_ok(self):\\n        pass\\n")\n    except OSError:\n        pass',
        ),
      },
    ),
  );
  await write('open-quote', labSheet(key, { 'min-length': '    """\n' }));
  await write('backslash', labSheet(key, { 'min-length': `${sug('min-length').revised.trimEnd()} \\` }));
  await write('nul', labSheet(key, { 'min-length': `${sug('min-length').revised}    x = 1\u0000\n` }));
  await write('key', labSheet(key));
  // From inside the code under test, on choices the key does not hold (merge as offered): a value that
  // says it equals anything; a walk of the garbage collector to every running TestResult, emptied at exit;
  // fd 2 pointed elsewhere, with a runner's summary of success written to the real one.
  const wrong = { ...key, merge: 'accept' };
  await write(
    'lying-eq',
    labSheet(wrong, { 'quarter-hours': '    class Same(list):\n        def __eq__(self, other):\n            return True\n        def __ne__(self, other):\n            return False\n    return Same(slots)\n' }),
  );
  await write(
    'gc-walk',
    labSheet(wrong, {
      'quarter-hours': beforeReturn(
        'import atexit, gc, unittest\ndef _clean():\n    for o in gc.get_objects():\n        if isinstance(o, unittest.TestResult):\n            o.failures.clear(); o.errors.clear()\natexit.register(_clean)\nfor o in gc.get_objects():\n    if isinstance(o, unittest.TestResult):\n        o.wasSuccessful = lambda: True',
      ),
    }),
  );
  await write(
    'fd2-rewrite',
    labSheet(wrong, {
      'quarter-hours': beforeReturn('import os\nreal = os.dup(2)\nos.write(real, b"\\n----------------------------------------------------------------------\\nRan 13 tests in 0.001s\\n\\nOK\\n")\nnull = os.open(os.devnull, os.O_WRONLY)\nos.dup2(null, 2)'),
    }),
  );
  // The very same file under another name: one candidate, one card to score.
  await copyFile(path.join(sheets, 'key.json'), path.join(sheets, 'key-copy.json'));

  const names = LAB_SHEETS.map((n) => path.join(sheets, `${n}.json`));
  const io = memoryIo(ROOT, { env: process.env });
  await runCli(['grade', lab.id, ...names, '--out', out, '--jobs', '2'], io);
  labStdout = io.stdout + io.stderr;

  const long = (i: number) => `${'\u202e=cmd|'.repeat(40)}${i}`.slice(0, 200);
  await writeFile(
    path.join(sheets, 'drills', '=HYPERLINK("x").json'),
    JSON.stringify({
      schemaVersion: 1,
      kind: DRILL_SHEET_KIND,
      id: drill.id,
      version: drill.prompt.data.version,
      digest: drill.digest,
      date: '2026-12-02T11:00:00.000Z',
      candidate: '=cmd|\u202eevil\u0007\u001b[31m',
      diffs: drill.diffs.map((d) => ({ id: d.id, verdict: d.key.verdict, reason: '=1+1\u202e<script>x</script>\u0000', ...(d.key.verdict === 'accept-with-change' ? { change: '@SUM(A1)' } : {}) })),
      timeline: Array.from({ length: 2000 }, (_, i) => ({ at: new Date(Date.UTC(2030, 0, 1) - i * 1000).toISOString(), action: 'verdict', id: '__proto__', detail: long(i) })),
    }),
  );
  await runCli(['grade', drill.id, path.join(sheets, 'drills'), '--out', out], memoryIo(ROOT, { env: process.env }));
}, 240_000);

afterAll(() => rm(path.dirname(out), { recursive: true, force: true }));

describe('hostile lab sheets', () => {
  it('grades every sheet of the batch', () => {
    expect(labStdout).toMatch(new RegExp(`grading ${LAB_SHEETS.length} submissions`));
  });

  it('reads a hand edit that is the assistant’s text word for word as that choice: the veto still fires', async () => {
    const c = await card(lab.id, 'offered-by-hand');
    expect(row(c, 'choices').score).toBe(0);
    expect(c.decision.state).toBe('no-hire');
  });

  it('fires the veto when no hand edit, right or wrong, could lift the choices row past it', async () => {
    const c = await card(lab.id, 'offered-by-hand-blank');
    expect(c.answers!.items.find((i) => i.id === 'merge')!.answer).toBe('hand edit');
    expect(row(c, 'choices').score).not.toBeNull();
    expect(row(c, 'choices').score!).toBeLessThanOrEqual(1);
    expect(c.decision.state).toBe('no-hire');
  });

  it('reads the key’s version typed out by hand (line ends aside) as the key’s choice', async () => {
    for (const name of ['key-by-hand', 'key-crlf']) {
      const c = await card(lab.id, name);
      expect(c.verdict).toBe('PASS');
      expect(c.answers!.items.find((i) => i.id === 'min-length')).toMatchObject({ answer: 'revise', matches: true });
      expect(row(c, 'choices').score).toBe(3);
    }
  });

  it('never counts an open choice as a match, and grades open regions as the starter has them (red)', async () => {
    const c = await card(lab.id, 'all-open');
    expect(c.answers!.items.every((i) => i.answer === null && !i.matches)).toBe(true);
    expect(row(c, 'choices').score).toBe(0);
    expect(row(c, 'final-tests').score).toBe(0);
    expect(c.verdict).not.toBe('PASS');
    expect(c.decision.state).toBe('no-hire');
  });

  it('never turns green for code that exits 0, prints a report, patches the results or overwrites the tests', async () => {
    for (const name of ['exit-zero', 'fake-report', 'patch-result', 'overwrite-tests', 'lying-eq', 'gc-walk', 'fd2-rewrite']) {
      const c = await card(lab.id, name);
      expect(c.graded, name).toBe(true);
      expect(c.verdict, name).not.toBe('PASS');
      expect(row(c, 'final-tests').score, name).not.toBe(2);
      expect(c.decision.state, name).not.toBe('hire');
      expect(c.answers!.tests.every((t) => t.outcome === 'pass'), name).toBe(false);
    }
  });

  it('runs region text that breaks the file (an open quote, a trailing backslash, NUL) red, never green', async () => {
    for (const name of ['open-quote', 'backslash', 'nul']) {
      const c = await card(lab.id, name);
      expect(c.verdict, name).not.toBe('PASS');
      expect(row(c, 'final-tests').score, name).toBe(0);
    }
  });

  it('grades one copy of a sheet sent twice in a batch, and refuses the other by name', async () => {
    const first = await card(lab.id, 'key');
    const copy = await card(lab.id, 'key-copy');
    expect(first.verdict).toBe('PASS');
    expect(copy).toMatchObject({ graded: false, verdict: 'REFUSED' });
    expect(copy.findings.map((f) => f.code)).toEqual(['PK568']);
    expect(copy.findings[0]!.message).toContain('key.json');
    expect(copy.rows.every((r) => r.score === null)).toBe(true);
  });
});

describe('the batch on the lab’s scoring page', () => {
  it('reads every graded card of the real summary.json, each bearing out its rows, and none of the refused', async () => {
    const summary = JSON.parse(await readFile(path.join(out, lab.id, 'summary.json'), 'utf8')) as Record<string, unknown>;
    const card = { id: lab.id, version: lab.prompt.data.version, digest: lab.digest, rubric: lab.rubric.data } as unknown as ScoringCard;
    const r = readSheetSummary(summary, { kind: 'lab', card, items: lab.lab!.suggestions.map((s) => s.id) });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.items.filter((i) => !i.card.ok).map((i) => i.name)).toEqual(['key-copy']);
    expect(r.items.find((i) => i.name === 'offered-by-hand')).toMatchObject({ decision: 'no-hire' });
  });
});

describe('a hostile drill sheet', () => {
  it('grades a full timeline of long steps with times out of order and in the future, and keeps it', async () => {
    const c = await card(drill.id, await drillName());
    expect(c.graded).toBe(true);
    expect(c.answers!.timeline).toHaveLength(2000);
    expect(c.answers!.timeline[0]!.id).toBe('__proto__');
    expect(Object.getPrototypeOf(c.answers!.timeline[0])).toBe(Object.prototype);
  });

  it('writes no control or bidi character and no formula into scorecard.md and summary.csv', async () => {
    const name = await drillName();
    expect(name).not.toMatch(/^[=+\-@]/);
    const md = await readFile(path.join(out, drill.id, name, 'scorecard.md'), 'utf8');
    expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
    expect(md).not.toContain('<script>');
    const csv = await readFile(path.join(out, drill.id, 'summary.csv'), 'utf8');
    for (const line of csv.trim().split('\n').slice(1)) for (const cell of line.split(',')) expect(cell.replace(/^"/, '')).not.toMatch(/^[=+\-@\t\r]/);
  });
});
