import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import type { RehearsalReport } from '../../src/rehearse/report.ts';

/**
 * `packet rehearse --variants N`: the variants `packet build --variants N` makes, proven before
 * the build (tests/fixtures/variants/packets/variant-planted: three variants by its field, 270
 * combinations), and a bad N refused in the build's own words.
 */
const FIXTURE = fileURLToPath(new URL('../fixtures/variants/packets/variant-planted/', import.meta.url));
const ID = 'variant-planted';

function env(): Record<string, string | undefined> {
  const { LLM_ENDPOINT: _a, OPENAI_BASE_URL: _b, LLM_MODEL: _c, ...rest } = process.env;
  return rest;
}

let root: string;
const cli = async (...args: string[]) => {
  const io = memoryIo(root, { env: env() });
  const code = await runCli(args, io);
  return { code, stdout: io.stdout, stderr: io.stderr, all: io.stdout + io.stderr };
};
const report = async (file: string) => JSON.parse(await readFile(path.join(root, file), 'utf8')) as RehearsalReport;
const exists = (file: string) => stat(path.join(root, file)).then(() => true, () => false);

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'packet-kit-rehearse-variants-flag-'));
  await cp(FIXTURE, path.join(root, 'packets', ID), { recursive: true });
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('packet rehearse --variants N', () => {
  it('proves N variants, over the field, and a larger N runs only the new variants', async () => {
    const two = await cli('rehearse', '--variants', '2', '--report', 'out/two.json');
    expect(two.code, two.all).toBe(0);
    const a = (await report('out/two.json')).packets.find((p) => p.id === ID)!;
    expect(a.status).toBe('fails-closed');
    expect(a.variants!.map((v) => [v.id, v.cached])).toEqual([
      ['v1', false],
      ['v2', false],
    ]);
    expect(a.checks.filter((c) => c.kind === 'leak').map((c) => c.id)).toEqual(['leak:v1>v2']);
    expect(a.checks.some((c) => c.id.startsWith('v3:'))).toBe(false);

    const five = await cli('rehearse', '--variants', '5', '--report', 'out/five.json');
    const b = (await report('out/five.json')).packets.find((p) => p.id === ID)!;
    // Five variants draw `func` from three names, and the fixture's `limit` reaches only its prompt: a variant that
    // shares its function's name with an earlier one has the same tests, a defect found without a run (PK159). Its
    // every other check holds.
    const func = (id: string) => b.variants!.find((v) => v.id === id)!.values.func;
    const same = b.checks.filter((c) => /^leak:v\d+=v\d+$/.test(c.id));
    expect(same.length).toBeGreaterThan(0);
    for (const c of same) expect(func(c.id.slice(5).split('=')[0]!)).toBe(func(c.id.split('=')[1]!));
    expect(b.checks.filter((c) => !c.ok && !same.includes(c)).map((c) => c.id)).toEqual([]);
    expect(b.status).toBe('defect');
    expect(five.code, five.all).toBe(1);
    // v1 and v2 are the same files as before (variant k never depends on the count): from the cache.
    expect(b.variants!.map((v) => [v.id, v.cached])).toEqual([
      ['v1', true],
      ['v2', true],
      ['v3', false],
      ['v4', false],
      ['v5', false],
    ]);
    expect(b.variants!.slice(0, 2).map((v) => v.digest)).toEqual(a.variants!.map((v) => v.digest));
    expect(new Set(b.variants!.map((v) => v.digest)).size).toBe(5);
    expect(b.checks.filter((c) => c.kind === 'leak' && !same.includes(c)).map((c) => c.id)).toEqual(['leak:v1>v2', 'leak:v2>v3', 'leak:v3>v4']);
    for (const v of b.variants!) expect(b.checks.find((c) => c.id === `${v.id}:sample`)?.ok, v.id).toBe(true);
    expect(five.stdout).toContain('variant v5 (');
  }, 180_000);

  it('refuses a bad N as packet build does, before any packet is rehearsed', async () => {
    for (const bad of ['0', '2.5', '101', 'ten', '-3']) {
      const r = await cli('rehearse', `--variants=${bad}`, '--report', 'out/bad.json');
      const b = await cli('build', '--skip-rehearse', `--variants=${bad}`);
      expect(r.code, `${bad}: ${r.all}`).toBe(2);
      expect(b.code).toBe(2);
      expect(r.stderr).toContain(`PK801 --variants must be a whole number from 1 to 100, not "${bad}".`);
      expect(r.stderr.replaceAll('packet rehearse', 'packet build')).toBe(b.stderr);
    }
    expect(await exists('out/bad.json')).toBe(false);
  });

  it('refuses more variants than the combinations of the parameters (PK153), in the words of packet build', async () => {
    // Three names and one limit: three combinations.
    const prompt = path.join(root, 'packets', ID, 'prompt.mdx');
    const before = await readFile(prompt, 'utf8');
    await writeFile(prompt, before.replace('limit: { int: [10, 99] }', 'limit: { value: 10 }'));
    try {
      const r = await cli('rehearse', '--variants', '4', '--report', 'out/many.json');
      expect(r.code, r.all).toBe(1);
      const line = 'PK153 error The packet asks for 4 variants, but its parameters have only 3 distinct combinations of values, so two variants would be the same.';
      expect(r.all).toContain(`packets/${ID}/prompt.mdx:10:1 ${line}`);
      expect(r.all).toContain('Ask for at most 3 variants ("variants.count" or --variants)');
      expect(await exists('out/many.json')).toBe(false);
      const b = await cli('build', '--skip-rehearse', '--variants', '4');
      expect(b.code).toBe(1);
      expect(b.all).toContain(line);
      // Three is every combination: rehearsed.
      const ok = await cli('rehearse', '--variants', '3', '--report', 'out/three.json');
      expect(ok.code, ok.all).toBe(0);
      expect((await report('out/three.json')).packets[0]!.variants!.map((v) => v.id)).toEqual(['v1', 'v2', 'v3']);
    } finally {
      await writeFile(prompt, before);
    }
  }, 180_000);
});

describe('packet rehearse --model on a shipped take-home with variants', () => {
  let shipped: string;
  beforeAll(async () => {
    shipped = await mkdtemp(path.join(tmpdir(), 'packet-kit-rehearse-model-variant-'));
    await cp(fileURLToPath(new URL('../../packets/fetch-retry-ticket/', import.meta.url)), path.join(shipped, 'packets', 'fetch-retry-ticket'), { recursive: true });
  });
  afterAll(() => rm(shipped, { recursive: true, force: true }));

  it("runs the model on the first variant, rendered: the sample reply passes v1's tests, and the run names v1", async () => {
    const io = memoryIo(shipped, { env: env() });
    const code = await runCli(['rehearse', '--variants', '1', '--model', 'scripted:{packet}/sample', '--feedback', '0', '--out', 'out/runs', '--report', 'out/r.json'], io);
    expect(code, io.stdout + io.stderr).toBe(0);
    const r = JSON.parse(await readFile(path.join(shipped, 'out/r.json'), 'utf8')) as RehearsalReport;
    const v1 = r.packets[0]!.variants![0]!;
    expect(r.models).toHaveLength(1);
    expect(r.models![0]).toMatchObject({ packet: 'fetch-retry-ticket', verdict: 'PASS', digest: v1.digest, variant: { id: 'v1', values: v1.values } });
    expect(io.stdout).toMatch(/PASS fetch-retry-ticket \S+ variant v1 with scripted:fetch-retry-ticket\/sample/);
    // The receipts' header names the variant's digest, not the template's.
    expect(await readFile(path.join(shipped, 'out/runs/fetch-retry-ticket/ledger.json'), 'utf8')).toContain(v1.digest);
  }, 120_000);
});
