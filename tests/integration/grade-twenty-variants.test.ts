import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
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
import type { VariantsKey } from '../../src/packets/variants-key.ts';
import { packetVariants, type PacketVariant } from '../../src/packets/variants-render.ts';
import type { RehearsalReport } from '../../src/rehearse/report.ts';
import { submission, unzip, writeZip } from '../support/variant-submissions.ts';

/**
 * Issue 25's "done when": a hiring lead ships one packet to twenty candidates, twenty variants.
 *
 * - variant-twenty (tests/fixtures/variants/packets): a duration parser whose function name
 *   (`func`, 3 names) and longest allowed duration (`limit`, 10..99 hours) are parameters that
 *   the hidden tests both read, 20 variants (`variants.count`).
 * - Every variant proven to fail closed by the real rehearsal (`packet rehearse`, in parallel,
 *   cached by each variant's digest: a second run runs nothing).
 * - `packet build` writes the twenty zips and VARIANTS.json; each candidate hands back their own
 *   variant's zip with its sample laid in, and the lead keeps roster.csv of who got what.
 * - One more candidate, sent a variant that shares v1's function name (so only `limit` tells the
 *   two apart), hands in v1's submission whole, README included: graded with the roster, it is
 *   PK585 (sent one variant, names another) and PK584 (passes v1's tests, not its own), a no-hire.
 *   Without the roster the grader believes the README: it passes as v1, nothing flagged.
 */
const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/variants/packets/variant-twenty');
const DRILL = path.resolve(import.meta.dirname, '../../packets/drill-retry-backoff');
const ID = 'variant-twenty';
const N = 20;

function env(): Record<string, string | undefined> {
  const { LLM_ENDPOINT: _a, OPENAI_BASE_URL: _b, LLM_MODEL: _c, ...rest } = process.env;
  return rest;
}

let root: string;
let variants: PacketVariant[];
let key: VariantsKey;
/** The variant sent to the copier: the first after v1 with v1's function name. */
let copierSent: PacketVariant;
const reports: RehearsalReport[] = [];
const times: Record<string, number> = {};
const grades: Record<string, { code: number; stdout: string; stderr: string }> = {};

const cand = (k: number) => `cand-${String(k).padStart(2, '0')}`;
const card = async (out: string, name: string) => JSON.parse(await readFile(path.join(root, out, ID, name, 'scorecard.json'), 'utf8')) as Scorecard;

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = memoryIo(root, { env: env() });
  const code = await runCli(args, io);
  return { code, stdout: io.stdout, stderr: io.stderr };
}

async function timed<T>(label: string, f: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await f();
  } finally {
    times[label] = performance.now() - t0;
  }
}

beforeAll(async () => {
  const t0 = performance.now();
  root = await mkdtemp(path.join(tmpdir(), 'grade-twenty-'));
  await cp(FIXTURE, path.join(root, 'packets', ID), { recursive: true });
  await cp(DRILL, path.join(root, 'packets', 'drill-retry-backoff'), { recursive: true });

  // Every variant proven, then again from the cache.
  for (const n of [1, 2]) {
    const r = await timed(`rehearse ${n}`, () => cli(['rehearse', ID, '--report', `out/r${n}.json`]));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    reports.push(JSON.parse(await readFile(path.join(root, `out/r${n}.json`), 'utf8')) as RehearsalReport);
  }

  // The twenty zips and the reviewer key (the build's own rehearsal comes from the cache).
  const build = await timed('build', () => cli(['build', ID, '--packets', 'packets', '--out-dir', 'dist', '--reviewer-dir', 'rev']));
  expect(build.code, build.stderr).toBe(0);
  const variantsDir = path.join(root, 'rev/variants', `${ID}-0.1.0`);
  key = JSON.parse(await readFile(path.join(variantsDir, 'VARIANTS.json'), 'utf8')) as VariantsKey;

  const loaded = await loadPackets({ packetsDir: path.join(root, 'packets'), cwd: root, ids: [ID] });
  const packet = loaded.packets.find((p) => p.id === ID)!;
  if (!hasCode(packet)) throw new Error('the fixture is a take-home');
  variants = (await packetVariants(packet, folderReader(path.join(root, 'packets', ID)), N)).map((r) => r.variant!);
  copierSent = variants.find((v) => v.number > 1 && v.values.func === variants[0]!.values.func)!;

  // Each candidate's hand-in: their variant's zip with its sample laid in.
  const zips = await Promise.all(variants.map((v) => unzip(path.join(variantsDir, `${ID}-0.1.0-v${v.number}.zip`))));
  const subs = path.join(root, 'submissions');
  await mkdir(subs);
  for (const [i, v] of variants.entries()) await writeZip(submission(zips[i]!, v), path.join(subs, `${cand(v.number)}.zip`));
  // The copier: v1's hand-in whole, README and all.
  await writeZip(submission(zips[0]!, variants[0]!), path.join(subs, 'cand-21.zip'));
  // The same answer in the copier's own zip (README of the variant sent).
  await writeZip(submission(zips[copierSent.number - 1]!, variants[0]!), path.join(subs, 'cand-21-own-readme.zip'));
  // Sent v5, its README's Variant: line left as sent, its Digest: line v1's (and v1's answer).
  await writeZip(submission(zips[4]!, variants[0]!, (t) => t.replace(variants[4]!.digest, variants[0]!.digest)), path.join(subs, 'cand-22.zip'));
  // Someone who is not on the roster, with a perfectly good answer of v2.
  await writeZip(submission(zips[1]!, variants[1]!), path.join(subs, 'walk-in.zip'));
  const rows = [...variants.map((v) => `${cand(v.number)},${v.id}`), `cand-21,${copierSent.id}`, 'cand-22,v5', 'late,v9'];
  await writeFile(path.join(root, 'roster.csv'), `submission,variant\n${rows.join('\n')}\n`);

  const batch = [...variants.map((v) => `submissions/${cand(v.number)}.zip`), 'submissions/cand-21.zip', 'submissions/cand-22.zip', 'submissions/walk-in.zip'];
  grades.roster = await timed('grade with the roster', () => cli(['grade', ID, ...batch, '--roster', 'roster.csv', '--jobs', '2']));
  grades.plain = await timed('grade without', () => cli(['grade', ID, 'submissions/cand-21.zip', 'submissions/cand-21-own-readme.zip', '--out', 'out/plain', '--jobs', '2']));
  times.all = performance.now() - t0;
}, 180_000);

afterAll(() => rm(root, { recursive: true, force: true }));

describe('a packet shipped to twenty candidates, twenty variants', () => {
  it('proves every variant fails closed: floor red, sample green with its hidden tests, every mutant caught, each variant against the next', () => {
    const p = reports[0]!.packets.find((x) => x.id === ID)!;
    expect(p.status, p.defects.join('\n')).toBe('fails-closed');
    expect(p.variants!.map((v) => [v.id, v.digest, v.values])).toEqual(variants.map((v) => [v.id, v.digest, v.values]));
    expect(new Set(p.variants!.map((v) => v.digest)).size).toBe(N);
    // Twenty different variants: no two share both values the hidden tests read.
    expect(new Set(variants.map((v) => `${v.values.func}/${v.values.limit}`)).size).toBe(N);
    const check = (id: string) => p.checks.find((c) => c.id === id)!;
    for (const v of p.variants!) {
      expect(v.status, v.id).toBe('fails-closed');
      const floor = check(`${v.id}:floor`);
      const sample = check(`${v.id}:sample`);
      expect(floor, v.id).toMatchObject({ ok: true, kind: 'floor', variant: { id: v.id, values: v.values } });
      expect(floor.tests!.failed, v.id).toBeGreaterThan(0);
      expect(sample, v.id).toMatchObject({ ok: true, kind: 'sample', tests: { failed: 0, errors: 0 } });
      // The sample ran the hidden tests too.
      expect(sample.tests!.ran!, v.id).toBeGreaterThan(floor.tests!.ran!);
      for (const mode of ['drops-minutes', 'accepts-garbage']) {
        const m = check(`${v.id}:mutant:${mode}`);
        expect(m, `${v.id} ${mode}`).toMatchObject({ ok: true, kind: 'mutant' });
        expect(m.tests!.failed + m.tests!.errors, `${v.id} ${mode}`).toBeGreaterThan(0);
      }
    }
    expect(p.checks.filter((c) => c.kind === 'leak').map((c) => [c.id, c.ok])).toEqual([
      ['leak:v1>v2', true],
      ['leak:v2>v3', true],
      ['leak:v3>v4', true],
    ]);
  });

  it('runs nothing the second time: every variant from the cache', () => {
    const p = reports[1]!.packets.find((x) => x.id === ID)!;
    expect(p.status).toBe('fails-closed');
    expect(p.variants!.map((v) => v.cached)).toEqual(Array(N).fill(true));
    expect(p.variants!.map((v) => v.digest)).toEqual(reports[0]!.packets[0]!.variants!.map((v) => v.digest));
  });

  it('builds one zip per variant and a reviewer key that names each digest', () => {
    expect(key.variants.map((v) => [v.id, v.digest])).toEqual(variants.map((v) => [v.id, v.digest]));
  });

  it("passes every candidate's own answer, graded against the variant the roster says was sent", async () => {
    for (const v of variants) {
      const c = await card('out/grades', cand(v.number));
      expect(c, cand(v.number)).toMatchObject({ graded: true, verdict: 'PASS', variant: { id: v.id, number: v.number, values: v.values, digest: v.digest, leakCheck: { ran: false } } });
      expect(c.findings.filter((f) => f.severity === 'error'), cand(v.number)).toEqual([]);
      expect(c.decision.state, cand(v.number)).toBe('pending');
      // Its own variant's hidden tests ran.
      expect(c.tests!.ran, cand(v.number)).toBe(c.tests!.expected.visible + c.tests!.expected.hidden);
      expect(c.tests!.expected.hidden, cand(v.number)).toBeGreaterThan(0);
    }
  });

  it("grades the copier against the variant sent: PK585 (it names v1), PK584 (it passes v1's tests, not its own), a no-hire", async () => {
    const c = await card('out/grades', 'cand-21');
    expect(copierSent.values.func).toBe(variants[0]!.values.func);
    expect(c).toMatchObject({ graded: true, variant: { id: copierSent.id, leakCheck: { ran: true, passed: 'v1' } } });
    expect(c.verdict).not.toBe('PASS');
    const codes = c.findings.map((f) => f.code);
    expect(codes).toContain('PK585');
    expect(codes).toContain('PK584');
    const notSent = c.findings.find((f) => f.code === 'PK585')!;
    expect(notSent).toMatchObject({ name: 'VariantNotSent', severity: 'error' });
    expect(notSent.message).toContain(`This submission was sent variant ${copierSent.id}, and its README's Variant line names variant v1. So says the roster roster.csv (line 22).`);
    expect(c.findings.find((f) => f.code === 'PK584')!.message).toMatch(new RegExp(`passes variant v1's tests, not its own variant ${copierSent.id}`));
    expect(c.decision.state).toBe('no-hire');
    // Both vetoes said first, then the rubric's own no-hire (its tests are red on the variant sent).
    expect(c.decision.reason).toBe(`the grader vetoes a hire: PK585 (This submission was sent variant ${copierSent.id}, and its README's Variant line names variant v1), PK584 (This submission passes variant v1's tests, not its own variant ${copierSent.id})`);
    // Its own variant's tests: only the hidden ones that read the limit fail (the function's name is the same).
    expect(c.tests!.failingHidden.length).toBeGreaterThan(0);
    expect(c.tests!.failingVisible).toEqual([]);
    const md = await readFile(path.join(root, 'out/grades', ID, 'cand-21', 'scorecard.md'), 'utf8');
    expect(md).toContain('PK585');
    expect(grades.roster!.stdout).toMatch(/cand-21: .*PK585.*; auto \d+, no-hire/);
  });

  it("flags a README whose Digest: is another variant's, though its Variant: line is the one sent", async () => {
    const c = await card('out/grades', 'cand-22');
    expect(c).toMatchObject({ graded: true, variant: { id: 'v5', leakCheck: { passed: 'v1' } }, decision: { state: 'no-hire' } });
    expect(c.findings.find((f) => f.code === 'PK585')!.message).toContain("sent variant v5, and its README's Digest line is the digest of variant v1.");
    expect(c.decision.reason).toMatch(/^the grader vetoes a hire: PK585 \(This submission was sent variant v5, and its README's Digest line is the digest of variant v1\), PK584/);
  });

  it('refuses the submission the roster does not name, lists the row no submission matched, and exits 1', async () => {
    expect(grades.roster!.code).toBe(1);
    const c = await card('out/grades', 'walk-in');
    expect(c).toMatchObject({ graded: false, verdict: 'REFUSED', decision: { state: 'not-graded' } });
    expect(c.findings.map((f) => f.code)).toEqual(['PK586']);
    expect(c.findings[0]!.message).toMatch(/the roster names no submission "walk-in"/);
    const summary = JSON.parse(await readFile(path.join(root, 'out/grades', ID, 'summary.json'), 'utf8')) as GradeSummary;
    expect(summary.schemaVersion).toBe(1);
    expect(summary.roster).toEqual({ file: 'roster.csv', rows: 23, unmatched: [{ submission: 'late', variant: 'v9', line: 24 }] });
    expect(summary.packet.variants).toBe(N);
    expect(Object.fromEntries(summary.rows.map((r) => [r.name, r.variant]))).toEqual({ ...Object.fromEntries(variants.map((v) => [cand(v.number), v.id])), 'cand-21': copierSent.id, 'cand-22': 'v5', 'walk-in': null });
    // At the very end of the output: the row no submission matched.
    expect(grades.roster!.stdout.trimEnd().split('\n').slice(-2)).toEqual(['roster: 1 of 23 rows of roster.csv matched no submission of this batch (not handed in, or named otherwise):', '  late: sent v9 (line 24)']);
  });

  it('without the roster, believes the README: the copy passes as v1 and nothing is flagged; in the zip of the variant sent, it is PK584', async () => {
    expect(grades.plain!.code).toBe(0);
    const copy = await card('out/plain', 'cand-21');
    expect(copy).toMatchObject({ graded: true, verdict: 'PASS', variant: { id: 'v1', leakCheck: { ran: false } } });
    expect(copy.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(copy.decision.state).toBe('pending');
    const own = await card('out/plain', 'cand-21-own-readme');
    expect(own).toMatchObject({ graded: true, variant: { id: copierSent.id, leakCheck: { passed: 'v1' } }, decision: { state: 'no-hire' } });
    expect(own.findings.map((f) => f.code)).toContain('PK584');
    expect(own.findings.map((f) => f.code)).not.toContain('PK585');
  });

  it('grades nothing and writes nothing with a roster it cannot use, naming the file, line, field and fix', async () => {
    await writeFile(path.join(root, 'bad.csv'), `submission,variant\ncand-01,v1\ncand-02\ncand-01,v4\n`);
    const bad = await cli(['grade', ID, 'submissions/cand-01.zip', '--roster', 'bad.csv', '--out', 'out/bad']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/PK587 The roster bad\.csv, line 3 \(variant\): the row has no variant/);
    expect(bad.stderr).toMatch(/PK587.*line 4 \(submission\): "cand-01" is named twice, on lines 2 and 4, sent v1 and v4/);
    expect(bad.stdout).not.toMatch(/grading/);
    await expect(stat(path.join(root, 'out/bad'))).rejects.toThrow(/ENOENT/);

    await writeFile(path.join(root, 'roster.json'), JSON.stringify({ schemaVersion: 1, kind: 'packet-kit/variant-roster', sent: { 'cand-01': 'v1' } }));
    const drill = await cli(['grade', 'drill-retry-backoff', 'submissions/cand-01.zip', '--roster', 'roster.json', '--out', 'out/bad']);
    expect(drill.code).toBe(2);
    expect(drill.stderr).toMatch(/PK587.*packet drill-retry-backoff has no variants/);
    await expect(stat(path.join(root, 'out/bad'))).rejects.toThrow(/ENOENT/);
  });

  it('keeps the whole story under 90 s on two cores', () => {
    console.log(`twenty variants: ${Object.entries(times).map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
    expect(times.all!).toBeLessThan(90_000);
  });
});
