import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import type { GradeSummary } from '../../src/grade/grade.ts';
import { folderReader } from '../../src/grade/grade-variants.ts';
import type { Scorecard } from '../../src/judge/scorecard.ts';
import { loadPackets } from '../../src/packets/load.ts';
import { hasCode } from '../../src/packets/packet.ts';
import { packetVariants, type PacketVariant } from '../../src/packets/variants-render.ts';
import type { VariantsKey } from '../../src/packets/variants-key.ts';
import { submission, unzip, writeZip } from '../support/variant-submissions.ts';

/**
 * `packet grade` on the planted variant packet, built as three variant zips (packet build
 * --variants 3): each submission is a variant's zip with a variant's sample laid in, as a
 * candidate hands it back. Its own answer passes; v1's answer sent in v2's zip is flagged as
 * another variant's and is not a hire; a README that names no variant, an unknown one, or a
 * digest that is not its variant's is not graded at all. The copy's hire bar is 5, so without
 * the finding's veto the copied answer's card would read pending (tests 0, 5 points still open).
 */
const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/variants/packets/variant-planted');
const ID = 'variant-planted';
let root: string;
let key: VariantsKey;
let exitCode: number;
let stdout: string;
let durationMs: number;

const card = async (name: string) => JSON.parse(await readFile(path.join(root, 'out/grades', ID, name, 'scorecard.json'), 'utf8')) as Scorecard;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'grade-variants-'));
  await cp(FIXTURE, path.join(root, 'packets', ID), { recursive: true });
  const rubric = path.join(root, 'packets', ID, 'rubric.mdx');
  await writeFile(rubric, (await readFile(rubric, 'utf8')).replace('hireBar: 6', 'hireBar: 5'));
  const build = memoryIo(root, { env: process.env });
  expect(await runCli(['build', '--packets', 'packets', '--variants', '3', '--skip-rehearse', '--out-dir', 'dist', '--reviewer-dir', 'rev'], build), build.stderr).toBe(0);
  const variantsDir = path.join(root, 'rev/variants', `${ID}-0.1.0`);
  key = JSON.parse(await readFile(path.join(variantsDir, 'VARIANTS.json'), 'utf8')) as VariantsKey;
  const loaded = await loadPackets({ packetsDir: path.join(root, 'packets'), cwd: root });
  const packet = loaded.packets.find((p) => p.id === ID)!;
  if (!hasCode(packet)) throw new Error('the fixture is a take-home');
  const variants = (await packetVariants(packet, folderReader(path.join(root, 'packets', ID)), 3)).map((r) => r.variant!);
  const [v1, v2] = variants as [PacketVariant, PacketVariant];
  expect(v1.values.func).not.toBe(v2.values.func);
  const zips = await Promise.all([1, 2].map((k) => unzip(path.join(variantsDir, `${ID}-0.1.0-v${k}.zip`))));
  const [zip1, zip2] = zips as [Map<string, Buffer>, Map<string, Buffer>];
  const subs = path.join(root, 'submissions');
  await mkdir(subs);
  await writeZip(submission(zip2, v2), path.join(subs, 'own.zip'));
  // v2's zip as it was sent: red on its own variant, and on every other.
  await writeZip(zip2, path.join(subs, 'starter.zip'));
  await writeZip(submission(zip2, v1), path.join(subs, 'copied.zip'));
  // A general answer: v1's sample that answers to every variant's name.
  const general = submission(zip1, v1);
  const src = [...general.keys()].find((p) => p.endsWith('src/duration.py'))!;
  general.set(src, Buffer.concat([general.get(src)!, Buffer.from('\n\nparse_duration = to_seconds = duration_seconds\n')]));
  await writeZip(general, path.join(subs, 'general.zip'));
  await writeZip(submission(zip2, v2, (t) => t.replace(/^- Variant: .*\n/m, '')), path.join(subs, 'unstated.zip'));
  await writeZip(submission(zip2, v2, (t) => t.replace('Variant: `v2`', 'Variant: `v7`')), path.join(subs, 'unknown.zip'));
  await writeZip(submission(zip2, v2, (t) => t.replace(v2.digest, 'f'.repeat(64))), path.join(subs, 'foreign-digest.zip'));
  await writeZip(submission(zip2, v2, (t) => t.replace(v2.digest, v1.digest)), path.join(subs, 'other-digest.zip'));
  const io = memoryIo(root, { env: process.env });
  const t0 = performance.now();
  exitCode = await runCli(['grade', ID, ...['own', 'copied', 'starter', 'general', 'unstated', 'unknown', 'foreign-digest', 'other-digest'].map((n) => `submissions/${n}.zip`), '--jobs', '2'], io);
  durationMs = performance.now() - t0;
  stdout = io.stdout;
}, 180_000);

afterAll(() => rm(root, { recursive: true, force: true }));

describe('packet grade on a packet with variants', () => {
  it('grades the batch and exits 1: the submissions without a readable variant are not graded', () => {
    expect(stdout).toMatch(/grading 8 submissions/);
    expect(exitCode).toBe(1);
    console.log(`graded 8 variant submissions in ${(durationMs / 1000).toFixed(1)} s`);
  });

  it("passes v2's own answer graded as v2, with no leak finding, its variant and values on the card", async () => {
    const c = await card('own');
    const v2 = key.variants[1]!;
    expect(c).toMatchObject({ graded: true, verdict: 'PASS', packet: { id: ID, digest: key.digest } });
    expect(c.variant).toEqual({ id: 'v2', number: 2, values: v2.values, digest: v2.digest, leakCheck: { ran: false, reason: 'its own variant is green', tried: [], passed: null } });
    expect(c.findings.map((f) => f.code)).not.toContain('PK584');
    // The digest named is the variant's: no version finding.
    expect(c.findings.filter((f) => f.kind === 'version')).toEqual([]);
    expect(c.decision.state).toBe('pending');
    const md = await readFile(path.join(root, 'out/grades', ID, 'own', 'scorecard.md'), 'utf8');
    expect(md).toContain(`- Variant: \`v2\` (digest \`${v2.digest}\`): func = ${String(v2.values.func).replace(/_/g, '\\_')}`);
    expect(md).not.toContain('the submission names');
  });

  it("flags v1's answer sent in v2's zip: it passes v1's tests, not its own variant v2, and is no hire", async () => {
    const c = await card('copied');
    expect(c.graded).toBe(true);
    const i = c.findings.findIndex((f) => f.code === 'PK584');
    expect(i).toBeGreaterThanOrEqual(0);
    const f = c.findings[i]!;
    expect(f).toMatchObject({ name: 'AnswersOtherVariant', severity: 'error', kind: 'hidden-tests' });
    expect(f.message).toMatch(/passes variant v1's tests, not its own variant v2/);
    expect(c.variant).toMatchObject({ id: 'v2', leakCheck: { ran: true, passed: 'v1' } });
    expect(c.variant!.leakCheck.tried[0]).toBe('v1');
    // It bears on the tests row; the decision is no-hire although 5 points of the reviewer's rows would reach the bar.
    expect(c.rows.find((r) => r.id === 'correctness')!.findings).toContain(i);
    expect(c.decision.state).toBe('no-hire');
    expect(c.decision.reason).toMatch(/PK584.*variant v1.*own variant v2/);
    expect(stdout).toMatch(/copied: .*PK584/);
  });

  it('judges a red submission against the other variants and flags nothing when it passes none of them', async () => {
    const c = await card('starter');
    expect(c).toMatchObject({ graded: true, variant: { id: 'v2', leakCheck: { ran: true, reason: 'its own variant is red', tried: ['v1', 'v3'], passed: null } } });
    expect(c.findings.map((f) => f.code)).not.toContain('PK584');
    // The rubric's own decision (this copy's hire bar leaves it open): only PK584 forces a no-hire.
    expect(c.decision.state).toBe('pending');
    expect(c.decision.reason).not.toMatch(/PK584/);
  });

  it('does not flag a general answer that passes its own variant (and so every one)', async () => {
    const c = await card('general');
    expect(c).toMatchObject({ graded: true, verdict: 'PASS', variant: { id: 'v1', leakCheck: { ran: false } } });
    expect(c.findings.map((f) => f.code)).not.toContain('PK584');
  });

  it('refuses a README that names no variant, an unknown one, or a digest that is not its variant', async () => {
    const expectations: [string, string, RegExp][] = [
      ['unstated', 'PK580', /no `Variant:` line \(its `Digest:` is variant v2's\)/],
      ['unknown', 'PK581', /names variant "v7", which is not one of the variants .* sent out \(v1\.\.v3\)/],
      ['foreign-digest', 'PK583', /is the digest of no variant \(v1\.\.v3\)/],
      ['other-digest', 'PK582', /names variant v2, but its `Digest:` .* is variant v1's/],
    ];
    for (const [name, code, message] of expectations) {
      const c = await card(name);
      expect(c, name).toMatchObject({ graded: false, verdict: 'REFUSED', sandbox: null, tests: null, decision: { state: 'not-graded' } });
      expect(c.variant, name).toBeUndefined();
      expect(c.findings.map((f) => f.code), name).toEqual([code]);
      expect(c.findings[0]!.message, name).toMatch(message);
      expect(c.findings[0]!.hint, name).toMatch(/VARIANTS\.json/);
    }
  });

  it('names each variant in the summary, and adds the variant column to the CSV', async () => {
    const summary = JSON.parse(await readFile(path.join(root, 'out/grades', ID, 'summary.json'), 'utf8')) as GradeSummary;
    expect(summary.packet).toMatchObject({ id: ID, digest: key.digest, variants: 3 });
    expect(Object.fromEntries(summary.rows.map((r) => [r.name, r.variant]))).toEqual({ own: 'v2', copied: 'v2', general: 'v1', starter: 'v2', unstated: null, unknown: null, 'foreign-digest': null, 'other-digest': null });
    const csv = (await readFile(path.join(root, 'out/grades', ID, 'summary.csv'), 'utf8')).split('\n');
    expect(csv[0]).toMatch(/,scorecard,variant$/);
    expect(csv.find((l) => l.startsWith('copied,'))).toMatch(/,v2$/);
    expect((await readdir(path.join(root, 'out/grades', ID))).sort()).toContain('summary.json');
  });
});
