/**
 * A third round of planted attacks on the trusted harness (none repeats harness-attacks.test.ts,
 * harness-attacks-2.test.ts or harness.test.ts), first on small workspaces through runHarness,
 * then the winner on the shipped take-home fetch-retry-ticket (its retry-everything mutant, the
 * signal dodged as in attacks2). Each case asserts the SECURE outcome. A red case is a hole.
 * The forgers live in tests/fixtures/attacks3/.
 *
 * Record of branch attack3 on 3c101f7 (before the fix in this branch):
 *  1. hash-bypass (shipped, judgeRun)  PASS, no finding: HOLE. "19 ran, 0 failed, canaries 3/3 red
 *     (exit 1)"; bare the same answer is CAUGHT PK415 PK416 (5 tests red). The hook's
 *     `kind in PATH_CLASSES` hashed the type of shutil.copyfile's path argument, running a
 *     metaclass __hash__ of the code's own inside the hook, where the reentrancy guard let every
 *     event go unjudged. There xmlrpc.server.resolve_dotted_attribute (a getattr by name the screen
 *     does not know; names built so no frame word is in a string) walks sys.exc_info()'s traceback
 *     to _harness and takes its locals: closed[0] silences the harness, manifest['tests'] becomes a
 *     list whose __len__ (read just before `done`) writes every test line through the harness's
 *     own send, failures of tests that called the code as passed, the canaries left red.
 *  1b. the same entered by sys.audit('open', path object)                    HOLE (small workspace)
 *  1c. the same entered by sys.audit('object.__getattr__', 0, str subclass)   HOLE (small workspace)
 *  1d. the same walk run by the harness's own _realpath (os.path.abspath patched, its globals live)
 *                                                                              HOLE (small workspace)
 *  control: the same walk outside the hook                                     CAUGHT (reading .tb_frame through server.py)
 * After the fix (path types by identity, events named by a str subclass read as text, getattr and
 * setattr events whose name is not exact text refused, and any watched event raised while the hook
 * judges another refused unless harness.py raised it): 1 CAUGHT PK435 PK415 PK416; 1b-1d CAUGHT by
 * the hook (the reentrancy check names 1d alone, identity already stops 1 and 1b).
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestRunner } from '../../src/judge/run-tests.ts';
import { loadPacketFiles, type PacketFiles } from '../../src/judge/workspace.ts';
import { loadPackets } from '../../src/packets/load.ts';
import { codePackets } from '../../src/packets/packet.ts';
import type { CodePacket } from '../../src/packets/packet.ts';
import { prepareRunEnvironment, type RunEnvironment } from '../../src/runs/environment.ts';
import type { HarnessRecord } from '../../src/judge/harness/record.ts';
import { harnessWorkspaces } from '../support/harness-workspace.ts';
import { judgeSubmission, type Outcome } from '../support/attack-outcome.ts';
import { judgedForm } from '../support/variant-one.ts';
import { useSandbox } from '../support/sandbox-harness.ts';

const h = useSandbox('harness-attacks-3', 20_000);
const fixtures = join(import.meta.dirname, '../fixtures/attacks3');
// _count.py is round 2's call counter, shared.
const fixture = (name: string): string => readFileSync(join(name === '_count.py' ? join(fixtures, '../attacks2') : fixtures, name), 'utf8');

const { harness } = harnessWorkspaces(h, { screenDisk: true });

const outcomes = (r: HarnessRecord) => Object.fromEntries(r.tests.map((t) => [t.id.split('.').slice(-2).join('.'), t.outcome]));

const TRIGGER = "_sh_k.copyfile(_P(), '/nonexistent-probe-copy')";

/** A wrong double() (x * 3) with the forger `name` laid over it through _count.py's call hook (its trigger swapped for `trigger`). */
function wrongCalc(name: string, trigger?: string, more = ''): string {
  const count = fixture('_count.py').replaceAll('fetch_json', 'double');
  let forger = fixture(name);
  if (trigger) {
    if (!forger.includes(TRIGGER)) throw new Error('the trigger is not in ' + name);
    forger = forger.replace(TRIGGER, trigger);
  }
  return 'def double(x):\n    return x * 3\n' + count + forger + more;
}

const CALC_TESTS = {
  'tests/test_calc.py': [
    'import unittest',
    'from src import calc',
    '',
    'class TestCalc(unittest.TestCase):',
    '    def test_a_double(self):',
    '        self.assertEqual(calc.double(2), 4)',
    '    def test_b_sub(self):',
    '        for i in range(3):',
    '            with self.subTest(i=i):',
    '                self.assertEqual(calc.double(i), 2 * i)',
    '    def test_c_canary(self):',
    '        self.assertEqual(1, 2)',
    '',
  ].join('\n'),
};

/** What a caught forgery leaves: a failing test recorded as failing, or the record's own evidence. */
function caught(r: HarnessRecord): boolean {
  const o = outcomes(r);
  const screened = (r.screen?.findings.length ?? 0) > 0;
  return screened || r.audit.length > 0 || r.integrity.length > 0 || r.problems.length > 0 || o['TestCalc.test_a_double'] !== 'passed' || o['TestCalc.test_b_sub'] !== 'passed';
}

describe('harness attacks, round 3 (small workspaces)', () => {
  it('a metaclass __hash__ run inside the audit hook walks to _harness and takes the record over', async () => {
    const r = await harness({ 'src/calc.py': wrongCalc('hash-bypass.py') }, CALC_TESTS);
    if (process.env.HARNESS_ATTACKS_RECORD) console.log(JSON.stringify({ tests: r.tests, screen: r.screen?.findings, audit: r.audit, integrity: r.integrity, problems: r.problems, exit: r.exitCode, out: r.output.slice(-3000) }, null, 1));
    expect(caught(r)).toBe(true);
  });
  it('the same, the hook entered by sys.audit("open", path object) called by the code itself', async () => {
    const r = await harness({ 'src/calc.py': wrongCalc('hash-bypass.py', "_sys_k.audit('open', _P())") }, CALC_TESTS);
    if (process.env.HARNESS_ATTACKS_RECORD) console.log('sys.audit open', JSON.stringify({ tests: outcomes(r), screen: r.screen?.findings, audit: r.audit, problems: r.problems }));
    expect(caught(r)).toBe(true);
  });
  it('the same, the hook entered by sys.audit("object.__getattr__", x, a str subclass whose __hash__ walks)', async () => {
    const trigger = "_sys_k.audit('object.' + '_' * 2 + 'getattr' + '_' * 2, 0, type('S', (str,), {'_' * 2 + 'hash' + '_' * 2: _Meta.__hash__})('x'))";
    const r = await harness({ 'src/calc.py': wrongCalc('hash-bypass.py', trigger) }, CALC_TESTS);
    if (process.env.HARNESS_ATTACKS_RECORD) console.log('sys.audit getattr', JSON.stringify({ tests: outcomes(r), screen: r.screen?.findings, audit: r.audit, problems: r.problems }));
    expect(caught(r)).toBe(true);
  });
  it('the same walk run inside the hook by the harness\'s own realpath, through a patched os.path.abspath', async () => {
    const more = [
      'import os as _os_k',
      '_abs0 = _os_k.path.abspath',
      'def _abs_probe(p):',
      '    try:',
      '        _Meta.__hash__(_P)',
      '    except LookupError:',
      '        pass',
      '    return _abs0(p)',
      'def _via_realpath():',
      '    _os_k.path.abspath = _abs_probe',
      '    try:',
      "        open('no-such-file-here')",
      '    except OSError:',
      '        pass',
      '    finally:',
      '        _os_k.path.abspath = _abs0',
      '    raise LookupError("done")',
      '',
    ].join('\n');
    const r = await harness({ 'src/calc.py': wrongCalc('hash-bypass.py', '_via_realpath()', more) }, CALC_TESTS);
    if (process.env.HARNESS_ATTACKS_RECORD) console.log('realpath', JSON.stringify({ tests: r.tests.map((t) => t.outcome + ' ' + t.message), screen: r.screen?.findings, audit: r.audit, problems: r.problems }).slice(0, 600));
    expect(caught(r)).toBe(true);
  });
  it('control: the same frame walk outside the hook is refused (xmlrpc.server is no frame reader)', async () => {
    const r = await harness({ 'src/calc.py': wrongCalc('hash-bypass.py', '_Meta.__hash__(_P)') }, CALC_TESTS);
    if (process.env.HARNESS_ATTACKS_RECORD) console.log('no bypass', JSON.stringify({ tests: outcomes(r), screen: r.screen?.findings, audit: r.audit, problems: r.problems }));
    expect(caught(r)).toBe(true);
  });
});

// ---- the shipped take-home: fetch-retry-ticket, its retry-everything mutant, the signal dodged ----
const root = path.resolve(import.meta.dirname, '../..');
let env: RunEnvironment;
let runner: TestRunner;
let scratch: string;
let shipped: { packet: CodePacket; dir: string; files: PacketFiles };
/** The folder the packet's variant v1 was rendered into, when it has variants. */
let variantFolder: string | undefined;

async function submission(forge: string[]): Promise<Record<string, string>> {
  const { packet, dir } = shipped;
  const out: Record<string, string> = {};
  for (const f of packet.trees.sample) out[f] = await readFile(path.join(dir, 'sample', f), 'utf8');
  for (const f of packet.trees.mutants['retry-everything']!) out[f] = await readFile(path.join(dir, 'mutants', 'retry-everything', f), 'utf8');
  let text = out['src/client.py']!.replace('except Exception:', 'except (Exception):');
  for (const f of forge) text += fixture(f);
  out['src/client.py'] = text;
  return out;
}

async function judged(submitted: Record<string, string>): Promise<Outcome> {
  return judgeSubmission(shipped.files, submitted, runner, scratch);
}

const judgedOutcomes = new Map<string, Outcome>();

beforeAll(async () => {
  const loaded = await loadPackets({ packetsDir: 'packets', cwd: root });
  const p = codePackets(loaded.packets).find((x) => x.id === 'fetch-retry-ticket')!;
  const source = loaded.sources.find((s) => s.id === p.id)!;
  const form = await judgedForm(p, path.join(root, 'packets', source.folder));
  variantFolder = form.scratch;
  shipped = { packet: form.packet, dir: form.dir, files: await loadPacketFiles(form.packet, form.dir) };
  const prepared = await prepareRunEnvironment({ env: process.env, tmpDir: tmpdir(), allowUnconfined: false });
  if (!prepared.ok) throw new Error(prepared.message);
  env = prepared.environment;
  runner = { sandbox: env.sandbox, mounts: env.interpreter.mounts, timeoutMs: 30_000 };
  scratch = await mkdtemp(path.join(tmpdir(), 'harness-attacks-3-'));
  await mkdir(path.join(scratch, 'grades'));
  judgedOutcomes.set('bare', await judged(await submission([])));
  judgedOutcomes.set('hash-bypass', await judged(await submission(['_count.py', 'hash-bypass.py'])));
  // A universal answer: the sample with its shed status read from whichever test module names one, so a copy of one
  // variant's answer fits every variant. Read by open(), by an import, and (the control) from a file that is no test.
  const sample: Record<string, string> = {};
  for (const f of shipped.packet.trees.sample) sample[f] = await readFile(path.join(shipped.dir, 'sample', f), 'utf8');
  const statuses = /RETRY_STATUSES = frozenset\(\{429, (\d+)\}\)/;
  const reading = (how: string) => ({ ...sample, 'src/client.py': sample['src/client.py']!.replace(statuses, `${how}\nRETRY_STATUSES = frozenset({429, _shed()})`) });
  const scan = (source: string) => `    import re\n    for m in re.findall(r"\\b(50[234]|529)\\b", ${source}):\n        return int(m)\n    return 0`;
  judgedOutcomes.set('reads-tests', await judged(reading(`def _shed():\n    import pathlib\n${scan("''.join(f.read_text() for f in sorted(pathlib.Path(__file__).resolve().parent.parent.joinpath('tests').glob('test_*.py')))")}`)));
  judgedOutcomes.set('imports-tests', await judged(reading(`def _shed():\n    import importlib\n    mod = importlib.import_module('tests.test_retry')\n${scan('str(vars(mod))')}`)));
  judgedOutcomes.set('reads-own', await judged({ ...reading(`def _shed():\n    import pathlib\n${scan("pathlib.Path(__file__).resolve().parent.parent.joinpath('NOTES.md').read_text()")}`), 'NOTES.md': `${sample['NOTES.md'] ?? ''}\nThe status shed: ${statuses.exec(sample['src/client.py']!)![1]}.\n` }));
  if (process.env.HARNESS_ATTACKS_RECORD) {
    for (const [name, o] of judgedOutcomes) console.log(`${name.padEnd(16)} ${o.verdict.padEnd(12)} ${o.codes.join(' ') || '-'}  ${o.description}`, o.findings.map((f) => `${f.code} ${f.message}`).join(' | '));
  }
}, 240_000);

afterAll(async () => {
  if (variantFolder) await rm(variantFolder, { recursive: true, force: true });
  await env?.dispose();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('harness attacks, round 3 (the shipped take-home)', () => {
  it('code that reads the test modules to learn what they expect is refused, by open() and by import; its own file it may read', () => {
    for (const name of ['reads-tests', 'imports-tests']) {
      const o = judgedOutcomes.get(name)!;
      expect(o.verdict, `${name}: ${o.codes.join(' ')} ${o.description}`).not.toBe('PASS');
      expect(o.codes, name).toContain('PK435');
      expect(o.findings.find((f) => f.code === 'PK435')!.message, name).toMatch(/tests\/test_/);
    }
    const own = judgedOutcomes.get('reads-own')!;
    expect(own.verdict, `${own.codes.join(' ')} ${own.description}`).toBe('PASS');
  });
  it('retry-everything, dodged, without a forger, does not pass', () => {
    expect(judgedOutcomes.get('bare')!.verdict).not.toBe('PASS');
  });
  it('the metaclass __hash__ run inside the audit hook does not pass', () => {
    const o = judgedOutcomes.get('hash-bypass')!;
    expect(o.verdict, `${o.codes.join(' ')} ${o.description}`).not.toBe('PASS');
    expect(o.verdict).not.toBe('REJECTED');
  });
});
