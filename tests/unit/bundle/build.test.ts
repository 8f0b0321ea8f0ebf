import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runBuild, type BuildOptions, type BuildSteps } from '../../../src/bundle/build.ts';
import type { PacketFileReader } from '../../../src/bundle/candidate-zip.ts';
import { directoryZipCache, type ZipCache, type ZipKey } from '../../../src/bundle/zip-cache.ts';
import type { Diagnostic } from '../../../src/errors/diagnostic.ts';
import type { Packet } from '../../../src/packets/packet.ts';
import type { PacketReport, RehearsalReport } from '../../../src/rehearse/report.ts';
import { memPacket } from './helpers.ts';
import { chownTree } from '../../support/chown-tree.ts';

const BUILD_CHILD = fileURLToPath(new URL('./build-child.ts', import.meta.url));

const SAMPLE_LINE = 'return sum(int(n) * UNITS[unit] for n, unit in PART.findall(text))';

let root: string;
let packet: Packet;
let read: PacketFileReader;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'packet-build-unit-'));
  ({ packet, read } = memPacket());
  // A previous build to protect.
  await mkdir(path.join(root, 'dist'), { recursive: true });
  await writeFile(path.join(root, 'dist/index.html'), 'previous site');
});
afterEach(() => rm(root, { recursive: true, force: true }));

function reportOf(status: PacketReport['status']): RehearsalReport {
  return {
    schemaVersion: 3,
    date: '2026-11-29T12:00:00.000Z',
    kit: { version: '0.1.0', fingerprint: 'f'.repeat(64) },
    sandbox: { kind: 'bubblewrap', notice: null },
    interpreter: { python: null },
    jobs: 1,
    packets: [{ id: packet.id, version: '0.1.0', digest: packet.digest, status, checks: [], defects: [], cached: false, durationMs: 1 }],
    summary: { packets: 1, failsClosed: status === 'fails-closed' ? 1 : 0, defects: status === 'defect' ? 1 : 0, inconclusive: status === 'inconclusive' ? 1 : 0, cached: 0, durationMs: 1 },
  };
}

/** A build over the memory packet with fake outside steps; `steps` overrides them. */
async function build(steps: Partial<BuildSteps> = {}, controller = new AbortController(), extra: Partial<BuildOptions> = {}) {
  const log: string[] = [];
  const reported: Diagnostic[] = [];
  const options: BuildOptions = {
    cwd: root,
    outDir: path.join(root, 'dist'),
    reviewerDir: path.join(root, 'out/reviewer'),
    steps: {
      load: async () => ({ packets: [packet], sources: [{ id: packet.id, dir: packet.dir }], diagnostics: [] }),
      lint: async () => [],
      rehearse: async () => ({ ok: true, report: reportOf('fails-closed') }),
      lastReport: async () => undefined,
      buildSite: async ({ outDir }) => {
        await writeFile(path.join(outDir, 'index.html'), '<h1>new site</h1>');
        return { ok: true, output: '' };
      },
      ...steps,
    },
    reader: () => read,
    reporter: { onLine: (line) => void log.push(line), onPacketDiagnostics: (list) => void reported.push(...list) },
    signal: controller.signal,
    now: () => performance.now(),
    tag: 'test',
    ...extra,
  };
  const result = await runBuild(options);
  const left = (await readdir(root)).filter((n) => n.startsWith('.'));
  return { result, log: log.join(''), reported, left, previous: await readFile(path.join(root, 'dist/index.html'), 'utf8').catch(() => null) };
}

describe('runBuild', () => {
  it('swaps in the new site, zips, manifest and reviewer bundles when every step passes', async () => {
    const { result, previous, left } = await build();
    expect(result.ok).toBe(true);
    expect(previous).toBe('<h1>new site</h1>');
    expect(left).toEqual([]);
    const manifest = JSON.parse(await readFile(path.join(root, 'dist/packets.json'), 'utf8'));
    expect(manifest.packets[0]).toMatchObject({ id: 'mem', zip: 'mem-0.1.0.zip', rehearsal: 'fails-closed' });
    expect(await readdir(path.join(root, 'dist/zips'))).toEqual(['mem-0.1.0.zip']);
    expect(await readdir(path.join(root, 'out/reviewer'))).toEqual(['mem-0.1.0.zip']);
  });

  it('hands the site the manifest and a staging folder that already holds the zips', async () => {
    let seen: string[] = [];
    await build({
      buildSite: async ({ outDir, manifestFile }) => {
        seen = [path.basename(path.dirname(manifestFile)) === path.basename(outDir) ? 'manifest in staging' : 'elsewhere', ...(await readdir(path.join(outDir, 'zips')))];
        return { ok: true, output: '' };
      },
    });
    expect(seen).toEqual(['manifest in staging', 'mem-0.1.0.zip']);
  });

  it('fails at the canary scan when a page carries a secret line, and keeps the previous site', async () => {
    const { result, reported, previous, left } = await build({
      buildSite: async ({ outDir }) => {
        await writeFile(path.join(outDir, 'index.html'), `<pre>${SAMPLE_LINE}</pre>`);
        return { ok: true, output: '' };
      },
    });
    expect(result).toMatchObject({ ok: false, step: 'canary', packets: ['mem'], exitCode: 1 });
    expect(reported.map((d) => `${d.code} ${d.file}`)).toEqual(['PK310 dist/index.html']);
    expect(reported[0]!.message).not.toContain(SAMPLE_LINE);
    expect(previous).toBe('previous site');
    expect(left).toEqual([]);
  });

  it('fails at the check on a lint error, after stopping the site build it had started', async () => {
    let aborted = false;
    const { result, previous, left } = await build({
      lint: async () => [{ code: 'PK205', name: 'TestCommandNotShown', severity: 'error', message: 'm', hint: 'h', file: 'packets/mem/prompt.mdx', line: 3 }],
      buildSite: ({ signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve({ ok: false, output: '', reason: 'stopped by SIGTERM' });
          });
        }),
    });
    expect(result).toMatchObject({ ok: false, step: 'check', packets: ['mem'] });
    expect(aborted).toBe(true);
    expect(previous).toBe('previous site');
    expect(left).toEqual([]);
  });

  it('fails at the rehearsal on a defect (exit 1) or an inconclusive packet (exit 2)', async () => {
    const defect = await build({ rehearse: async () => ({ ok: true, report: reportOf('defect') }) });
    expect(defect.result).toMatchObject({ ok: false, step: 'rehearse', packets: ['mem'], exitCode: 1 });
    const inconclusive = await build({ rehearse: async () => ({ ok: true, report: reportOf('inconclusive') }) });
    expect(inconclusive.result).toMatchObject({ ok: false, step: 'rehearse', exitCode: 2 });
    expect(inconclusive.previous).toBe('previous site');
  });

  it('fails at the site when Astro fails, and says why', async () => {
    const { result, log, previous } = await build({ buildSite: async () => ({ ok: false, output: '[ERROR] a page threw', reason: 'astro build exited with 1' }) });
    expect(result).toMatchObject({ ok: false, step: 'site' });
    expect(log).toContain('  astro: [ERROR] a page threw');
    expect(!result.ok && result.diagnostic.message).toContain('astro build exited with 1');
    expect(previous).toBe('previous site');
  });

  it('stops when interrupted during the site build, and keeps the previous site', async () => {
    const controller = new AbortController();
    const { result, previous, left } = await build(
      {
        buildSite: ({ signal }) =>
          new Promise((resolve) => {
            signal.addEventListener('abort', () => resolve({ ok: false, output: '', reason: 'stopped by SIGTERM' }));
            setTimeout(() => controller.abort('SIGTERM'), 10);
          }),
      },
      controller,
    );
    expect(result).toMatchObject({ ok: false, step: 'interrupted' });
    expect(!result.ok && result.diagnostic.code).toBe('PK316');
    expect(previous).toBe('previous site');
    expect(left).toEqual([]);
  });

  it('undoes a publish killed between its two swaps before it starts, instead of deleting the last good site', async () => {
    const { spawn } = await import('node:child_process');
    const tag = '4194307';
    await mkdir(path.join(root, 'out/reviewer'), { recursive: true });
    await writeFile(path.join(root, 'out/reviewer/mem-0.1.0.zip'), 'previous bundle');
    await mkdir(path.join(root, `.dist-staging-${tag}`), { recursive: true });
    await writeFile(path.join(root, `.dist-staging-${tag}/index.html`), 'half-published site');
    await mkdir(path.join(root, `out/.reviewer-staging-${tag}`), { recursive: true });
    const child = spawn(process.execPath, [new URL('./publish-child.ts', import.meta.url).pathname, root, 'aside:1', tag], { stdio: 'inherit' });
    expect(await new Promise((resolve) => child.on('exit', (_c, signal) => resolve(signal)))).toBe('SIGKILL');
    expect(await readFile(path.join(root, 'dist/index.html'), 'utf8')).toBe('half-published site');
    // This build fails at the site, so what it leaves is what it found once it had recovered.
    const { result, log, previous, left } = await build({ buildSite: async () => ({ ok: false, output: '', reason: 'astro build exited with 1' }) });
    expect(result).toMatchObject({ ok: false, step: 'site' });
    expect(log).toMatch(/^build: undid an interrupted publish: the previous dist and reviewer are back$/m);
    expect(previous).toBe('previous site');
    expect(await readFile(path.join(root, 'out/reviewer/mem-0.1.0.zip'), 'utf8')).toBe('previous bundle');
    expect(left).toEqual([]);
  });

  describe('a selection of packets (`packet build <id>...`)', () => {
    // A folder of two good packets and one whose check fails; the fake load selects as loadPackets({ ids }) does.
    const bad: Diagnostic = { code: 'PK140', name: 'PacketFileNameInvalid', severity: 'error', message: 'm', hint: 'h', file: 'packets/bad/starter' };
    let other: ReturnType<typeof memPacket>;
    let asked: (readonly string[] | undefined)[];
    const folder = (says114 = true): Partial<BuildSteps> => ({
      load: async (ids) => {
        asked.push(ids);
        const all = [
          { id: packet.id, dir: packet.dir, packet, diagnostics: [] as Diagnostic[] },
          { id: other.packet.id, dir: other.packet.dir, packet: other.packet, diagnostics: [] as Diagnostic[] },
          { id: 'bad', dir: 'packets/bad', packet: undefined, diagnostics: [bad] },
        ];
        const chosen = ids ? all.filter((s) => ids.includes(s.id)) : all;
        const unknown = (ids ?? []).filter((id) => !all.some((s) => s.id === id));
        return {
          packets: chosen.flatMap((s) => (s.packet ? [s.packet] : [])),
          sources: chosen.map(({ id, dir }) => ({ id, dir })),
          diagnostics: [
            ...chosen.flatMap((s) => s.diagnostics),
            ...(says114 ? unknown.map((id) => ({ code: 'PK114', name: 'UnknownPacket', severity: 'error' as const, message: `There is no packet "${id}". Known packets: mem, other, bad.`, hint: 'h', file: 'packets' })) : []),
          ],
        };
      },
      rehearse: async (packets) => {
        asked.push(packets.map((p) => `rehearse ${p.id}`));
        return { ok: true, report: { ...reportOf('fails-closed'), packets: packets.map((p) => ({ id: p.id, version: '0.1.0', digest: p.digest, status: 'fails-closed' as const, checks: [], defects: [], cached: false, durationMs: 1 })) } };
      },
    });
    const readers = () => ({ reader: (p: Pick<Packet, 'id'>) => (p.id === other.packet.id ? other.read : read) });
    beforeEach(() => {
      other = memPacket(undefined, 'other');
      asked = [];
    });

    it('without ids builds every packet, so the bad one stops it at the check, and PK313 says how to build the good ones', async () => {
      const { result, previous } = await build(folder(), undefined, readers());
      expect(asked[0]).toBeUndefined();
      expect(result).toMatchObject({ ok: false, step: 'check', packets: ['bad'], exitCode: 1 });
      expect(!result.ok && `${result.diagnostic.code} ${result.diagnostic.hint}`).toMatch(/^PK313 .*`npx packet build <id>\.\.\.`/);
      expect(previous).toBe('previous site');
    });

    it('with ids checks, rehearses, zips and publishes only those: the bad packet outside them never stops the build', async () => {
      const { result, previous, left } = await build(folder(), undefined, { ...readers(), ids: ['other', 'mem', 'other'] });
      expect(result.ok, JSON.stringify(result)).toBe(true);
      expect(asked).toEqual([['other', 'mem'], ['rehearse mem', 'rehearse other']]);
      expect(result.ok && result.packets.map((p) => p.id)).toEqual(['mem', 'other']);
      expect(previous).toBe('<h1>new site</h1>');
      expect(left).toEqual([]);
      const manifest = JSON.parse(await readFile(path.join(root, 'dist/packets.json'), 'utf8')) as { packets: { id: string }[] };
      expect(manifest.packets.map((p) => p.id)).toEqual(['mem', 'other']);
      expect(await readdir(path.join(root, 'dist/zips'))).toEqual(['mem-0.1.0.zip', 'other-0.1.0.zip']);
      expect(await readdir(path.join(root, 'out/reviewer'))).toEqual(['mem-0.1.0.zip', 'other-0.1.0.zip']);
    });

    it('with one id publishes a site of that packet only', async () => {
      const { result } = await build(folder(), undefined, { ...readers(), ids: ['other'] });
      expect(result.ok && result.packets.map((p) => p.id)).toEqual(['other']);
      expect(await readdir(path.join(root, 'dist/zips'))).toEqual(['other-0.1.0.zip']);
      expect(await readdir(path.join(root, 'out/reviewer'))).toEqual(['other-0.1.0.zip']);
    });

    it('an id the folder does not hold stops the build at once with PK114 (exit 2), naming it, and keeps the previous site', async () => {
      for (const says114 of [true, false]) {
        asked = [];
        const { result, reported, previous, left } = await build(folder(says114), undefined, { ...readers(), ids: ['mem', 'nope'] });
        expect(result).toMatchObject({ ok: false, step: 'check', packets: ['nope'], exitCode: 2, diagnostic: { code: 'PK114' } });
        expect(!result.ok && result.diagnostic.message).toContain('"nope"');
        expect(reported.map((d) => d.code)).toEqual(['PK114']);
        expect(asked).toEqual([['mem', 'nope']]);
        expect(previous).toBe('previous site');
        expect(left).toEqual([]);
      }
    });
  });

  it('marks every packet "not rehearsed" without a rehearsal', async () => {
    const { result } = await build({ rehearse: undefined });
    expect(result.ok && result.packets[0]!.rehearsal).toBe('not-rehearsed');
  });

  describe('with a zip cache', () => {
    /** A cache in a folder outside the build's root, which counts what it gave back and what it kept. */
    const counting = (cache: ZipCache) => {
      const seen = { hits: [] as string[], kept: [] as string[] };
      const name = (k: ZipKey) => `${k.kind} ${k.packet.id}`;
      const wrapped: ZipCache = {
        async get(key) {
          const zip = await cache.get(key);
          if (zip) seen.hits.push(name(key));
          return zip;
        },
        async set(key, zip) {
          seen.kept.push(name(key));
          await cache.set(key, zip);
        },
      };
      return { cache: wrapped, seen };
    };
    let cacheDir: string;
    beforeEach(async () => {
      cacheDir = await mkdtemp(path.join(tmpdir(), 'packet-build-cache-'));
    });
    afterEach(() => rm(cacheDir, { recursive: true, force: true }));

    it('reuses the zips of an earlier build, and ships the same bytes', async () => {
      const first = counting(directoryZipCache(cacheDir, 'kit'));
      expect((await build({}, undefined, { zipCache: first.cache })).result.ok).toBe(true);
      expect(first.seen).toEqual({ hits: [], kept: ['candidate mem', 'reviewer mem'] });
      const zipBefore = await readFile(path.join(root, 'dist/zips/mem-0.1.0.zip'));
      const bundleBefore = await readFile(path.join(root, 'out/reviewer/mem-0.1.0.zip'));
      const manifestBefore = await readFile(path.join(root, 'dist/packets.json'), 'utf8');

      const second = counting(directoryZipCache(cacheDir, 'kit'));
      expect((await build({}, undefined, { zipCache: second.cache })).result.ok).toBe(true);
      expect(second.seen).toEqual({ hits: ['candidate mem', 'reviewer mem'], kept: [] });
      expect((await readFile(path.join(root, 'dist/zips/mem-0.1.0.zip'))).equals(zipBefore)).toBe(true);
      expect((await readFile(path.join(root, 'out/reviewer/mem-0.1.0.zip'))).equals(bundleBefore)).toBe(true);
      expect(await readFile(path.join(root, 'dist/packets.json'), 'utf8')).toBe(manifestBefore);
    });

    it('builds the reviewer bundle again for another rehearsal result', async () => {
      await build({}, undefined, { zipCache: directoryZipCache(cacheDir, 'kit') });
      const again = counting(directoryZipCache(cacheDir, 'kit'));
      await build({ rehearse: undefined }, undefined, { zipCache: again.cache });
      expect(again.seen).toEqual({ hits: ['candidate mem'], kept: ['reviewer mem'] });
    });

    it('keeps no zip of a packet that is refused', async () => {
      ({ packet, read } = memPacket(() => ({ 'starter/.env': 'API_KEY=placeholder\n' })));
      const { result } = await build({}, undefined, { zipCache: directoryZipCache(cacheDir, 'kit') });
      expect(result).toMatchObject({ ok: false, step: 'zips' });
      expect(await readdir(cacheDir, { recursive: true })).toEqual([]);
    });
  });

  describe('an output folder that cannot be written', () => {
    // Made so even as root, where a read-only mode does not stop a write: a regular file where a folder must be.
    it('stops before any step with PK318 naming the site folder when its parent is a file (exit 2), leaving nothing', async () => {
      await writeFile(path.join(root, 'blocker'), 'a file, not a folder');
      const { result, left } = await build({}, undefined, { outDir: path.join(root, 'blocker/dist') });
      expect(result).toMatchObject({ ok: false, step: 'publish', exitCode: 2, diagnostic: { code: 'PK318', file: 'blocker/dist' } });
      expect(!result.ok && result.diagnostic.message).toMatch(/^The build could not write blocker\/dist\/: a file stands where a folder should be \(EEXIST\) \(at blocker\)\. Nothing was published/);
      expect(!result.ok && result.diagnostic.hint).toMatch(/^Move that file away, or choose another folder \(--out-dir DIR/);
      expect(left).toEqual([]);
      expect(await readdir(root)).toEqual(['blocker', 'dist']);
    });

    it('names the reviewer folder when it is the one that cannot be written', async () => {
      await writeFile(path.join(root, 'out'), 'a file, not a folder');
      const { result, left, previous } = await build();
      expect(result).toMatchObject({ ok: false, exitCode: 2, diagnostic: { code: 'PK318', file: 'out/reviewer' } });
      expect(left).toEqual([]);
      expect(previous).toBe('previous site');
    });

    it('stops with PK318 when the staging folder vanishes mid-build, and keeps the previous site', async () => {
      const { result, left, previous } = await build({
        buildSite: async ({ outDir }) => {
          await rm(outDir, { recursive: true, force: true });
          return { ok: true, output: '' };
        },
      });
      expect(result).toMatchObject({ ok: false, exitCode: 2, diagnostic: { code: 'PK318', file: 'dist' } });
      expect(!result.ok && result.diagnostic.message).toMatch(/a folder vanished while it was written \(ENOENT\)/);
      expect(left).toEqual([]);
      expect(previous).toBe('previous site');
    });

    it('is refused with PK319 while another live build holds the publish lock, keeping the previous site', async () => {
      await writeFile(path.join(root, '.dist-publish.lock'), `${process.ppid}\n`);
      const { result, previous } = await build();
      expect(result).toMatchObject({ ok: false, step: 'publish', exitCode: 2, diagnostic: { code: 'PK319', file: 'dist' } });
      expect(!result.ok && result.diagnostic.message).toContain(`Another build (process ${process.ppid}) is publishing into dist/`);
      expect(previous).toBe('previous site');
      expect((await readdir(root)).filter((n) => n.startsWith('.'))).toEqual(['.dist-publish.lock']);
    });
  });

  describe('a folder whose mode forbids writing', () => {
    // A mode stops no write of root's, so as root the build runs as an unprivileged user.
    const asUser: { uid?: number; gid?: number } = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    async function buildAsUser(outDir: string): Promise<{ ok: boolean; step?: string; exitCode?: number; code?: string; message?: string; lines: string[] }> {
      if (asUser.uid !== undefined) await chownTree(root, asUser.uid, asUser.gid!);
      for (const [d, mode] of pendingModes.splice(0)) await chmod(d, mode);
      const run = spawnSync(process.execPath, [BUILD_CHILD, root, outDir, 'out/reviewer'], { ...asUser, encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`the build child failed: ${run.stderr}`);
      return JSON.parse(run.stdout);
    }

    it('stops with PK318 (EACCES) when the site folder\'s parent is read-only, exit 2', async () => {
      await mkdir(path.join(root, 'site/dist'), { recursive: true });
      await writeFile(path.join(root, 'site/dist/index.html'), 'previous site');
      await chmodAfterChown(path.join(root, 'site'), 0o555);
      const end = await buildAsUser('site/dist');
      expect(end).toMatchObject({ ok: false, step: 'publish', exitCode: 2, code: 'PK318' });
      expect(end.message).toMatch(/^The build could not write site\/dist\/: permission denied \(EACCES\)/);
      await chmod(path.join(root, 'site'), 0o755);
      expect(await readdir(path.join(root, 'site'))).toEqual(['dist']);
      expect(await readFile(path.join(root, 'site/dist/index.html'), 'utf8')).toBe('previous site');
    });

    it('publishes over a read-only dist/ alone, and names the old copy it could not remove', async () => {
      await mkdir(path.join(root, 'dist/zips'), { recursive: true });
      await writeFile(path.join(root, 'dist/zips/old.zip'), 'old');
      await chmodAfterChown(path.join(root, 'dist'), 0o555);
      const end = await buildAsUser('dist');
      expect(end.ok).toBe(true);
      expect(end.lines.join('')).toMatch(/build: publish {4}could not remove \.dist-old-test \(permission denied \(EACCES\)\): remove it by hand; the next build tries again\n/);
      expect(await readFile(path.join(root, 'dist/index.html'), 'utf8')).toBe('<h1>new site</h1>');
      await chmod(path.join(root, '.dist-old-test'), 0o755);
    });
  });
});

/** A folder's mode, set just before the build runs (after the tree is given to the user, as root). */
const pendingModes: [string, number][] = [];
async function chmodAfterChown(dir: string, mode: number): Promise<void> {
  pendingModes.push([dir, mode]);
}
