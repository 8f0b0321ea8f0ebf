// npm run bench: measurements side by side in one run, printed as ratios.
//   1. rehearsal of the library (no cache) / the same test commands run bare in a shell loop
//   2. warm re-run of the library (cache hit), in seconds
//   3. packet build of the library (rehearsal cached) / a bare Astro build of the same pages
//   4. packet build of 100 and 200 generated packets (--skip-rehearse) / bare Astro builds
// A packet build does more than Astro: the check, the zips, the search index, the canary scan, the
// reviewer bundles and the publish; the bare build is Astro alone, on the same pages.
// BENCH_ROUNDS=n sets the rounds (default 3); BENCH_ONLY=rehearsal or BENCH_ONLY=build runs one part,
// BENCH_ONLY=generated only the builds of 100 and 200 generated packets.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { memoryIo } from '../src/cli/io.ts';
import { runCli } from '../src/cli/run-cli.ts';
import { loadPackets } from '../src/packets/load.ts';
import { parseReply } from '../src/llm/reply-parse.ts';
import { scriptedReplies } from '../src/rehearse/replies.ts';
import { composeWorkspace } from '../src/rehearse/workspace.ts';
import { createInterpreterResolver } from '../src/sandbox/interpreters.ts';

const root = path.resolve(import.meta.dirname, '..');
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function time(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

async function benchRehearsal(): Promise<void> {
  const { packets, sources } = await loadPackets({ packetsDir: 'packets', cwd: root });
  const resolver = createInterpreterResolver({ searchPath: process.env.PATH ?? '', env: process.env, tmpDir: tmpdir() });
  const python = await resolver.python();
  if ('error' in python) throw new Error(python.error);
  const scratch = await mkdtemp(path.join(tmpdir(), 'packet-bench-'));
  // The same workspaces the rehearsal runs: floor, sample (+hidden), each mutant (+hidden),
  // and each scripted reply applied to the starter (+hidden).
  const dirs: { dir: string; command: string }[] = [];
  for (const packet of packets) {
    const dir = path.join(root, 'packets', sources.find((s) => s.id === packet.id)!.folder);
    const sample = { tree: 'sample', files: packet.trees.sample };
    const layouts = [
      { layers: [], hidden: false },
      { layers: [sample], hidden: true },
      ...Object.entries(packet.trees.mutants).map(([name, files]) => ({ layers: [sample, { tree: `mutants/${name}`, files }], hidden: true })),
    ];
    for (const l of layouts) {
      const ws = await composeWorkspace(packet, dir, l.layers, { withHidden: l.hidden, parentDir: scratch });
      dirs.push({ dir: ws.dir, command: packet.prompt.data.test });
    }
    const starter = new Map<string, string>();
    for (const f of packet.trees.starter) starter.set(f, await readFile(path.join(dir, 'starter', f), 'utf8'));
    for (const reply of scriptedReplies(packet)) {
      const parsed = parseReply(await readFile(path.join(dir, 'replies', `${reply.name}.md`), 'utf8'), starter);
      if (!parsed.ok) throw new Error(`${packet.id}: replies/${reply.name}.md: ${parsed.reason}`);
      const ws = await composeWorkspace(packet, dir, [{ memory: parsed.files }], { withHidden: true, parentDir: scratch });
      dirs.push({ dir: ws.dir, command: packet.prompt.data.test });
    }
  }
  const loop = dirs.map((d) => `(cd ${JSON.stringify(d.dir)} && ${d.command}) >/dev/null 2>&1 || true`).join('\n');
  const env = { ...process.env, PATH: `${python.shimDir}:${process.env.PATH}`, PYTHONDONTWRITEBYTECODE: '1' };
  const cli = (args: string[]) =>
    spawnSync(process.execPath, ['src/cli/bin.js', 'rehearse', ...args, ...(process.env.BENCH_JOBS ? ['--jobs', process.env.BENCH_JOBS] : []), '--report', path.join(scratch, 'report.json')], { cwd: root, stdio: 'ignore' }).status;

  const bare: number[] = [];
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < rounds; i++) {
    bare.push(time(() => execFileSync('bash', ['-c', loop], { env, stdio: 'ignore' })));
    cold.push(time(() => cli(['--no-cache'])));
    warm.push(time(() => cli([])));
  }
  await rm(scratch, { recursive: true, force: true });
  await resolver.dispose();
  const b = median(bare);
  const c = median(cold);
  const w = median(warm);
  console.log(`rehearsal: ${packets.length} packets, ${dirs.length} test runs, ${rounds} rounds (medians)`);
  console.log(`  bare shell loop           ${(b / 1000).toFixed(2)} s`);
  console.log(`  packet rehearse --no-cache ${(c / 1000).toFixed(2)} s   (sandboxed, ${process.env.BENCH_JOBS ?? 'default'} jobs, includes startup and self-test)`);
  console.log(`  ratio rehearse / bare      ${(c / b).toFixed(2)}   (target <= 1.15)`);
  console.log(`  warm re-run (cached)       ${(w / 1000).toFixed(2)} s   (target < 2 s)`);
}

/** Run a command with the pinned Node; throws on a non-zero exit, with its output. Returns its standard output. */
function node(args: string[], env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync(process.execPath, args, { cwd: root, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** The step times a build printed (`build: zips ... (0.7 s)`), in seconds; a step printed twice adds up. */
function stepTimes(stdout: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of stdout.matchAll(/^build: (\w+)\s.*\((\d+(?:\.\d+)?) s\)$/gm)) out.set(m[1]!, (out.get(m[1]!) ?? 0) + Number(m[2]));
  return out;
}

/** The files that differ between a bare Astro build and a packet build's site, leaving out what only the build writes (zips, manifest, search index). */
async function differentPages(bareOut: string, siteOut: string): Promise<string[]> {
  const list = async (dir: string) =>
    (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
      .filter((rel) => rel !== 'packets.json' && !rel.startsWith(`zips${path.sep}`) && !rel.startsWith(`pagefind${path.sep}`))
      .sort();
  const [a, b] = [await list(bareOut), await list(siteOut)];
  const out = [...a.filter((f) => !b.includes(f)), ...b.filter((f) => !a.includes(f))];
  // Shiki now and then splits a code line into tokens differently, even between two bare builds of
  // the same pages: highlighted HTML is compared without its token spans.
  const read = async (dir: string, f: string) => {
    const text = await readFile(path.join(dir, f), 'utf8');
    return f.endsWith('.html') ? text.replace(/<\/?span[^>]*>/g, '') : text;
  };
  for (const f of a.filter((x) => b.includes(x))) if ((await read(bareOut, f)) !== (await read(siteOut, f))) out.push(f);
  return out;
}

/**
 * One measurement of the build against a bare Astro build of the same pages: the same packets
 * and the same manifest (from the build), the same astro.config.mjs and src/pages (the bare
 * build's pages are the build's, byte for byte). Each round runs both, one after the other, the
 * first one alternating, so a noisy neighbour and a warm disk cache favour neither; medians are
 * printed, with the median time of each step of the build as it reports them. The builds
 * measured are warm ones, as a build after an edit mostly is: the first build (not measured)
 * fills the rehearsal cache and the zip cache, and writes the manifest the bare build reads.
 */
async function measureBuild(label: string, packetsDir: string, buildArgs: string[]): Promise<{ build: number; bare: number; pages: number; zips: number[] }> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'packet-bench-build-'));
  const out = path.join(scratch, 'dist');
  const steps = new Map<string, number[]>();
  const build = () =>
    node(['src/cli/bin.js', 'build', '--packets', packetsDir, '--out-dir', out, '--reviewer-dir', path.join(scratch, 'reviewer'), '--report', path.join(scratch, 'report.json'), ...buildArgs]);
  const bareEnv = { ...process.env, PACKET_KIT_PACKETS: packetsDir, PACKET_KIT_MANIFEST: path.join(scratch, 'packets.json'), ASTRO_TELEMETRY_DISABLED: '1' };
  // Inside the project: Astro keeps the prerender chunks of an outDir outside it in <root>/.astro/,
  // shared with any other build running then (see src/bundle/site-build.ts).
  const bareOut = path.join(root, 'node_modules', '.cache', 'packet-kit', `bench-bare-${process.pid}`);
  const bare = () => node(['node_modules/astro/bin/astro.mjs', 'build', '--outDir', bareOut, '--silent'], bareEnv);
  build(); // warm: the rehearsal cache, the zip cache, the disk cache, and the manifest the bare build reads
  await copyFile(path.join(out, 'packets.json'), path.join(scratch, 'packets.json'));
  const builds: number[] = [];
  const bares: number[] = [];
  const timedBuild = () => {
    let stdout = '';
    builds.push(time(() => (stdout = build())));
    for (const [step, s] of stepTimes(stdout)) steps.set(step, [...(steps.get(step) ?? []), s]);
  };
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      bares.push(time(bare));
      timedBuild();
    } else {
      timedBuild();
      bares.push(time(bare));
    }
  }
  const differ = await differentPages(bareOut, out);
  if (differ.length) throw new Error(`the bare build did not build the same pages as packet build (${differ.slice(0, 5).join(', ')}): the comparison would not be fair`);
  const manifest = JSON.parse(await readFile(path.join(out, 'packets.json'), 'utf8')) as { packets: { size: number }[] };
  const pages = spawnSync('find', [out, '-name', '*.html'], { encoding: 'utf8' }).stdout.trim().split('\n').length;
  await rm(scratch, { recursive: true, force: true });
  await rm(bareOut, { recursive: true, force: true });
  const b = median(builds);
  const r = median(bares);
  console.log(`build: ${label}, ${pages} pages, ${rounds} rounds (medians)`);
  console.log(`  bare astro build           ${(r / 1000).toFixed(2)} s`);
  console.log(`  packet build ${buildArgs.includes('--skip-rehearse') ? '(no rehearsal)' : '(rehearsal cached)'} ${(b / 1000).toFixed(2)} s`);
  console.log(`  ratio build / bare         ${(b / r).toFixed(2)}   (target <= 1.3)`);
  console.log(`  steps (medians, overlapping) ${[...steps].map(([step, xs]) => `${step} ${median(xs).toFixed(1)} s`).join(', ')}`);
  return { build: b, bare: r, pages, zips: manifest.packets.map((p) => p.size) };
}

async function benchBuild(generatedOnly: boolean): Promise<void> {
  if (!generatedOnly) {
    const lib = await measureBuild('the library', path.join(root, 'packets'), []);
    const sizes = [...lib.zips].sort((a, b) => a - b);
    console.log(`  candidate zips             ${sizes.length}, ${(sizes.reduce((a, b) => a + b, 0) / 1024).toFixed(1)} KiB in all, ${(sizes[0]! / 1024).toFixed(1)}-${(sizes.at(-1)! / 1024).toFixed(1)} KiB each`);
  }
  const generated = await mkdtemp(path.join(tmpdir(), 'packet-bench-gen-'));
  const points: { n: number; build: number; bare: number }[] = [];
  try {
    for (const n of [100, 200]) {
      const packetsDir = path.join(generated, `p${n}`);
      for (let i = 1; i <= n; i++) {
        const io = memoryIo(root);
        if ((await runCli(['new', `gen-${String(i).padStart(3, '0')}`, '--packets', packetsDir], io)) !== 0) throw new Error(io.stderr);
      }
      const m = await measureBuild(`${n} generated packets`, packetsDir, ['--skip-rehearse']);
      points.push({ n, build: m.build, bare: m.bare });
    }
  } finally {
    await rm(generated, { recursive: true, force: true });
  }
  const [a, b] = points as [(typeof points)[0], (typeof points)[0]];
  const per = (x: number, y: number) => ((y - x) / (b.n - a.n)).toFixed(1);
  console.log(`build: growth from ${a.n} to ${b.n} packets (linear if the per-packet cost holds)`);
  console.log(`  packet build               +${((b.build - a.build) / 1000).toFixed(2)} s, ${per(a.build, b.build)} ms per packet`);
  console.log(`  bare astro build           +${((b.bare - a.bare) / 1000).toFixed(2)} s, ${per(a.bare, b.bare)} ms per packet`);
}

const only = process.env.BENCH_ONLY;
if (!only || only === 'rehearsal') await benchRehearsal();
if (!only || only === 'build' || only === 'generated') await benchBuild(only === 'generated');
