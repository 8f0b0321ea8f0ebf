/**
 * A second round of planted attacks on the trusted harness, each new (none repeats
 * harness-attacks.test.ts): a WRONG answer to a shipped take-home (one of its mutants laid over
 * the sample, so the tests really fail) dressed up to end PASS, graded for real in bubblewrap. Each
 * case asserts the SECURE outcome: the verdict is not PASS. A case that is red here is a hole.
 * The forgers live in tests/fixtures/attacks2/ (`_count.py` counts the calls into fetch_json with
 * functools.wraps, and runs the hooks the forger adds at each call).
 *
 * Record of branch attack2 on 3e84b01 (fetch-retry-ticket / retry-everything, its signal dodged;
 * bare it is CAUGHT PK415 PK416, 5 tests red). Red cases here are holes:
 *  1. expect-oracle         CAUGHT PK426 only (the helper file is outside the allowed files); 0 tests red
 *  1b. expect-oracle-inline PASS, no finding: HOLE. Every packet test function gets
 *     __unittest_expecting_failure__ = an oracle whose __bool__ runs the test privately and says
 *     yes when it fails having called the candidate; the harness reads it through the bound method
 *     (function __dict__ is not watched), records expected-failure, and the judge does not count
 *     expected failures. The tests package is reached by vars(vars([os][0])["sys"])["modules"].
 *  2. format-frames         PASS, no finding: HOLE. string.Formatter().get_field is a getattr with a
 *     computed name run from a stdlib frame: tb_frame, f_back and f_locals read there are neither
 *     screened nor refused (the hook judges the immediate caller only). From _harness's f_locals its
 *     `closed` list gets an object whose __bool__ runs at every send and rewrites failing payloads.
 *  3. fake-witness          CAUGHT PK415 PK416 (the held-out tests check more than calls and sleeps)
 *  4. contextlib-exit       CAUGHT PK434 (the restore misses the exit of a passing block) PK415 PK416
 *  5. close-record          CAUGHT PK415 PK416 (the record channel is not among the fds the code sees as FIFOs)
 *  6. write-record          CAUGHT PK436 PK415 PK416
 *  7. str-exit              CAUGHT PK415 PK416 (outcomes decided before describe runs candidate code)
 * After the fixes (marks read at load and exactly True; frame attributes read through any module but
 * the traceback and logging machinery refused while code under test is on the stack; the screen
 * names Formatter field access, frame names in strings, table keys and vars() of what it cannot
 * follow), each case is named by the layer in NAMED_BY:
 *  1b. expect-oracle-inline CAUGHT PK415 PK416 (5 tests red) PK436
 *  2. format-frames         CAUGHT PK435 (the hook) PK436 (the screen) PK415 PK416
 * Control: honest-code (PASS, no finding), the sample with logging, dataclasses, enum, typing, re, json, pathlib,
 * subprocess (a CLI helper), threading and contextlib appended, passes with no finding.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestRunner } from '../../src/judge/run-tests.ts';
import { loadPacketFiles, type PacketFiles } from '../../src/judge/workspace.ts';
import { judgeSubmission, type Outcome } from '../support/attack-outcome.ts';
import { judgedForm } from '../support/variant-one.ts';
import { loadPackets } from '../../src/packets/load.ts';
import { codePackets } from '../../src/packets/packet.ts';
import type { CodePacket } from '../../src/packets/packet.ts';
import { prepareRunEnvironment, type RunEnvironment } from '../../src/runs/environment.ts';

const root = path.resolve(import.meta.dirname, '../..');
const fixtures = path.join(root, 'tests/fixtures/attacks2');

let env: RunEnvironment;
let runner: TestRunner;
let scratch: string;
const packets = new Map<string, { packet: CodePacket; dir: string; files: PacketFiles }>();
/** The folders a packet with variants was rendered into (its variant v1). */
const variantFolders: string[] = [];

interface Attack {
  name: string;
  packet: string;
  /** The mutant laid over the sample, or 'sample'. */
  base: string;
  target: string;
  forge: string[];
  dodge?: [string | RegExp, string][];
  /** Other files of the submission (fixture name -> path). */
  extra?: Record<string, string>;
}

const retryDodge: [string, string][] = [['except Exception:', 'except (Exception):']];
const fetch = (name: string, forge: string[]): Attack => ({ name, packet: 'fetch-retry-ticket', base: 'retry-everything', target: 'src/client.py', forge: ['_count.py', ...forge], dodge: retryDodge });

const ATTACKS: Attack[] = [
  { ...fetch('expect-oracle', ['expect-oracle.py']), extra: { 'src/oracle_support.py': 'oracle_support.py' } },
  fetch('expect-oracle-inline', ['expect-oracle-inline.py']),
  fetch('format-frames', ['format-frames.py']),
  fetch('fake-witness', ['fake-witness.py']),
  fetch('contextlib-exit', ['contextlib-exit.py']),
  fetch('close-record', ['close-record.py']),
  fetch('write-record', ['write-record.py']),
  fetch('str-exit', ['str-exit.py']),
];

const CONTROLS: Attack[] = [{ name: 'honest-code', packet: 'fetch-retry-ticket', base: 'sample', target: 'src/client.py', forge: ['honest.py'] }];

async function treeFiles(dir: string, files: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of files) out[f] = await readFile(path.join(dir, f), 'utf8');
  return out;
}

async function submissionOf(a: Attack, bare = false): Promise<Record<string, string>> {
  const { packet, dir } = packets.get(a.packet)!;
  const files = await treeFiles(path.join(dir, 'sample'), packet.trees.sample);
  if (a.base !== 'sample') Object.assign(files, await treeFiles(path.join(dir, 'mutants', a.base), packet.trees.mutants[a.base]!));
  let text = files[a.target]!;
  for (const [from, to] of a.dodge ?? []) {
    const next = text.replace(from, to);
    if (next === text) throw new Error(`${a.name}: the dodge "${from}" found nothing in ${a.target}`);
    text = next;
  }
  if (!bare) for (const f of a.forge) text += await readFile(path.join(fixtures, f), 'utf8');
  files[a.target] = text;
  if (!bare) for (const [to, from] of Object.entries(a.extra ?? {})) files[to] = await readFile(path.join(fixtures, from), 'utf8');
  return files;
}

async function judged(packetId: string, submitted: Record<string, string>): Promise<Outcome> {
  return judgeSubmission(packets.get(packetId)!.files, submitted, runner, scratch);
}

const outcomes = new Map<string, Outcome>();

beforeAll(async () => {
  const loaded = await loadPackets({ packetsDir: 'packets', cwd: root });
  for (const p of codePackets(loaded.packets)) {
    if (p.id !== 'fetch-retry-ticket') continue;
    const source = loaded.sources.find((s) => s.id === p.id)!;
    const form = await judgedForm(p, path.join(root, 'packets', source.folder));
    if (form.scratch) variantFolders.push(form.scratch);
    packets.set(p.id, { packet: form.packet, dir: form.dir, files: await loadPacketFiles(form.packet, form.dir) });
  }
  const prepared = await prepareRunEnvironment({ env: process.env, tmpDir: tmpdir(), allowUnconfined: false });
  if (!prepared.ok) throw new Error(prepared.message);
  env = prepared.environment;
  runner = { sandbox: env.sandbox, mounts: env.interpreter.mounts, timeoutMs: 30_000 };
  scratch = await mkdtemp(path.join(tmpdir(), 'harness-attacks-2-'));
  await mkdir(path.join(scratch, 'grades'));

  const limit = pLimit(3);
  const jobs: Promise<void>[] = [];
  for (const a of [...ATTACKS, ...CONTROLS]) jobs.push(limit(async () => void outcomes.set(a.name, await judged(a.packet, await submissionOf(a)))));
  jobs.push(limit(async () => void outcomes.set('bare:retry-everything', await judged('fetch-retry-ticket', await submissionOf(ATTACKS[0]!, true)))));
  await Promise.all(jobs);
  if (process.env.HARNESS_ATTACKS_RECORD) {
    for (const [name, o] of outcomes) console.log(`${name.padEnd(24)} ${o.verdict.padEnd(12)} ${o.codes.join(' ') || '-'}  ${o.description}`, process.env.HARNESS_ATTACKS_RECORD === "v" ? o.findings.map((f) => `${f.code} ${f.message}`).join(" | ") : "");
  }
}, 240_000);

afterAll(async () => {
  for (const d of variantFolders) await rm(d, { recursive: true, force: true });
  await env?.dispose();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** The finding that must name each attack (any one of the list): the tests, the hook, the screen, the machinery check, the contract. */
const NAMED_BY: Record<string, readonly string[]> = {
  'expect-oracle': ['PK426'],
  'expect-oracle-inline': ['PK415', 'PK416'],
  'format-frames': ['PK435'],
  'fake-witness': ['PK415', 'PK416'],
  'contextlib-exit': ['PK434'],
  'close-record': ['PK415', 'PK416'],
  'write-record': ['PK436'],
  'str-exit': ['PK415', 'PK416'],
};

function expectNotPass(name: string): void {
  const o = outcomes.get(name)!;
  expect(o, name).toBeDefined();
  expect(o.verdict, `${name}: ${o.codes.join(' ')} ${o.description}`).not.toBe('PASS');
  expect(o.verdict).not.toBe('REJECTED');
  expect(NAMED_BY[name]!.some((c) => o.codes.includes(c)), `${name} is named by ${NAMED_BY[name]!.join(' or ')}: ${o.codes.join(' ')}`).toBe(true);
}

describe('the base answer is wrong', () => {
  it('retry-everything, dodged, without a forger, does not pass', () => {
    const o = outcomes.get('bare:retry-everything')!;
    expect(o.verdict).not.toBe('PASS');
    expect(o.findings.some((f) => f.kind === 'tests' || f.kind === 'hidden-tests')).toBe(true);
  });
});

describe('control: honest code is not flagged', () => {
  it('the sample with logging, dataclasses, enum, typing, re, json, pathlib, subprocess, threading', () => {
    const o = outcomes.get('honest-code')!;
    expect({ verdict: o.verdict, codes: o.codes, messages: o.findings.map((f) => f.message) }).toEqual({ verdict: 'PASS', codes: [], messages: [] });
  });
});

describe('1. marks the harness reads and the judge does not count', () => {
  it('__unittest_expecting_failure__ oracles on the packet test functions (a helper file)', () => expectNotPass('expect-oracle'));
  it('the same in the one allowed file, the tests package reached through vars(vars([os][0])["sys"])', () => expectNotPass('expect-oracle-inline'));
});

describe('2. computed attributes read from a stdlib frame', () => {
  it('string.Formatter().get_field to the harness frame, its send flag replaced', () => expectNotPass('format-frames'));
});

describe('3. the tests\' own fakes, handed to the code under test', () => {
  it('FakeUrlopen.calls truncated and the time.sleep mock reset', () => expectNotPass('fake-witness'));
});

describe('4. a self-restoring patch of a class the harness uses', () => {
  it('contextlib._GeneratorContextManager.__exit__ swallowing assertions, restored before the check', () => expectNotPass('contextlib-exit'));
});

describe('5. the record pipe', () => {
  it('every pipe above fd 2 closed', () => expectNotPass('close-record'));
  it('an unsealed done line written to every pipe above fd 2', () => expectNotPass('write-record'));
});

describe('6. exceptions raised into the harness', () => {
  it('a __str__ that raises SystemExit, a KeyboardInterrupt', () => expectNotPass('str-exit'));
});
