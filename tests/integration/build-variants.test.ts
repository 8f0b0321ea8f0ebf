import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZipEntries } from '../../src/bundle/canary.ts';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import type { BuildManifest } from '../../src/packets/build-status.ts';
import type { VariantsKey } from '../../src/packets/variants-key.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/variants/packets/variant-planted/', import.meta.url));
const ID = 'variant-planted';
const BASE = `${ID}-0.1.0`;

/** Every file under a folder with its sha256. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const abs = path.join(e.parentPath, e.name);
    out[path.relative(dir, abs)] = createHash('sha256').update(await readFile(abs)).digest('hex');
  }
  return out;
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('packet build --variants', () => {
  let root: string;
  let first: Record<string, string>;
  const build = async (...args: string[]) => {
    const io = memoryIo(root, { env: process.env });
    const code = await runCli(['build', ...args], io);
    return { code, stdout: io.stdout, stderr: io.stderr };
  };
  const variantsDir = () => path.join(root, 'out/reviewer/variants', BASE);
  const key = async () => JSON.parse(await readFile(path.join(variantsDir(), 'VARIANTS.json'), 'utf8')) as VariantsKey;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'packet-kit-build-variants-'));
    await cp(FIXTURE, path.join(root, 'packets', ID), { recursive: true });
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('refuses to rehearse a packet with variants, naming the flag', async () => {
    const r = await build('--variants', '3');
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('PK157');
    expect(r.stdout + r.stderr).toContain('--skip-rehearse');
  });

  it('writes one zip per variant, each naming its variant and its own digest, and the reviewer key', async () => {
    const r = await build('--skip-rehearse', '--variants', '3');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const names = (await readdir(variantsDir())).sort();
    expect(names).toEqual(['VARIANTS.json', `${BASE}-v1.zip`, `${BASE}-v2.zip`, `${BASE}-v3.zip`]);
    const k = await key();
    expect(k).toMatchObject({ kind: 'packet-kit/variants-key', schemaVersion: 1, packet: ID, version: '0.1.0', seed: 'variant-planted-1' });
    expect(k.variants.map((v) => v.id)).toEqual(['v1', 'v2', 'v3']);
    expect(new Set(k.variants.map((v) => v.digest)).size).toBe(3);
    expect(k.variants.every((v) => v.digest !== k.digest)).toBe(true);
    for (const v of k.variants) {
      const bytes = await readFile(path.join(variantsDir(), v.zip.name));
      expect(v.zip.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(v.zip.size).toBe(bytes.byteLength);
      const entries = await readZipEntries(bytes);
      const root = `${BASE}-${v.id}/`;
      expect(entries.every((e) => e.path.startsWith(root))).toBe(true);
      const readme = text(entries.find((e) => e.path === `${root}README.md`)!.bytes);
      expect(readme).toContain(`- Digest: \`${v.digest}\`\n- Variant: \`${v.id}\`\n`);
      expect(readme).toContain(`zip -r ../${BASE}-${v.id}-yourname.zip .`);
      const code = text(entries.find((e) => e.path === `${root}src/duration.py`)!.bytes);
      expect(code).toContain(`def ${v.values.func}(text):`);
      expect(text(entries.find((e) => e.path === `${root}PROMPT.md`)!.bytes)).toContain(`In this variant (${v.id}) no duration is longer than ${v.values.limit} hours.`);
      for (const e of entries) if (!e.path.endsWith('.bin')) expect(text(e.bytes), e.path).not.toContain('[[variant.');
      // The hidden tests never go into a candidate zip.
      expect(entries.some((e) => e.path.includes('hidden'))).toBe(false);
    }
    expect(new Set(k.variants.map((v) => v.values.func)).size).toBeGreaterThan(1);
    // The reviewer bundle holds the same key, and KEY.md lists the variants.
    const bundle = await readZipEntries(await readFile(path.join(root, 'out/reviewer', `${BASE}.zip`)));
    expect(text(bundle.find((e) => e.path === `${BASE}/VARIANTS.json`)!.bytes)).toBe(await readFile(path.join(variantsDir(), 'VARIANTS.json'), 'utf8'));
    const keyMd = text(bundle.find((e) => e.path === `${BASE}/KEY.md`)!.bytes);
    expect(keyMd).toContain('## Variants');
    for (const v of k.variants) expect(keyMd).toContain(v.digest);
    first = { ...(await snapshot(variantsDir())), ...(await snapshot(path.join(root, 'dist/zips'))) };
  });

  it('shows the packet once on the public site, with its variant count, and no key there', async () => {
    const m = JSON.parse(await readFile(path.join(root, 'dist/packets.json'), 'utf8')) as BuildManifest;
    expect(m.packets).toHaveLength(1);
    const k = await key();
    expect(m.packets[0]).toMatchObject({ id: ID, digest: k.digest, zip: `${BASE}-v1.zip`, sha256: k.variants[0]!.zip.sha256, variants: 3 });
    expect(await readdir(path.join(root, 'dist/zips'))).toEqual([`${BASE}-v1.zip`]);
    expect(await readdir(path.join(root, 'dist/packets'))).toEqual([ID]);
    const page = await readFile(path.join(root, 'dist/packets', ID, 'index.html'), 'utf8');
    expect(page).toContain('This packet has 3 variants');
    expect(page).toContain(k.variants[0]!.zip.sha256);
    const catalog = await readFile(path.join(root, 'dist/index.html'), 'utf8');
    expect(catalog.match(new RegExp(`href="/packets/${ID}/"`, 'g'))?.length).toBe(1);
    const site = await readdir(path.join(root, 'dist'), { recursive: true });
    expect(site.filter((f) => /VARIANTS\.json|-v[23]\.zip$/.test(String(f)))).toEqual([]);
    for (const v of k.variants.slice(1)) {
      for (const f of site) {
        const abs = path.join(root, 'dist', String(f));
        if (!/\.(html|json|js)$/.test(abs)) continue;
        expect(await readFile(abs, 'utf8'), String(f)).not.toContain(v.digest);
      }
    }
  });

  it('builds the same bytes again, variant by variant', async () => {
    const r = await build('--skip-rehearse', '--variants', '3');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect({ ...(await snapshot(variantsDir())), ...(await snapshot(path.join(root, 'dist/zips'))) }).toEqual(first);
  });

  it("makes the field's count without the flag, --variants N over it, and refuses more than the combinations", async () => {
    const field = await build('--skip-rehearse');
    expect(field.code, field.stdout + field.stderr).toBe(0);
    expect((await key()).variants).toHaveLength(3);
    // --variants 5 makes 5, whose first three are the same zips, byte for byte.
    const r = await build('--skip-rehearse', '--variants', '5');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect((await key()).variants).toHaveLength(5);
    const now = await snapshot(variantsDir());
    for (const k of ['v1', 'v2', 'v3']) expect(now[`${BASE}-${k}.zip`]).toBe(first[`${BASE}-${k}.zip`]);
    // Three names and one limit: three combinations, so a fourth variant would repeat one.
    const prompt = path.join(root, 'packets', ID, 'prompt.mdx');
    await writeFile(prompt, (await readFile(prompt, 'utf8')).replace('limit: { int: [10, 99] }', 'limit: { value: 10 }'));
    const tooMany = await build('--skip-rehearse', '--variants', '4');
    expect(tooMany.code).toBe(1);
    expect(tooMany.stdout + tooMany.stderr).toContain('PK153');
    expect(tooMany.stdout + tooMany.stderr).toContain('only 3 distinct combinations');
  });
});
