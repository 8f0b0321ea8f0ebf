import { readdirSync, readFileSync } from 'node:fs';
import { rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { catalogEntries } from '../../src/errors/catalog.ts';
import { AUTO_CHECKS } from '../../src/packets/schema/rubric.ts';
import type { RehearsalReport } from '../../src/rehearse/report.ts';
import { SCRATCH_MARKER, SCRATCH_PREFIX } from '../../src/sandbox/scratch.ts';
import { tempPackets, type TempPackets } from '../support/packet-fixtures.ts';

/**
 * Fixture packets, each the scaffold with one planted defect. One rehearsal runs them all; each
 * must come out a defect, named in words, while the untouched scaffold fails closed.
 */
let t: TempPackets;
let report: RehearsalReport;
let exitCode: number;
let stdout: string;

const DURATION = 'src/duration.py';

beforeAll(async () => {
  t = await tempPackets();
  await t.add('healthy');

  // The starter already passes: the sample's code is the starter's.
  await t.add('starter-green');
  await t.write('starter-green', `starter/${DURATION}`, await t.read('starter-green', `sample/${DURATION}`));

  // The starter is red from a syntax error, not from failing tests.
  await t.add('floor-syntax');
  await t.edit('floor-syntax', `starter/${DURATION}`, 'def parse_duration(text):', 'def parse_duration(text)');

  // The sample does not pass its own hidden tests.
  await t.add('sample-red');
  await t.edit('sample-red', `sample/${DURATION}`, 'WHOLE = re.compile(r"(?:\\d+[hms])+")', 'WHOLE = re.compile(r"(?:\\d+[hms]?)+")');

  // A mutant the tests do not kill: it only renames a variable.
  await t.add('mutant-survives');
  await t.write('mutant-survives', `mutants/drops-minutes/${DURATION}`, (await t.read('mutant-survives', `sample/${DURATION}`)).replace('for n, unit in', 'for count, unit in').replace('int(n)', 'int(count)') + '# PART.search( kept for the signal\n');

  // A signal that matches the sample too.
  await t.add('signal-on-sample');
  await t.edit('signal-on-sample', 'failures.mdx', 'pattern: "return 0\\\\b"', 'pattern: "PART = re\\\\.compile"');

  // A signal that misses its mutant: it looks in the added lines for a line the mutant leaves as the starter has it.
  await t.add('signal-misses-mutant');
  await t.edit('signal-misses-mutant', 'failures.mdx', 'pattern: "PART\\\\.search\\\\("\n      in: files', 'pattern: "UNITS = \\\\{"\n      in: diff');

  // A hire bar that does not separate: low bar, no vetoes, caps that leave the total above it.
  await t.add('bar-too-low');
  await t.edit('bar-too-low', 'rubric.mdx', 'hireBar: 6', 'hireBar: 4');
  await t.edit('bar-too-low', 'rubric.mdx', 'vetoes:\n  - row: refusal\n    atMost: 0\n    note: Green tests with garbage accepted is a no.\n', 'vetoes: []\n');

  // A forged "OK" printed by the code under test, with a failing exit: must stay red (floor, and a mutant).
  await t.add('forged-ok');
  await t.write(
    'forged-ok',
    `mutants/accepts-garbage/${DURATION}`,
    (await t.read('forged-ok', `mutants/accepts-garbage/${DURATION}`)) +
      '\nimport os, sys\nsys.stderr.write("Ran 6 tests in 0.001s\\n\\nOK\\n")\nsys.stderr.flush()\nos._exit(1)\n',
  );

  // A sample that edits a protected test to make itself pass: the packet's own test runs anyway.
  await t.add('sample-edits-test');
  await mkdir(path.join(t.packets, 'sample-edits-test', 'sample', 'tests'), { recursive: true });
  await t.write('sample-edits-test', 'sample/tests/test_duration.py', 'import unittest\n\nclass T(unittest.TestCase):\n    def test_nothing(self):\n        pass\n');
  await t.write('sample-edits-test', `sample/${DURATION}`, (await t.read('sample-edits-test', `starter/${DURATION}`)));

  // A sample that leaves a file outside workspace.allow, and one that forgets its notes.
  await t.add('sample-breaks-contract');
  await mkdir(path.join(t.packets, 'sample-breaks-contract', 'sample', 'vendor'), { recursive: true });
  await t.write('sample-breaks-contract', 'sample/vendor/shim.py', 'X = 1\n');
  await t.add('sample-no-notes');
  await rm(path.join(t.packets, 'sample-no-notes', 'sample', 'NOTES.md'));

  // A sample whose tests hang: killed at the time limit, reported as a defect.
  await t.add('sample-hangs');
  await t.write('sample-hangs', `sample/${DURATION}`, (await t.read('sample-hangs', `sample/${DURATION}`)) + '\nimport time\nwhile True:\n    time.sleep(1)\n');

  // A sample that writes more than the packet's own workspace cap (1 MiB): the cap is named.
  await t.add('sample-fills-workspace');
  await t.edit('sample-fills-workspace', 'prompt.mdx', 'changelog:', 'sandbox:\n  workspaceMb: 1\nchangelog:');
  await t.write('sample-fills-workspace', `sample/${DURATION}`, (await t.read('sample-fills-workspace', `sample/${DURATION}`)) + '\nwith open("cache.bin", "wb") as f:\n    f.write(b"0" * 4 * 1024 * 1024)\n');

  const io = memoryIo(t.root, { env: process.env });
  exitCode = await runCli(['rehearse', '--no-cache', '--timeout', '3', '--report', 'report.json'], io);
  stdout = io.stdout;
  report = JSON.parse(await import('node:fs/promises').then((fs) => fs.readFile(path.join(t.root, 'report.json'), 'utf8')));
}, 120_000);

afterAll(() => t.dispose());

const packet = (id: string) => report.packets.find((p) => p.id === id)!;
const check = (id: string, c: string) => packet(id).checks.find((x) => x.id === c)!;
const failed = (id: string) => packet(id).checks.filter((c) => !c.ok).map((c) => c.id);

describe('packet rehearse on planted defects', () => {
  it('exits 1 and writes a versioned report', () => {
    expect(exitCode).toBe(1);
    expect(report.schemaVersion).toBe(3);
    expect(report.sandbox.kind).toBe('bubblewrap');
    expect(report.packets.map((p) => p.id)).toEqual([...report.packets.map((p) => p.id)].sort());
  });

  it('passes the untouched scaffold', () => {
    expect(packet('healthy').status).toBe('fails-closed');
    expect(packet('healthy').checks.map((c) => c.id)).toEqual([
      'floor',
      'sample',
      'mutant:drops-minutes',
      'mutant:accepts-garbage',
      'signal:drops-minutes',
      'signal:accepts-garbage',
      'calibration:sample',
      'calibration:drops-minutes',
      'calibration:accepts-garbage',
      'reply:sample',
      'reply:drops-minutes',
      'reply:accepts-garbage',
    ]);
  });

  it('names a starter that is already green', () => {
    expect(failed('starter-green')).toContain('floor');
    expect(check('starter-green', 'floor').code).toBe('PK440');
    expect(packet('starter-green').defects.join('\n')).toMatch(/The starter passes its visible tests/);
  });

  it('names a floor that is red for the wrong reason', () => {
    expect(failed('floor-syntax')).toContain('floor');
    expect(check('floor-syntax', 'floor').code).toBe('PK441');
    expect(packet('floor-syntax').defects.join('\n')).toMatch(/red for the wrong reason: PK413 The test run crashed: the test module .* failed to import/);
  });

  it('names a sample that is red', () => {
    expect(failed('sample-red')).toContain('sample');
    expect(check('sample-red', 'sample').code).toBe('PK443');
    expect(packet('sample-red').defects.join('\n')).toMatch(/The sample solution is not PASS: PK416 1 held-out test failed/);
  });

  it('names a surviving mutant and its mode', () => {
    expect(failed('mutant-survives')).toEqual(['mutant:drops-minutes']);
    expect(check('mutant-survives', 'mutant:drops-minutes').code).toBe('PK446');
    expect(packet('mutant-survives').defects[0]).toMatch(/The tests miss the failure "Only the first unit counts" \(drops-minutes\)/);
  });

  it('names a signal that matches the sample', () => {
    expect(failed('signal-on-sample')).toContain('signal:accepts-garbage');
    expect(check('signal-on-sample', 'signal:accepts-garbage').code).toBe('PK449');
    expect(packet('signal-on-sample').defects.join('\n')).toMatch(/also matches the sample solution \(src\/duration\.py: PART = re\.compile/);
  });

  it('names a signal that misses its mutant, and says what it searched', () => {
    expect(failed('signal-misses-mutant')).toEqual(['signal:drops-minutes']);
    const missed = check('signal-misses-mutant', 'signal:drops-minutes');
    expect(missed.code).toBe('PK448');
    expect(missed.defect).toBe(
      'The signal of "drops-minutes" does not match its own mutant (searched the lines added against the starter in the candidate\'s files matching src/**/*.py), so a reviewer grepping for it would miss this failure.',
    );
    expect(missed.actual).toBe('mutant: no match; sample: no match');
  });

  it('names a hire bar that does not separate the sample from a mutant', () => {
    expect(failed('bar-too-low')).toEqual(['calibration:drops-minutes']);
    expect(check('bar-too-low', 'calibration:drops-minutes').code).toBe('PK451');
    expect(packet('bar-too-low').defects[0]).toMatch(/The rubric cannot tell "Only the first unit counts" \(drops-minutes\) from a hire/);
  });

  it('hints at `auto` rows for that hire bar: rows the machine scores from the evidence', () => {
    const found = check('bar-too-low', 'calibration:drops-minutes');
    const entry = catalogEntries().find((e) => e.code === found.code)!;
    expect(entry.name).toBe('CalibrationMutant');
    const params = { mode: 'drops-minutes', title: 'Only the first unit counts', total: 5, max: 8, hireBar: 4 };
    expect(found.defect).toBe(entry.message(params));
    const hint = entry.hint(params);
    // The report carries it with the defect, and the console prints it under it.
    expect(found.hint).toBe(hint);
    expect(stdout).toContain(`calibration:drops-minutes: PK451 ${found.defect}\n    hint: ${hint}\n`);
    expect(hint).toBe("Give a row `auto: tests` or `auto: hidden-tests` so the machine scores it from the evidence, cap a row lower in the mode's caps, add a veto, or raise the hire bar.");
    // Every check the hint names is one a rubric row can take.
    const named = [...hint.matchAll(/`auto: ([\w-]+)`/g)].map((m) => m[1]);
    expect(named).toEqual(['tests', 'hidden-tests']);
    for (const auto of named) expect(AUTO_CHECKS).toContain(auto);
  });

  it('keeps a forged OK line with a failing exit red', () => {
    expect(packet('forged-ok').status).toBe('fails-closed');
    const mutant = packet('forged-ok').checks.find((c) => c.id === 'mutant:accepts-garbage')!;
    // The only summary in the output is the forged one (6 ran, OK), and the judge does not read it:
    // the harness's record ends at the exit, before any test ran.
    expect(mutant.tests).toMatchObject({ ran: null, failed: 0, errors: 0, exitCode: 1 });
    expect(mutant.ok).toBe(true);
    expect(mutant.actual).toMatch(/^killed/);
    expect(mutant.findings!.map((f) => f.code)).toEqual(expect.arrayContaining(['PK433', 'PK413']));
  });

  it('runs the packet\'s own tests when a sample edits a protected test', () => {
    const sample = check('sample-edits-test', 'sample');
    expect(sample.ok).toBe(false);
    expect(sample.code).toBe('PK443');
    expect(sample.findings!.filter((f) => f.code === 'PK424').map((f) => f.file)).toEqual(['tests/test_duration.py']);
    expect(sample.tests!.ran).toBeGreaterThan(1);
  });

  it('names a sample that breaks its own packet\'s rules', () => {
    const contract = check('sample-breaks-contract', 'sample');
    expect(contract.code).toBe('PK456');
    expect(contract.defect).toMatch(/^The sample solution does not keep its own packet's rules: PK426 vendor\/shim\.py/);
    const notes = check('sample-no-notes', 'sample');
    expect(notes.code).toBe('PK456');
    expect(notes.defect).toContain('PK429 The deliverable NOTES.md is missing or empty.');
  });

  it('kills a hanging sample at the time limit and names it', () => {
    const sample = check('sample-hangs', 'sample');
    expect(sample.ok).toBe(false);
    expect(sample.tests!.timedOut).toBe(true);
    expect(sample.actual).toMatch(/killed at the time limit/);
    expect(sample.defect).toContain('PK411');
  });

  it("names the sandbox cap a sample ran into, and the packet's field that raises it", () => {
    const sample = packet('sample-fills-workspace').checks.find((c) => c.id === 'sample')!;
    expect(sample.ok).toBe(false);
    expect(sample.code).toBe('PK443');
    const cap = sample.findings!.find((f) => f.code === 'PK402')!;
    expect(cap.message).toContain('A test run hit a cap of the sandbox: the workspace (/workspace, 1 MiB) is full.');
    expect(cap.hint).toContain('raise sandbox.workspaceMb in prompt.mdx (at most 2048)');
  });

  it('leaves no scratch root of its own behind', () => {
    const mine = readdirSync(tmpdir())
      .filter((name) => name.startsWith(SCRATCH_PREFIX))
      .filter((name) => {
        try {
          return JSON.parse(readFileSync(path.join(tmpdir(), name, SCRATCH_MARKER), 'utf8')).pid === process.pid;
        } catch {
          return false;
        }
      });
    expect(mine).toEqual([]);
  });

  it('summarises defects in words on the console', () => {
    expect(stdout).toMatch(/14 packets: 2 fail closed, 12 with defects, 0 inconclusive/);
    expect(stdout).toContain('starter-green:\n  - PK440 The starter passes its visible tests');
  });
});
