import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import type { GradeSummary } from '../../src/grade/grade.ts';
import { folderReader } from '../../src/grade/grade-variants.ts';
import type { Scorecard } from '../../src/judge/scorecard.ts';
import { loadPackets } from '../../src/packets/load.ts';
import type { Lab } from '../../src/packets/packet.ts';
import { packetVariants, type PacketVariant } from '../../src/packets/variants-render.ts';
import { hardCodedCut, variantSheet } from '../support/lab-variant-sheets.ts';

/**
 * `packet grade` on the answer sheets of a lab with variants (tests/fixtures/variants/packets/
 * variant-lab-sheets: the slug's length limit is the parameter, in the starter's MAX_LENGTH, the
 * length cut's suggestion, a visible test and the hidden tests). One batch of sheets of different
 * variants, in the sandbox: each sheet's digest decides its variant and its `variant` must agree;
 * each is graded against its own variant's key, starter and hidden tests; a hand edit that
 * hard-codes another variant's limit is red on its own variant, green on that one, and flagged.
 */
const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/variants/packets/variant-lab-sheets');
const ID = 'variant-lab-sheets';
let root: string;
let lab: Lab;
let v: PacketVariant[];
let exitCode: number;
let stdout: string;
let summary: GradeSummary;
let narrow: { code: number; stated: Scorecard; byDigest: Scorecard };

const card = async (name: string, dir = 'out/grades') => JSON.parse(await readFile(path.join(root, dir, ID, name, 'scorecard.json'), 'utf8')) as Scorecard;
const sheet = variantSheet;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'grade-lab-variants-'));
  const dir = path.join(root, 'packets', ID);
  await cp(FIXTURE, dir, { recursive: true });
  const loaded = await loadPackets({ packetsDir: path.join(root, 'packets'), cwd: root });
  lab = loaded.packets.find((p) => p.id === ID) as Lab;
  v = (await packetVariants(lab, folderReader(dir))).map((r) => r.variant!);
  expect(v).toHaveLength(3);
  expect(new Set(v.map((x) => x.values.limit)).size).toBe(3);
  const [v1, v2, v3] = v as [PacketVariant, PacketVariant, PacketVariant];
  const subs = path.join(root, 'sheets');
  await mkdir(subs);
  const write = (name: string, value: unknown) => writeFile(path.join(subs, `${name}.json`), JSON.stringify(value, null, 2));
  await write('v2-key', sheet(v2));
  // The same choices, v1's digest and no `variant`: the digest decides, graded as v1.
  const { variant: _v, ...asV1 } = sheet(v1);
  await write('v1-by-digest', asV1);
  await write('v3-key', sheet(v3));
  await write('says-v2-digest-v3', sheet(v2, { digest: v3.digest }));
  await write('digest-of-none', sheet(v2, { digest: 'f'.repeat(64) }));
  await write('no-variant-digest-of-none', { ...asV1, digest: 'e'.repeat(64) });
  await write('unknown-variant', sheet(v2, { variant: 'v7' }));
  await write('variant-not-text', sheet(v2, { variant: 2 }));
  // v1's revised length cut with v1's limit typed in, sent as v2: right for v1, wrong for v2.
  const copied = hardCodedCut(v1);
  expect(copied).toContain(String(v1.values.limit));
  await write('copied-from-v1', sheet(v2, {}, { 'length-cut': copied }));
  // The same hand edit on its own variant: green, no leak check.
  await write('v1-hand', sheet(v1, {}, { 'length-cut': copied }));
  const names = ['v2-key', 'v1-by-digest', 'v3-key', 'says-v2-digest-v3', 'digest-of-none', 'no-variant-digest-of-none', 'unknown-variant', 'variant-not-text', 'copied-from-v1', 'v1-hand'];
  const io = memoryIo(root, { env: process.env });
  exitCode = await runCli(['grade', ID, ...names.map((n) => `sheets/${n}.json`), '--jobs', '3'], io);
  stdout = io.stdout;
  summary = JSON.parse(await readFile(path.join(root, 'out/grades', ID, 'summary.json'), 'utf8')) as GradeSummary;
  // Two variants sent out: v3's sheet is of none of them, whether it names v3 or only has its digest.
  const { variant: _v3, ...v3ByDigest } = sheet(v3);
  await write('v3-by-digest', v3ByDigest);
  const nio = memoryIo(root, { env: process.env });
  const code = await runCli(['grade', ID, 'sheets/v3-key.json', 'sheets/v3-by-digest.json', '--variants', '2', '--out', 'out/narrow'], nio);
  narrow = { code, stated: await card('v3-key', 'out/narrow'), byDigest: await card('v3-by-digest', 'out/narrow') };
}, 180_000);

afterAll(() => rm(root, { recursive: true, force: true }));

describe('packet grade on the sheets of a lab with variants', () => {
  it('grades the batch and exits 1: the sheets without a readable variant are not graded', () => {
    expect(stdout).toMatch(/grading 10 submissions/);
    expect(exitCode).toBe(1);
  });

  it('passes a sheet of v2 that matches v2’s key, with v2 on the card', async () => {
    const c = await card('v2-key');
    expect(c).toMatchObject({ graded: true, verdict: 'PASS', sandbox: expect.stringMatching(/bubblewrap|unconfined/) });
    expect(c.variant).toMatchObject({ id: 'v2', number: 2, values: { limit: v[1]!.values.limit }, digest: v[1]!.digest, leakCheck: { ran: false, passed: null } });
    expect(c.packet.digest).toBe(lab.digest);
    expect(c.findings.filter((f) => f.severity === 'error')).toEqual([]);
    // Graded against v2's own tests: its hidden tests are there, with v2's limit.
    expect(c.tests).toMatchObject({ expected: { visible: 4, hidden: 3 } });
    expect(c.answers!.tests.every((t) => t.outcome === 'pass')).toBe(true);
    expect(c.answers!.items.find((i) => i.id === 'length-cut')).toMatchObject({ answer: 'revise', key: 'revise', matches: true });
  });

  it('grades the same choices with v1’s digest (no `variant` field) as v1, and v3’s as v3', async () => {
    const c1 = await card('v1-by-digest');
    expect(c1).toMatchObject({ graded: true, verdict: 'PASS', variant: { id: 'v1', digest: v[0]!.digest } });
    const c3 = await card('v3-key');
    expect(c3).toMatchObject({ graded: true, verdict: 'PASS', variant: { id: 'v3', digest: v[2]!.digest } });
  });

  it('refuses a sheet whose `variant` says v2 and whose digest is v3’s (PK582)', async () => {
    const c = await card('says-v2-digest-v3');
    expect(c).toMatchObject({ graded: false, verdict: 'REFUSED' });
    expect(c.variant).toBeUndefined();
    expect(c.findings.map((f) => f.code)).toEqual(['PK582']);
    expect(c.findings[0]!.message).toContain('names variant v2 (its "variant"), but its "digest"');
    expect(c.findings[0]!.message).toContain("is variant v3's");
    expect(c.findings[0]!.message).toContain('says-v2-digest-v3.json');
  });

  it('refuses a digest of no variant (PK583), with or without a `variant`', async () => {
    for (const name of ['digest-of-none', 'no-variant-digest-of-none']) {
      const c = await card(name);
      expect(c, name).toMatchObject({ graded: false, verdict: 'REFUSED' });
      expect(c.findings.map((f) => f.code), name).toEqual(['PK583']);
      expect(c.findings[0]!.message, name).toContain('is the digest of no variant (v1..v3)');
    }
  });

  it('refuses a `variant` the lab did not send out (PK581), and one that is not text (PK563)', async () => {
    const unknown = await card('unknown-variant');
    expect(unknown.findings.map((f) => f.code)).toEqual(['PK581']);
    expect(unknown.findings[0]!.message).toContain('"v7"');
    const bad = await card('variant-not-text');
    expect(bad.findings.map((f) => f.code)).toEqual(['PK563']);
    expect(bad.findings[0]!.message).toContain('The field "variant"');
  });

  it('fails a v2 sheet whose hand edit hard-codes v1’s limit, and flags it as v1’s answer (PK584): never a hire', async () => {
    const c = await card('copied-from-v1');
    expect(c).toMatchObject({ graded: true, variant: { id: 'v2', leakCheck: { ran: true, passed: 'v1' } } });
    expect(['FAIL', 'CAUGHT']).toContain(c.verdict);
    expect(c.variant!.leakCheck.tried[0]).toBe('v1');
    const leak = c.findings.find((f) => f.code === 'PK584')!;
    expect(leak.message).toContain("passes variant v1's tests, not its own variant v2");
    expect(c.decision.state).toBe('no-hire');
    expect(c.decision.reason).toContain('PK584');
    expect(c.answers!.tests.some((t) => t.hidden && t.outcome === 'fail')).toBe(true);
    const md = await readFile(path.join(root, 'out/grades', ID, 'copied-from-v1', 'scorecard.md'), 'utf8');
    expect(md).toContain('- Variant: `v2`');
    expect(md).toContain('PK584');
  });

  it('passes the same hand edit on its own variant, without a leak check', async () => {
    const c = await card('v1-hand');
    expect(c).toMatchObject({ graded: true, verdict: 'PASS', variant: { id: 'v1', leakCheck: { ran: false } } });
    expect(c.findings.some((f) => f.code === 'PK584')).toBe(false);
  });

  it('lists every sheet with its variant in the summary', async () => {
    expect(summary.packet.variants).toBe(3);
    expect(Object.fromEntries(summary.rows.map((r) => [r.name, r.variant]))).toEqual({
      'v2-key': 'v2',
      'v1-by-digest': 'v1',
      'v3-key': 'v3',
      'says-v2-digest-v3': null,
      'digest-of-none': null,
      'no-variant-digest-of-none': null,
      'unknown-variant': null,
      'variant-not-text': null,
      'copied-from-v1': 'v2',
      'v1-hand': 'v1',
    });
    const csv = await readFile(path.join(root, 'out/grades', ID, 'summary.csv'), 'utf8');
    expect(csv.split('\n')[0]).toMatch(/,variant$/);
    expect(csv).toMatch(/^copied-from-v1,.*,v2$/m);
  });

  it('honours --variants N: with two sent out, v3’s sheet is of none of them', () => {
    expect(narrow.code).toBe(1);
    expect(narrow.stated.findings.map((f) => f.code)).toEqual(['PK581']);
    expect(narrow.stated.findings[0]!.message).toContain('(v1..v2)');
    expect(narrow.byDigest.findings.map((f) => f.code)).toEqual(['PK583']);
    expect(narrow.byDigest.findings[0]!.message).toContain('(v1..v2)');
  });
});
