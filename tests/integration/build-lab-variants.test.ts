import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZipEntries } from '../../src/bundle/canary.ts';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import type { CandidateTable, ReviewerKey } from '../../src/labs/table.ts';
import type { VariantsKey } from '../../src/packets/variants-key.ts';

const LAB = 'variant-lab-site';
const FIXTURE = fileURLToPath(new URL(`../fixtures/variants/packets/${LAB}/`, import.meta.url));
/** A shipped take-home with variants: its public page must show its variant v1, never a placeholder. */
const TAKEHOME = 'fetch-retry-ticket';
const SHIPPED = fileURLToPath(new URL(`../../packets/${TAKEHOME}/`, import.meta.url));
const BASE = `${LAB}-0.1.0`;

/** The lab page's data for its script (the `data-lab` attribute). */
function pageData(html: string): { digest: string; variant?: string; table: string } {
  const m = /data-lab="([^"]*)"/.exec(html);
  if (!m) throw new Error('no data-lab on the page');
  const json = m[1]!.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return JSON.parse(json) as { digest: string; variant?: string; table: string };
}

describe('packet build of a lab with variants', () => {
  let root: string;
  let output = '';
  const build = async (...args: string[]) => {
    const io = memoryIo(root, { env: process.env });
    const code = await runCli(['build', '--skip-rehearse', ...args], io);
    return { code, out: io.stdout + io.stderr };
  };
  const read = (rel: string) => readFile(path.join(root, rel), 'utf8');
  const key = async () => JSON.parse(await read(`out/reviewer/variants/${BASE}/VARIANTS.json`)) as VariantsKey;
  const pwmin = (k: VariantsKey, id: string) => String(k.variants.find((v) => v.id === id)!.values.pwmin);

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'packet-kit-lab-variants-'));
    await cp(FIXTURE, path.join(root, 'packets', LAB), { recursive: true });
    await cp(SHIPPED, path.join(root, 'packets', TAKEHOME), { recursive: true });
    const r = await build();
    output = r.out;
    expect(r.code, r.out).toBe(0);
  }, 240_000);
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("computes every variant's table, says so, and writes each at its own path", async () => {
    const k = await key();
    expect(k.variants.map((v) => v.id)).toEqual(['v1', 'v2', 'v3']);
    expect(new Set(k.variants.map((v) => v.values.pwmin)).size).toBe(3);
    for (const v of k.variants) expect(output).toMatch(new RegExp(`labs: ${LAB} ${v.id}: 81 combinations`));
    expect(output).toMatch(/build: labs {7}3 lab tables, 3 of them variants of 1 lab/);
    const tables = await Promise.all(['', 'v2/', 'v3/'].map(async (at) => JSON.parse(await read(`dist/packets/${LAB}/${at}combinations.json`)) as CandidateTable));
    tables.forEach((t, i) => {
      const v = k.variants[i]!;
      expect(t.digest, v.id).toBe(v.digest);
      expect(t.kind).toBe('packet-kit/lab-table');
      // Each variant's table is its own: the failure messages carry its minimum length, not another's.
      const messages = t.messages.join('\n');
      expect(messages).toContain(`at least ${v.values.pwmin} characters`);
      for (const other of k.variants.filter((o) => o !== v)) expect(messages).not.toContain(`at least ${other.values.pwmin} characters`);
    });
    expect(existsSync(path.join(root, 'dist/packets', LAB, 'v1'))).toBe(false);
    expect(existsSync(path.join(root, 'dist/packets', LAB, 'v4'))).toBe(false);
  });

  it("writes each variant's key for the scoring page, and the variant key names each variant's page and key", async () => {
    const k = await key();
    for (const v of k.variants) {
      expect(v.lab).toEqual({ page: v.number === 1 ? `/labs/${LAB}/` : `/labs/${LAB}/${v.id}/`, key: `${v.id}/LAB-KEY.json` });
      const labKey = JSON.parse(await read(`out/reviewer/variants/${BASE}/${v.lab!.key}`)) as ReviewerKey;
      expect(labKey).toMatchObject({ kind: 'packet-kit/lab-key', id: LAB, digest: v.digest });
      expect(labKey.messages.join('\n')).toContain(`at least ${v.values.pwmin} characters`);
    }
    const bundle = await readZipEntries(await readFile(path.join(root, 'out/reviewer', `${BASE}.zip`)));
    const text = (p: string) => new TextDecoder().decode(bundle.find((e) => e.path === `${BASE}/${p}`)!.bytes);
    // The bundle's own key is v1's; KEY.md lists every variant's page and key.
    expect((JSON.parse(text('LAB-KEY.json')) as ReviewerKey).digest).toBe(k.variants[0]!.digest);
    const keyMd = text('KEY.md');
    for (const v of k.variants) {
      expect(keyMd).toContain(v.lab!.page);
      expect(keyMd).toContain(`variants/${BASE}/${v.id}/LAB-KEY.json`);
    }
  });

  it("gives each variant a page of its own, with its values, its table and its digest, kept out of search engines", async () => {
    const k = await key();
    for (const v of k.variants) {
      const html = await read(`dist/labs/${LAB}/${v.number === 1 ? '' : `${v.id}/`}index.html`);
      const data = pageData(html);
      expect(data).toMatchObject({ digest: v.digest, variant: v.id, table: v.number === 1 ? `/packets/${LAB}/combinations.json` : `/packets/${LAB}/${v.id}/combinations.json` });
      expect(html).toContain(`at least ${v.values.pwmin} characters`);
      for (const other of k.variants.filter((o) => o !== v)) expect(html, `${v.id} shows ${other.id}'s value`).not.toContain(`at least ${other.values.pwmin} characters`);
      expect(html).toContain(`data-variant="${v.id}"`);
      if (v.number === 1) expect(html).not.toContain('name="robots"');
      else expect(html).toMatch(/<meta name="robots" content="noindex"/);
    }
    expect(existsSync(path.join(root, 'dist/labs', LAB, 'v1'))).toBe(false);
    expect(existsSync(path.join(root, 'dist/labs', LAB, 'v4'))).toBe(false);
    // The catalog links the lab once, never a variant's page; the packet page says the candidate gets their own.
    const catalog = await read('dist/index.html');
    expect(catalog).not.toMatch(new RegExp(`/labs/${LAB}/v\\d`));
    const packetPage = await read(`dist/packets/${LAB}/index.html`);
    expect(packetPage).toContain(`data-lab-variants="3"`);
    expect(packetPage).toContain("a candidate gets the address of their own variant's page from the hiring lead");
    expect(packetPage).not.toMatch(new RegExp(`/labs/${LAB}/v\\d`));
    // The scoring page knows every variant's digest, so it reads a key and a sheet of any of them.
    const score = await read(`dist/labs/${LAB}/score/index.html`);
    for (const v of k.variants) expect(score).toContain(v.digest);
  });

  it('shows no raw placeholder anywhere on the public site: every packet with variants is shown as its variant v1', async () => {
    const files = (await readdir(path.join(root, 'dist'), { recursive: true })).map(String);
    // The kit's own reference pages document the syntax; every page of a packet is checked.
    const pages = files.filter((f) => /\.(html|json|js|txt|md)$/.test(f) && !/^(errors|schemas)\//.test(f));
    expect(pages.filter((f) => f.startsWith(`packets/${TAKEHOME}/`)).length).toBeGreaterThan(0);
    for (const f of pages) expect(await read(`dist/${f}`), f).not.toContain('[[variant.');
    const dir = (await readdir(path.join(root, 'out/reviewer/variants'))).find((d) => d.startsWith(`${TAKEHOME}-`))!;
    const take = JSON.parse(await read(`out/reviewer/variants/${dir}/VARIANTS.json`)) as VariantsKey;
    const shed = String(take.variants[0]!.values.shed);
    const page = await read(`dist/packets/${TAKEHOME}/index.html`);
    expect(page).toContain(shed);
    expect(page).toContain('the zip above is variant v1');
    const rubric = await read(`dist/packets/${TAKEHOME}/rubric/index.html`);
    expect(rubric).not.toContain('[[variant.');
    // The search index (Pagefind's gzipped fragments) is made from v1's words too.
    const fragments = files.filter((f) => f.startsWith('pagefind/fragment/'));
    const records = fragments.map((f) => gunzipSync(readFileSync(path.join(root, 'dist', f))).toString('utf8'));
    const record = records.find((r) => r.includes(`"url":"/packets/${TAKEHOME}/"`));
    expect(record).toBeDefined();
    for (const r of records) expect(r).not.toContain('[[variant.');
    expect(records.some((r) => r.includes(`/labs/${LAB}/v`))).toBe(false);
  });

  it('--variants N makes N variant pages, tables and keys', async () => {
    const before = await key();
    const r = await build('--variants', '2');
    expect(r.code, r.out).toBe(0);
    const k = await key();
    expect(k.variants.map((v) => v.id)).toEqual(['v1', 'v2']);
    expect(k.variants.map((v) => v.digest)).toEqual(before.variants.slice(0, 2).map((v) => v.digest));
    expect(await read(`dist/labs/${LAB}/v2/index.html`)).toContain(`at least ${pwmin(k, 'v2')} characters`);
    expect(existsSync(path.join(root, 'dist/labs', LAB, 'v2', 'index.html'))).toBe(true);
    expect(existsSync(path.join(root, 'dist/labs', LAB, 'v3'))).toBe(false);
    expect(existsSync(path.join(root, 'dist/packets', LAB, 'v3'))).toBe(false);
    expect(existsSync(path.join(root, 'out/reviewer/variants', BASE, 'v3'))).toBe(false);
    expect(r.out).toMatch(/\(\d+ cached\)/);
    // Cached per variant digest: the second build computed no table again.
    expect(r.out).toMatch(new RegExp(`labs: ${LAB} v1: 81 combinations \\(cached\\)`));
    expect(r.out).toMatch(new RegExp(`labs: ${LAB} v2: 81 combinations \\(cached\\)`));
  }, 240_000);
});
