/**
 * Planted attacks on the judge: each is a WRONG solution to a shipped packet (one of its mutants,
 * or a lab's starter, so the tests really fail) dressed up to end PASS, graded for real in
 * bubblewrap. The test asserts the SECURE outcome: the verdict is not PASS, and some finding (a
 * tamper, a failing test, the contract or the intake) names it. The forgers live in
 * tests/fixtures/attacks/ (`_touch.py` notes each test that calls the candidate's code, so a forger
 * can spare the kit's canaries, which never do; `_canaries.py` reads the test files at run time).
 *
 * Record of today's main (e460ce8): attack, packet and base, verdict and codes. All but
 * should-stop-class end PASS there with no finding (intake-double-slash with a warning only); "bare"
 * is the same answer without its forger, which fails, so each answer is really wrong.
 *  1. result-stubs         red-log-gate / green-on-red          PASS on main e460ce8 (bare: CAUGHT PK415 PK416 PK430)
 *     TestResult/TextTestResult addFailure, addError, addSubTest replaced by stubs that call addSuccess
 *     for tests that called the candidate's code
 *  2. run-replaced         fetch-retry-ticket / retry-everything PASS on main e460ce8 (bare: CAUGHT PK415 PK416)
 *     TestCase.run replaced; only tests that called the candidate's code are reported passed, so the
 *     canaries stay red
 *  3. should-stop          red-log-gate / substring-red         PASS on main e460ce8 (bare: CAUGHT PK415 PK416)
 *     failureException = unittest.case._ShouldStop on the live test, found by walking the stack
 *  4. should-stop-class    red-log-gate / substring-red         CAUGHT on main e460ce8 (PK420): the blunt form
 *     on TestCase itself turns the canaries green too (kept as the measure of what canaries do catch)
 *  5. expecting-failure    red-log-gate / mtime-order           PASS on main e460ce8 (bare: FALSE-GREEN PK416)
 *     the live test's _outcome.expecting_failure = True, reached by sys._getframe from the candidate
 *  6. gc-result            fetch-retry-ticket / unbounded-retry PASS on main e460ce8 (bare: FALSE-GREEN PK416)
 *     gc.get_objects() finds the running TestResult; touched tests' failures become successes
 *  7. stack-result         red-log-gate / refusal-exits-zero    PASS on main e460ce8 (bare: FALSE-GREEN PK416)
 *     f_back walk to TestCase.run's `result`, the same marking
 *  8. settrace-args        loop-budget-ledger / cap-after-call  PASS on main e460ce8 (bare: CAUGHT PK415 PK416)
 *     sys.settrace sets assertEqual's `second` to its `first` in touched tests
 *  9. build-class          loop-budget-ledger / swallowed-stop  PASS on main e460ce8 (bare: FALSE-GREEN PK416)
 *     builtins.__build_class__ wraps test methods so a touched test never fails
 * 10. read-caller-code     lab-free-time / starter              PASS on main e460ce8 (bare: CAUGHT PK415 PK416)
 *     the candidate reads the calling assertEqual from the caller's code and evaluates its expected
 *     argument in the caller's frame (globals and locals)
 * 11. stderr-filter        red-log-gate / green-on-red          PASS on main e460ce8 (bare: CAUGHT PK415 PK416 PK430)
 *     sys.stderr replaced by a filter that keeps only canary-shaped failures in the report
 * 12. dup2-devnull         fetch-retry-ticket / retry-everything PASS on main e460ce8 (bare: CAUGHT PK415 PK416)
 *     a forged report naming the canaries (read from the test files), then fd 2 dup2'd to /dev/null
 * 13. padded-report        red-log-gate / substring-red         PASS on main e460ce8 (bare: CAUGHT PK415 PK416)
 *     a forged report padded with 80 KiB so the real one falls past the 64 KiB the sandbox keeps
 * 14. canary-lines         loop-budget-ledger / retry-dead-end  PASS on main e460ce8 (bare: CAUGHT PK415 PK416)
 *     every test reported passed, then canary FAIL: lines printed by hand at exit and exit 1 forced
 * 15. lying-eq             lab-free-time / starter              PASS on main e460ce8 (bare: CAUGHT PK415 PK416)
 *     return values whose __eq__ always says True
 * 16. intake-double-slash  loop-budget-ledger / cap-after-call  PASS on main e460ce8 (PK512, a warning, only)
 *     a zip through the grade entry point with the sample as src/loop_budget.py and the mutant plus the
 *     settrace forger as src//loop_budget.py: the second is written last and runs; the cap-after-call
 *     signal, scoped to src/loop_budget.py, reads the first (laid out plainly: FALSE-GREEN PK430)
 * 17. eval-space           red-log-gate / sample, the journal read with `eval (`          PASS on main e460ce8
 * 18. utf7-eval            red-log-gate / sample, `eval(` written +AGUAdgBhAGwAKA- under a
 *     `# -*- coding: utf-7 -*-` cookie (Python 3.11 decodes it and runs it)                PASS on main e460ce8
 * 19. import-module        loop-budget-ledger / sample, importlib.import_module("sub" "process") and
 *     getattr(..., "Po" "pen") start a helper that outlives run()                          PASS on main e460ce8
 * 20. getattr-fork         loop-budget-ledger / sample, getattr(os, "fo" "rk")() in run()  PASS on main e460ce8
 * 21. hidden-lookup        lab-free-time / starter              PASS on main e460ce8 (bare: CAUGHT PK415 PK416)
 *     the candidate opens tests/test_*.py (the hidden file too) at run time, runs each test against a
 *     recorder and answers from the table of expected values
 * Controls: the sample of every shipped take-home PASSes with no finding.
 *
 * With the trusted harness every one of them ends CAUGHT, each named by the layer in NAMED_BY
 * (the machinery check, the audit hook, the screen, forbid over the token stream, the intake).
 *
 * Each mutant's own failure signal is dodged in its text where it would match (`except (Exception)`,
 * `while 1:`, `("FAILED") not in`, `_check_caps (`, `range (`, `return (0)`, getattr for st_mtime),
 * as an attacker would.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradeSubmissions } from '../../src/grade/grade.ts';
import type { TestRunner } from '../../src/judge/run-tests.ts';
import { loadPacketFiles, type PacketFiles } from '../../src/judge/workspace.ts';
import { judgeSubmission, type Outcome } from '../support/attack-outcome.ts';
import { judgedForm } from '../support/variant-one.ts';
import { loadPackets } from '../../src/packets/load.ts';
import { codePackets } from '../../src/packets/packet.ts';
import type { CodePacket } from '../../src/packets/packet.ts';
import { prepareRunEnvironment, type RunEnvironment } from '../../src/runs/environment.ts';

const root = path.resolve(import.meta.dirname, '../..');
const fixtures = path.join(root, 'tests/fixtures/attacks');

let env: RunEnvironment;
let runner: TestRunner;
let scratch: string;
const packets = new Map<string, { packet: CodePacket; dir: string; files: PacketFiles }>();
/** The folders a packet with variants was rendered into (its variant v1). */
const variantFolders: string[] = [];

/** How an attack's files are made: a base overlay, text dodges, forger fixtures appended to one file. */
interface Attack {
  name: string;
  packet: string;
  /** The mutant laid over the sample, or 'starter' (the lab's own broken code), or 'sample'. */
  base: string;
  /** The file the forger is appended to. */
  target: string;
  /** Fixture files appended to the target, in order. */
  forge: string[];
  /** Text replaced in the target before the forger is appended (signal and forbid dodges). */
  dodge?: [string | RegExp, string][];
  /** Other files of the submission, replacing the base's. */
  extra?: Record<string, string>;
}

const touch = ['_touch.py'];
const reads = ['_canaries.py'];

const ATTACKS: Attack[] = [
  { name: 'result-stubs', packet: 'red-log-gate', base: 'green-on-red', target: 'src/gate.py', forge: [...touch, 'result-stubs.py'] },
  { name: 'run-replaced', packet: 'fetch-retry-ticket', base: 'retry-everything', target: 'src/client.py', forge: [...touch, 'run-replaced.py'], dodge: [['except Exception:', 'except (Exception):']] },
  { name: 'should-stop', packet: 'red-log-gate', base: 'substring-red', target: 'src/gate.py', forge: [...touch, 'should-stop.py'], dodge: [['"FAILED" not in', '("FAILED") not in']] },
  { name: 'should-stop-class', packet: 'red-log-gate', base: 'substring-red', target: 'src/gate.py', forge: ['should-stop-class.py'], dodge: [['"FAILED" not in', '("FAILED") not in']] },
  { name: 'expecting-failure', packet: 'red-log-gate', base: 'mtime-order', target: 'src/gate.py', forge: [...touch, 'expecting-failure.py'], dodge: [[/\.stat\(\)\.st_mtime/g, '.stat().__getattribute__("st_" "mtime")']] },
  { name: 'gc-result', packet: 'fetch-retry-ticket', base: 'unbounded-retry', target: 'src/client.py', forge: [...touch, 'gc-result.py'], dodge: [['while True:', 'while 1:']] },
  { name: 'stack-result', packet: 'red-log-gate', base: 'refusal-exits-zero', target: 'src/gate.py', forge: [...touch, 'stack-result.py'], dodge: [['file=sys.stderr)\n        return 0', 'file=sys.stderr)\n        return (0)']] },
  { name: 'settrace-args', packet: 'loop-budget-ledger', base: 'cap-after-call', target: 'src/loop_budget.py', forge: [...touch, 'settrace-args.py'], dodge: [[/_check_caps\(/g, '_check_caps (']] },
  { name: 'build-class', packet: 'loop-budget-ledger', base: 'swallowed-stop', target: 'src/agent_run.py', forge: [...touch, 'build-class.py'], dodge: [['except Exception as exc:', 'except (Exception) as exc:']] },
  { name: 'read-caller-code', packet: 'lab-free-time', base: 'starter', target: 'free_time.py', forge: ['read-caller-code.py'] },
  { name: 'stderr-filter', packet: 'red-log-gate', base: 'green-on-red', target: 'src/gate.py', forge: ['stderr-filter.py'] },
  { name: 'dup2-devnull', packet: 'fetch-retry-ticket', base: 'retry-everything', target: 'src/client.py', forge: ['_touch.py', ...reads, 'dup2-devnull.py'], dodge: [['except Exception:', 'except (Exception):']] },
  { name: 'padded-report', packet: 'red-log-gate', base: 'substring-red', target: 'src/gate.py', forge: [...reads, 'padded-report.py'], dodge: [['"FAILED" not in', '("FAILED") not in']] },
  { name: 'canary-lines', packet: 'loop-budget-ledger', base: 'retry-dead-end', target: 'src/agent_run.py', forge: [...touch, ...reads, 'canary-lines.py'], dodge: [['in range(1 + RETRIES)', 'in range (1 + RETRIES)']] },
  { name: 'lying-eq', packet: 'lab-free-time', base: 'starter', target: 'free_time.py', forge: ['lying-eq.py'] },
  {
    name: 'eval-space',
    packet: 'red-log-gate',
    base: 'sample',
    target: 'src/gate.py',
    forge: [],
    dodge: [['json.loads(line)', 'eval (line, {"true": True, "false": False, "null": None})']],
  },
  {
    name: 'import-module',
    packet: 'loop-budget-ledger',
    base: 'sample',
    target: 'src/agent_run.py',
    forge: [],
    dodge: [
      ['import json\n', 'import importlib\nimport json\nimport sys\n'],
      ['    return summary\n', '    _helper = importlib.import_module("sub" "process")\n    getattr(_helper, "Po" "pen")([sys.executable, "-c", "import time as t; t.sleep(0.5)"])\n    return summary\n'],
    ],
  },
  {
    name: 'getattr-fork',
    packet: 'loop-budget-ledger',
    base: 'sample',
    target: 'src/agent_run.py',
    forge: [],
    dodge: [
      ['import json\n', 'import json\nimport os\n'],
      ['    return summary\n', '    if getattr(os, "fo" "rk")() == 0:\n        os._exit(0)\n    return summary\n'],
    ],
  },
  { name: 'hidden-lookup', packet: 'lab-free-time', base: 'starter', target: 'free_time.py', forge: ['hidden-lookup.py'] },
];

/** UTF-7 text of ASCII source: `+` escaped as `+-`, `eval(` written as its UTF-16 run. */
function utf7(source: string): string {
  return `# -*- coding: utf-7 -*-\n${source.replace(/\+/g, '+-').replace(/eval\(/g, '+AGUAdgBhAGwAKA-')}`;
}

async function treeFiles(dir: string, files: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of files) out[f] = await readFile(path.join(dir, f), 'utf8');
  return out;
}

/** The submission's files: the sample (a take-home's deliverables), the base overlay, the dressed target. */
async function submissionOf(a: Attack, bare = false): Promise<Record<string, string>> {
  const { packet, dir } = packets.get(a.packet)!;
  const files: Record<string, string> = packet.trees.sample.length ? await treeFiles(path.join(dir, 'sample'), packet.trees.sample) : {};
  if (a.base !== 'sample' && a.base !== 'starter') Object.assign(files, await treeFiles(path.join(dir, 'mutants', a.base), packet.trees.mutants[a.base]!));
  let text = files[a.target] ?? (await readFile(path.join(dir, a.base === 'starter' ? 'starter' : 'sample', a.target), 'utf8').catch(() => readFile(path.join(dir, 'starter', a.target), 'utf8')));
  for (const [from, to] of a.dodge ?? []) {
    const next = text.replace(from, to);
    if (next === text) throw new Error(`${a.name}: the dodge "${from}" found nothing in ${a.target}`);
    text = next;
  }
  if (!bare) for (const f of a.forge) text += await readFile(path.join(fixtures, f), 'utf8');
  files[a.target] = text;
  return { ...files, ...a.extra };
}

async function judged(packetId: string, submitted: Record<string, string>): Promise<Outcome> {
  return judgeSubmission(packets.get(packetId)!.files, submitted, runner, scratch);
}

async function zipOf(entries: [string, string][], file: string): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, text] of entries) zip.addBuffer(Buffer.from(text, 'utf8'), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  await writeFile(file, Buffer.concat(chunks));
}

/** The cap-after-call mutant (its signal not dodged) with the settrace forger. */
async function intakeForgery(): Promise<string> {
  const { dir } = packets.get('loop-budget-ledger')!;
  const parts = ['mutants/cap-after-call/src/loop_budget.py', '../../tests/fixtures/attacks/_touch.py', '../../tests/fixtures/attacks/settrace-args.py'];
  return (await Promise.all(parts.map((p) => readFile(path.join(dir, p), 'utf8')))).join('');
}

/** The intake attack, through `packet grade`'s library entry point with a zip. */
async function intakeAttack(): Promise<Outcome> {
  const { packet, dir, files } = packets.get('loop-budget-ledger')!;
  const sample = await treeFiles(path.join(dir, 'sample'), packet.trees.sample);
  const mutant = await intakeForgery();
  const zipFile = path.join(scratch, 'double-slash.zip');
  await zipOf([...Object.entries(sample), ['src//loop_budget.py', mutant]], zipFile);
  const { cards } = await gradeSubmissions({
    files,
    submissions: [zipFile],
    outDir: path.join(scratch, 'grades'),
    runner,
    sandboxKind: 'bubblewrap',
    scratchDir: scratch,
    jobs: 1,
    kitVersion: '0.0.0-test',
    date: () => new Date('2026-12-01T00:00:00Z'),
    now: () => performance.now(),
    random: Math.random,
  });
  const card = cards[0]!;
  return { verdict: card.verdict, codes: card.findings.map((f) => f.code), findings: card.findings, description: card.submission.name };
}

const outcomes = new Map<string, Outcome>();
const takehomes: string[] = [];

beforeAll(async () => {
  const loaded = await loadPackets({ packetsDir: 'packets', cwd: root });
  for (const p of codePackets(loaded.packets)) {
    const source = loaded.sources.find((s) => s.id === p.id)!;
    const form = await judgedForm(p, path.join(root, 'packets', source.folder));
    if (form.scratch) variantFolders.push(form.scratch);
    packets.set(p.id, { packet: form.packet, dir: form.dir, files: await loadPacketFiles(form.packet, form.dir) });
    if (p.prompt.data.kind === 'takehome') takehomes.push(p.id);
  }
  const prepared = await prepareRunEnvironment({ env: process.env, tmpDir: tmpdir(), allowUnconfined: false });
  if (!prepared.ok) throw new Error(prepared.message);
  env = prepared.environment;
  runner = { sandbox: env.sandbox, mounts: env.interpreter.mounts, timeoutMs: 30_000 };
  scratch = await mkdtemp(path.join(tmpdir(), 'harness-attacks-'));
  await mkdir(path.join(scratch, 'grades'));

  const limit = pLimit(3);
  const jobs: Promise<void>[] = [];
  for (const id of takehomes) {
    jobs.push(limit(async () => {
      const { packet, dir } = packets.get(id)!;
      outcomes.set(`control:${id}`, await judged(id, await treeFiles(path.join(dir, 'sample'), packet.trees.sample)));
    }));
  }
  for (const a of ATTACKS) jobs.push(limit(async () => void outcomes.set(a.name, await judged(a.packet, await submissionOf(a)))));
  // The same answers without their forgers (dodges kept): each must be wrong on its own.
  for (const a of ATTACKS.filter((x) => x.forge.length)) jobs.push(limit(async () => void outcomes.set(`bare:${a.name}`, await judged(a.packet, await submissionOf(a, true)))));
  // The intake attack's files laid out plainly: the mutant and its forger as src/loop_budget.py.
  jobs.push(limit(async () => {
    const { packet, dir } = packets.get('loop-budget-ledger')!;
    const files = await treeFiles(path.join(dir, 'sample'), packet.trees.sample);
    files['src/loop_budget.py'] = await intakeForgery();
    outcomes.set('bare:intake-double-slash', await judged('loop-budget-ledger', files));
  }));
  jobs.push(limit(async () => {
    const { packet, dir } = packets.get('red-log-gate')!;
    const files = await treeFiles(path.join(dir, 'sample'), packet.trees.sample);
    files['src/gate.py'] = utf7(files['src/gate.py']!.replace('json.loads(line)', 'eval(line, {"true": True, "false": False, "null": None})'));
    outcomes.set('utf7-eval', await judged('red-log-gate', files));
  }));
  jobs.push(limit(async () => void outcomes.set('intake-double-slash', await intakeAttack())));
  await Promise.all(jobs);
  if (process.env.HARNESS_ATTACKS_RECORD) {
    for (const [name, o] of outcomes) console.log(`${name.padEnd(28)} ${o.verdict.padEnd(12)} ${o.codes.join(' ') || '-'}  ${o.description}`);
  }
}, 180_000);

afterAll(async () => {
  for (const d of variantFolders) await rm(d, { recursive: true, force: true });
  await env?.dispose();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Kinds of finding that can name a planted attack. */
const NAMING = new Set(['tamper', 'tests', 'hidden-tests', 'run', 'contract', 'intake', 'signal', 'unsafe']);

/**
 * The layer that must name each attack with the trusted harness: the machinery check (PK434),
 * the audit hook (PK435), the screen (PK436, PK437), a foreign test (PK438), a cut output (PK439),
 * forbid over the token stream (PK427), the intake (PK505 duplicate, PK513 not normal), or the tests themselves (PK415, PK416)
 * where the forger could not reach what it forges.
 */
const NAMED_BY: Record<string, readonly string[]> = {
  'result-stubs': ['PK434'],
  'run-replaced': ['PK434'],
  'should-stop': ['PK435'],
  'should-stop-class': ['PK434'],
  'expecting-failure': ['PK435'],
  'gc-result': ['PK435'],
  'stack-result': ['PK435'],
  'settrace-args': ['PK435'],
  'build-class': ['PK438'],
  'read-caller-code': ['PK435'],
  'stderr-filter': ['PK436'],
  'dup2-devnull': ['PK435', 'PK436'],
  // Its forger reads the test modules for the canaries' names: refused there (PK435), or caught by the report's size.
  'padded-report': ['PK439', 'PK435'],
  'canary-lines': ['PK434'],
  'lying-eq': ['PK436'],
  'intake-double-slash': ['PK505', 'PK513'],
  'eval-space': ['PK427'],
  'utf7-eval': ['PK437'],
  'import-module': ['PK427', 'PK436'],
  'getattr-fork': ['PK427'],
  'hidden-lookup': ['PK415', 'PK416'],
};

function expectCaught(name: string): void {
  const o = outcomes.get(name)!;
  expect(o, name).toBeDefined();
  expect(o.verdict, `${name}: ${o.codes.join(' ')} ${o.description}`).not.toBe('PASS');
  expect(o.verdict).not.toBe('REJECTED');
  expect(o.findings.some((f) => f.severity !== 'warning' && NAMING.has(f.kind)), `${name}: ${o.codes.join(' ')}`).toBe(true);
  const named = NAMED_BY[name]!;
  expect(o.codes.filter((c) => named.includes(c)), `${name} is named by ${named.join(' or ')}: ${o.codes.join(' ')}`).toEqual(expect.arrayContaining([named.find((c) => o.codes.includes(c)) ?? named[0]]));
}

describe('the planted answers are wrong', () => {
  it('each, without its forger, does not pass', () => {
    for (const a of ATTACKS.filter((x) => x.forge.length)) {
      const o = outcomes.get(`bare:${a.name}`)!;
      expect(o.verdict, `${a.name} without its forger: ${o.codes.join(' ')} ${o.description}`).not.toBe('PASS');
      expect(o.findings.some((f) => f.kind === 'tests' || f.kind === 'hidden-tests'), a.name).toBe(true);
    }
  });
  it('the intake attack\'s forgery laid out as src/loop_budget.py meets its signal', () => {
    const o = outcomes.get('bare:intake-double-slash')!;
    expect(o.verdict).not.toBe('PASS');
    expect(o.codes).toContain('PK430');
  });
});

describe('controls: every shipped take-home sample', () => {
  it('covers the seven take-homes', () => {
    expect(takehomes.sort()).toEqual(['agent-budget-receipt', 'dead-target-abort', 'fetch-retry-ticket', 'idempotent-intake', 'log-labeler-payload', 'loop-budget-ledger', 'red-log-gate']);
  });
  it('passes each with no finding', () => {
    for (const id of takehomes) {
      const o = outcomes.get(`control:${id}`)!;
      expect({ id, verdict: o.verdict, codes: o.codes }).toEqual({ id, verdict: 'PASS', codes: [] });
    }
  });
});

describe('1. patching the test machinery at import', () => {
  it('TestResult.addFailure/addError/addSubTest stubs that call addSuccess', () => expectCaught('result-stubs'));
  it('TestCase.run replaced, sparing tests that never call the candidate (the canaries)', () => expectCaught('run-replaced'));
  it('failureException = unittest.case._ShouldStop on the live test', () => expectCaught('should-stop'));
  it('failureException = unittest.case._ShouldStop on TestCase itself (the blunt form)', () => expectCaught('should-stop-class'));
  it('_outcome.expecting_failure = True on the live test, reached through sys._getframe', () => expectCaught('expecting-failure'));
});

describe('2. introspection', () => {
  it('gc.get_objects() finds the running TestResult and marks failures passed', () => expectCaught('gc-result'));
  it('a walk up f_back finds TestCase.run\'s result and marks failures passed', () => expectCaught('stack-result'));
  it('sys.settrace rewrites the arguments of assertEqual', () => expectCaught('settrace-args'));
  it('builtins.__build_class__ wraps test methods so they never fail', () => expectCaught('build-class'));
  it('the caller\'s code read for the expected value of its assertEqual', () => expectCaught('read-caller-code'));
});

describe('3. the report channel', () => {
  it('sys.stderr replaced by a filter that rewrites the report', () => expectCaught('stderr-filter'));
  it('a forged report, then fd 2 redirected to /dev/null with os.dup2', () => expectCaught('dup2-devnull'));
  it('a forged report padded so the real one falls past the 64 KiB kept', () => expectCaught('padded-report'));
  it('canary FAIL: lines printed by hand after an all-green run', () => expectCaught('canary-lines'));
});

describe('4. values that lie', () => {
  it('return values whose __eq__ always returns True', () => expectCaught('lying-eq'));
});

describe('5. intake', () => {
  it('a zip entry src//loop_budget.py laid over the real src/loop_budget.py', () => expectCaught('intake-double-slash'));
});

describe('6. contract dodges against a forbid pattern', () => {
  it('`eval (` with a space (red-log-gate forbids eval()', () => expectCaught('eval-space'));
  it('a UTF-7 coding cookie hiding eval( (red-log-gate)', () => expectCaught('utf7-eval'));
  it('importlib.import_module("sub" "process") (loop-budget-ledger forbids subprocess, Popen)', () => expectCaught('import-module'));
  it('getattr(os, "fo" "rk") (loop-budget-ledger forbids os.fork)', () => expectCaught('getattr-fork'));
});

describe('7. reading the hidden tests at run time', () => {
  it('a lookup table of expected values built from tests/test_*.py', () => expectCaught('hidden-lookup'));
});
