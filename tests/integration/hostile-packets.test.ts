import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import type { Diagnostic } from '../../src/errors/diagnostic.ts';

/**
 * `packet check` and `packet build` on a folder of two good packets (copied from packets/) and
 * packets holding hostile files, all generated here: a name that is not UTF-8, a tree 1,500
 * folders deep, a sparse 3 GiB file, a starter file over the 10 MiB limit. Each bad packet is
 * named with its own code; the good ones are checked as if the bad ones were not there, and
 * nothing ends in an internal error (PK901, exit 70).
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GOOD = ['fetch-retry-ticket', 'drill-retry-backoff'];

let root: string;
const packets = () => path.join(root, 'packets');

async function copyPacket(from: string, to: string): Promise<string> {
  const dir = path.join(packets(), to);
  await cp(path.join(ROOT, 'packets', from), dir, { recursive: true, filter: (src) => !/__pycache__|\.pyc$/.test(src) });
  return dir;
}

/** Every HTML and JSON file of a built site, joined: what a reader of the site could find. */
async function siteText(dir: string): Promise<string> {
  const files = (await readdir(dir, { recursive: true })).filter((f) => /\.(html|json)$/.test(f));
  return (await Promise.all(files.map((f) => readFile(path.join(dir, f), 'utf8')))).join('\n');
}

async function sparse(file: string, bytes: number): Promise<void> {
  const fh = await open(file, 'w');
  await fh.truncate(bytes);
  await fh.close();
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'packet-kit-hostile-'));
  for (const id of GOOD) await copyPacket(id, id);
  // Each bad one is a copy of a take-home in a folder of its own name, so only its hostile file is wrong.
  // The copy is of a take-home without variants: a variant is checked again once rendered, and
  // would name the same hostile file a second time (PK154).
  const bad = (id: string) => copyPacket('log-labeler-payload', id);
  const named = await bad('bad-name');
  await writeFile(Buffer.concat([Buffer.from(path.join(named, 'starter', 'src', 'x')), Buffer.from([0xff]), Buffer.from('.py')]), 'x = 1\n');
  const deep = await bad('bad-deep');
  execFileSync('bash', ['-c', 'cd "$1" && p=$(printf "d/%.0s" $(seq 100)) && for i in $(seq 15); do mkdir -p "$p" && cd "$p"; done && echo x > leaf.py', 'deep', path.join(deep, 'starter')]);
  const huge = await bad('bad-huge');
  await sparse(path.join(huge, 'starter', 'huge.bin'), 3 * 1024 ** 3);
  const large = await bad('bad-large');
  await sparse(path.join(large, 'starter', 'fixture.bin'), 10 * 1024 ** 2 + 1);
  await mkdir(path.join(root, 'dist'), { recursive: true });
});
afterAll(async () => {
  execFileSync('rm', ['-rf', root]);
  await rm(root, { recursive: true, force: true });
});

describe('hostile packets beside good ones', () => {
  it('packet check names each bad packet with its code and checks the good ones as usual (exit 1)', async () => {
    const io = memoryIo(root, { env: process.env });
    const code = await runCli(['check', '--format', 'json', '--no-cache'], io);
    expect(io.stderr).not.toContain('PK901');
    expect(code).toBe(1);
    const { diagnostics } = JSON.parse(io.stdout) as { diagnostics: Diagnostic[] };
    const errors = diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.file.split('/').slice(0, 3).join('/')}`);
    expect([...new Set(errors)].sort()).toEqual([
      'PK141 packets/bad-deep/starter',
      'PK142 packets/bad-large/starter',
      'PK143 packets/bad-huge/starter',
      'PK140 packets/bad-name/starter',
    ].sort());
    for (const id of GOOD) expect(diagnostics.filter((d) => d.file.startsWith(`packets/${id}/`))).toEqual([]);
  });

  it('packet build stops at its check, naming only the bad packets (exit 1, not an internal error)', async () => {
    const io = memoryIo(root, { env: process.env });
    const code = await runCli(['build', '--skip-rehearse'], io);
    const all = io.stdout + io.stderr;
    expect(all).not.toContain('PK901');
    expect(code).toBe(1);
    const stop = /PK313 The build stopped at step "check": \d+ errors? in ([^.]+)\./.exec(all);
    expect(stop, all).not.toBeNull();
    expect(stop![1]!.split(', ').sort()).toEqual(['bad-deep', 'bad-huge', 'bad-large', 'bad-name']);
    expect(all).toContain('`npx packet build <id>...`');
  });

  it('packet build of an id the folder does not hold stops at once with PK114, naming it and the known ids (exit 2)', async () => {
    const io = memoryIo(root, { env: process.env });
    const code = await runCli(['build', '--skip-rehearse', GOOD[0]!, 'no-such-packet'], io);
    const all = io.stdout + io.stderr;
    expect(all).not.toContain('PK901');
    expect(code, all).toBe(2);
    expect(all).toMatch(/PK114 There is no packet "no-such-packet"\. Known packets: [^\n]*fetch-retry-ticket/);
  });

  it('packet build of the good ids builds and publishes them, and only them (exit 0)', async () => {
    const io = memoryIo(root, { env: process.env });
    const code = await runCli(['build', '--skip-rehearse', ...GOOD], io);
    const all = io.stdout + io.stderr;
    expect(all).not.toContain('PK901');
    expect(code, all).toBe(0);
    const manifest = JSON.parse(await readFile(path.join(root, 'dist', 'packets.json'), 'utf8')) as { packets: { id: string }[] };
    const code_ = GOOD.filter((id) => !id.startsWith('drill-'));
    expect(manifest.packets.map((p) => p.id).sort()).toEqual(code_.sort());
    // A packet with variants (fetch-retry-ticket) publishes its variant v1: <id>-<version>-v1.zip.
    expect((await readdir(path.join(root, 'dist', 'zips'))).map((z) => z.replace(/-\d+\.\d+\.\d+(-v1)?\.zip$/, '')).sort()).toEqual(code_.sort());
    const reviewer = (await readdir(path.join(root, 'out', 'reviewer'))).map((z) => z.replace(/-\d+\.\d+\.\d+\.zip$/, '')).sort();
    // Beside the reviewer bundles, variants/ holds the variant zips of the packet with variants, and only of it.
    expect(reviewer).toEqual([...GOOD, 'variants'].sort());
    const variantDirs = await readdir(path.join(root, 'out', 'reviewer', 'variants'));
    expect(variantDirs.map((d) => d.replace(/-\d+\.\d+\.\d+$/, ''))).toEqual(['fetch-retry-ticket']);
    const variantFiles = (await readdir(path.join(root, 'out', 'reviewer', 'variants', variantDirs[0]!))).sort();
    expect(variantFiles).toEqual(['VARIANTS.json', ...[1, 2, 3, 4].map((k) => `${variantDirs[0]}-v${k}.zip`)]);
    const site = await siteText(path.join(root, 'dist'));
    for (const id of GOOD) expect(site).toContain(id);
    for (const id of ['bad-name', 'bad-deep', 'bad-huge', 'bad-large']) expect(site).not.toContain(id);
  });
});
