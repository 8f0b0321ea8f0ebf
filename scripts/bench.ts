// npm run bench: measurements side by side in one run, printed as ratios.
//   1. rehearsal of the library (no cache) / the same test commands run bare in a shell loop
//   2. warm re-run of the library (cache hit), in seconds
//   3. packet build of the library (rehearsal cached) / a bare Astro build of the same pages
//   4. packet build of 100 and 200 generated packets (--skip-rehearse) / bare Astro builds
//   5. packet grade of N submissions / the same test commands run bare
//   6. the sharded path on 200 generated packets (BENCH_SHARD_PACKETS=n for another number): the sum of three shards' rehearsals (each its own
//      process, one after the other, as three CI runners would run them) plus merge-reports, against
//      one unsharded rehearsal of the same packets: the overhead of sharding, as a ratio
//   7. packet mutate of each packet that ships replies/mutants.md: time per judged mutant / the
//      same test command run bare on the sample
//   8. labs' test tables (scripts/bench-lab.ts): the kit's driver / a sandboxed process per combination
//   9. the CLI's start-up (scripts/bench-cli.ts): --help, explain, new, check <id> and npx packet, beside node -e 0
//  10. variants: a packet of N variants (BENCH_VARIANTS=n, default 3; tests/fixtures/variants/packets/variant-planted)
//      rehearsed (no cache), against its N variants rendered and rehearsed as N plain packets (no scripted replies) in one run: the cost
//      of the variant rehearsal (rendering, the variant folders, the leak checks) over N times one packet, as a ratio
// A packet build does more than Astro: the check, the zips, the search index, the canary scan, the
// reviewer bundles and the publish; the bare build is Astro alone, on the same pages.
// BENCH_ROUNDS=n sets the rounds (default 3; the sharded path: BENCH_SHARD_ROUNDS, default 1, since
// one round rehearses 400 packets); BENCH_ONLY=rehearsal, build, grade, shards, mutate, lab, cli or variants runs one part,
// BENCH_ONLY=generated only the builds of 100 and 200 generated packets.
import { buildOnlyFile } from './bench-pages.ts';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { memoryIo } from '../src/cli/io.ts';
import { runCli } from '../src/cli/run-cli.ts';
import { loadPackets } from '../src/packets/load.ts';
import { codePackets } from '../src/packets/packet.ts';
import { MUTANTS_REPLY } from '../src/packets/packet.ts';
import { parseReply } from '../src/llm/reply-parse.ts';
import { scriptedReplies } from '../src/rehearse/replies.ts';
import { EMPTY_SUBMISSION, loadPacketFiles, prepareWorkspace, type Submission } from '../src/judge/workspace.ts';
import { createInterpreterResolver } from '../src/sandbox/interpreters.ts';
import { packetVariants } from '../src/packets/variants-render.ts';
import { leakPairs } from '../src/rehearse/rehearse-variants.ts';

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
  const { packets: loadedPackets, sources } = await loadPackets({ packetsDir: 'packets', cwd: root });
  const packets = codePackets(loadedPackets);
  const resolver = createInterpreterResolver({ searchPath: process.env.PATH ?? '', env: process.env, tmpDir: tmpdir() });
  const python = await resolver.python();
  if ('error' in python) throw new Error(python.error);
  const scratch = await mkdtemp(path.join(tmpdir(), 'packet-bench-'));
  // The same workspaces the rehearsal runs: floor, sample (+hidden), each mutant (+hidden),
  // and each scripted reply applied to the starter (+hidden).
  const dirs: { dir: string; command: string }[] = [];
  const tree = async (dir: string, name: string, files: readonly string[]) => new Map(await Promise.all(files.map(async (f) => [f, await readFile(path.join(dir, name, f))] as [string, Buffer])));
  for (const packet of packets) {
    const dir = path.join(root, 'packets', sources.find((s) => s.id === packet.id)!.folder);
    const files = await loadPacketFiles(packet, dir);
    const sample = await tree(dir, 'sample', packet.trees.sample);
    const layouts: { submission: Submission; hidden: boolean }[] = [
      { submission: EMPTY_SUBMISSION, hidden: false },
      { submission: { files: sample, deleted: [] }, hidden: true },
    ];
    for (const [name, list] of Object.entries(packet.trees.mutants)) {
      layouts.push({ submission: { files: new Map([...sample, ...(await tree(dir, `mutants/${name}`, list))]), deleted: [] }, hidden: true });
    }
    const starter = new Map<string, string>();
    for (const f of packet.trees.starter) starter.set(f, await readFile(path.join(dir, 'starter', f), 'utf8'));
    for (const reply of scriptedReplies(packet)) {
      const parsed = parseReply(await readFile(path.join(dir, 'replies', `${reply.name}.md`), 'utf8'), starter);
      if (!parsed.ok) throw new Error(`${packet.id}: replies/${reply.name}.md: ${parsed.reason}`);
      layouts.push({ submission: { files: parsed.files, deleted: parsed.deleted }, hidden: true });
    }
    for (const l of layouts) {
      const ws = await prepareWorkspace(files, l.submission, { withHidden: l.hidden, canaries: true, parentDir: scratch, random: Math.random });
      if ('rejected' in ws) throw new Error(`${packet.id}: ${ws.rejected}`);
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

/** The files that differ between a bare Astro build and a packet build's site, leaving out what only the build writes (see bench-pages.ts). */
async function differentPages(bareOut: string, siteOut: string): Promise<string[]> {
  const list = async (dir: string) =>
    (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
      .filter((rel) => !buildOnlyFile(rel))
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

/**
 * Grading: N submissions of one packet (the sample, each with its own notes, zipped), graded with
 * `packet grade` against the same test commands run bare in a shell loop over the same
 * workspaces (starter + submission + hidden tests).
 */
async function benchGrade(): Promise<void> {
  const n = Number(process.env.BENCH_SUBMISSIONS ?? 12);
  const id = 'fetch-retry-ticket';
  const { packets: loadedPackets, sources } = await loadPackets({ packetsDir: 'packets', cwd: root, ids: [id] });
  const packets = codePackets(loadedPackets);
  const packet = packets[0]!;
  const dir = path.join(root, 'packets', sources[0]!.folder);
  const files = await loadPacketFiles(packet, dir);
  const resolver = createInterpreterResolver({ searchPath: process.env.PATH ?? '', env: process.env, tmpDir: tmpdir() });
  const python = await resolver.python();
  if ('error' in python) throw new Error(python.error);
  const scratch = await mkdtemp(path.join(tmpdir(), 'packet-bench-grade-'));
  const subs: string[] = [];
  const dirs: string[] = [];
  const yazl = (await import('yazl')).default;
  for (let i = 0; i < n; i++) {
    const sub = new Map<string, Buffer>();
    for (const f of packet.trees.starter) sub.set(f, await readFile(path.join(dir, 'starter', f)));
    for (const f of packet.trees.sample) sub.set(f, await readFile(path.join(dir, 'sample', f)));
    sub.set('NOTES.md', Buffer.from(`Submission ${i}: retries on 429 and 503 only, doubling waits, three attempts.\n`));
    const zip = new yazl.ZipFile();
    for (const [f, b] of sub) zip.addBuffer(b, `${id}-${packet.prompt.data.version}/${f}`);
    zip.end();
    const chunks: Buffer[] = [];
    for await (const c of zip.outputStream) chunks.push(c as Buffer);
    const file = path.join(scratch, `candidate-${i}.zip`);
    await writeFile(file, Buffer.concat(chunks));
    subs.push(file);
    const ws = await prepareWorkspace(files, { files: sub, deleted: [] }, { withHidden: true, canaries: false, parentDir: scratch, random: Math.random });
    if ('rejected' in ws) throw new Error(ws.rejected);
    dirs.push(ws.dir);
  }
  const loop = dirs.map((d) => `(cd ${JSON.stringify(d)} && ${packet.prompt.data.test}) >/dev/null 2>&1 || true`).join('\n');
  const env = { ...process.env, PATH: `${python.shimDir}:${process.env.PATH}`, PYTHONDONTWRITEBYTECODE: '1' };
  const bare: number[] = [];
  const graded: number[] = [];
  for (let i = 0; i < rounds; i++) {
    bare.push(time(() => execFileSync('bash', ['-c', loop], { env, stdio: 'ignore' })));
    graded.push(time(() => spawnSync(process.execPath, ['src/cli/bin.js', 'grade', id, ...subs, '--out', path.join(scratch, 'grades')], { cwd: root, stdio: 'ignore' })));
  }
  await rm(scratch, { recursive: true, force: true });
  await resolver.dispose();
  const b = median(bare);
  const g = median(graded);
  console.log(`grade: ${n} submissions of ${id}, ${rounds} rounds (medians)`);
  console.log(`  bare shell loop            ${(b / 1000).toFixed(2)} s   (the same test commands, one after another)`);
  console.log(`  packet grade               ${(g / 1000).toFixed(2)} s   (intake, secrets, sandbox, canaries, scorecards; default jobs; includes startup and self-test)`);
  console.log(`  ratio grade / bare         ${(g / b).toFixed(2)}`);
  console.log(`  per submission             ${(g / n).toFixed(0)} ms graded, ${(b / n).toFixed(0)} ms bare`);
}

/**
 * The sharded path: 200 generated packets rehearsed once unsharded and once as three shards plus
 * merge-reports, each command its own process, no cache. The rounds alternate which goes first.
 * The merged report's statuses must equal the unsharded one's, or the comparison is void.
 */
async function benchShards(): Promise<void> {
  const shardRounds = Number(process.env.BENCH_SHARD_ROUNDS ?? 1);
  const total = Number(process.env.BENCH_SHARD_PACKETS ?? 200);
  const count = 3;
  // Inside the project, not in the shared temporary folder, whose cleaners do not know a bench runs for half an hour.
  const scratch = path.join(root, 'node_modules', '.cache', 'packet-kit', `bench-shards-${process.pid}`);
  await mkdir(scratch, { recursive: true });
  const packetsDir = path.join(scratch, 'packets');
  try {
    for (let i = 1; i <= total; i++) {
      const io = memoryIo(root);
      if ((await runCli(['new', `gen-${String(i).padStart(3, '0')}`, '--packets', packetsDir], io)) !== 0) throw new Error(io.stderr);
    }
    const jobs = process.env.BENCH_JOBS ? ['--jobs', process.env.BENCH_JOBS] : [];
    // Wall time, and CPU time (user + system) of the command and everything it waited for (the
    // sandboxes and the tests in them), read from bash's `times`: CPU time holds on a shared
    // machine where wall time follows the neighbours' load.
    const measure = (args: string[], ok: readonly number[] = [0]): { wall: number; cpu: number } => {
      const t0 = performance.now();
      const log = path.join(scratch, 'stderr.log');
      const r = spawnSync('bash', ['-c', 'log=$1; shift; "$@" >/dev/null 2>"$log"; s=$?; times >&2; exit $s', 'bash', log, process.execPath, ...args], { cwd: root, encoding: 'utf8' });
      const wall = performance.now() - t0;
      if (!ok.includes(r.status ?? -1)) throw new Error(`${args.join(' ')} exited ${r.status}:\n${readFileSync(log, 'utf8')}`);
      const children = r.stderr.trim().split('\n').at(-1)!.split(/\s+/).map((x) => {
        const m = /^(\d+)m([\d.]+)s$/.exec(x);
        return m ? Number(m[1]) * 60_000 + Number(m[2]) * 1000 : 0;
      });
      return { wall, cpu: children.reduce((a, b) => a + b, 0) };
    };
    const rehearse = (report: string, extra: string[]) =>
      measure(['src/cli/bin.js', 'rehearse', '--packets', packetsDir, '--no-cache', '--report', report, '--out', path.join(scratch, 'receipts'), ...jobs, ...extra], [0, 1]);
    const whole: { wall: number; cpu: number }[] = [];
    const sharded: { wall: number; cpu: number }[] = [];
    const perShard: { wall: number; cpu: number }[][] = [];
    const merges: number[] = [];
    for (let round = 0; round < shardRounds; round++) {
      const one = () => whole.push(rehearse(path.join(scratch, 'whole.json'), []));
      const shards = () => {
        const times = Array.from({ length: count }, (_, k) => rehearse(path.join(scratch, `shard-${k + 1}.json`), ['--shard', `${k + 1}/${count}`]));
        const files = times.map((_, k) => path.join(scratch, `shard-${k + 1}.json`));
        const merge = measure(['src/cli/bin.js', 'merge-reports', ...files, '--out', path.join(scratch, 'merged.json')]);
        perShard.push(times);
        merges.push(merge.wall);
        sharded.push({ wall: times.reduce((a, b) => a + b.wall, 0) + merge.wall, cpu: times.reduce((a, b) => a + b.cpu, 0) + merge.cpu });
      };
      if (round % 2 === 0) {
        one();
        shards();
      } else {
        shards();
        one();
      }
    }
    const statuses = async (file: string) => (JSON.parse(await readFile(file, 'utf8')) as { packets: { id: string; status: string }[] }).packets.map((p) => `${p.id} ${p.status}`);
    const [a, b] = [await statuses(path.join(scratch, 'whole.json')), await statuses(path.join(scratch, 'merged.json'))];
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error('the merged report does not hold the unsharded statuses: the comparison would not be fair');
    const sizes = (JSON.parse(await readFile(path.join(scratch, 'merged.json'), 'utf8')) as { merged: { shards: { packets: number }[] } }).merged.shards.map((s) => s.packets);
    const w = median(whole.map((x) => x.wall));
    const s = median(sharded.map((x) => x.wall));
    const wc = median(whole.map((x) => x.cpu));
    const sc = median(sharded.map((x) => x.cpu));
    const last = perShard.at(-1)!;
    console.log(`shards: ${total} generated packets, ${count} shards of ${sizes.join(' + ')}, ${shardRounds} round${shardRounds === 1 ? '' : 's'} (medians), no cache`);
    console.log(`  one unsharded rehearsal      ${(w / 1000).toFixed(2)} s wall, ${(wc / 1000).toFixed(2)} s CPU`);
    console.log(`  ${count} shards one after another  ${(s / 1000).toFixed(2)} s wall, ${(sc / 1000).toFixed(2)} s CPU   (${last.map((x) => (x.wall / 1000).toFixed(1)).join(' + ')} s, merge-reports ${(median(merges) / 1000).toFixed(2)} s)`);
    console.log(`  ratio sum of shards / one    ${(s / w).toFixed(2)} wall, ${(sc / wc).toFixed(2)} CPU   (the overhead of sharding: each shard starts a process, checks the sandbox, loads every packet)`);
    console.log(`  longest shard / one run      ${(Math.max(...last.map((x) => x.wall)) / w).toFixed(2)}   (the wall time on ${count} runners, without setup)`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** `packet mutate` on each packet with scripted mutants: the time per judged mutant against the bare test command on the sample's workspace. */
async function benchMutate(): Promise<void> {
  const { packets: loadedPackets, sources } = await loadPackets({ packetsDir: 'packets', cwd: root });
  const packets = codePackets(loadedPackets);
  const resolver = createInterpreterResolver({ searchPath: process.env.PATH ?? '', env: process.env, tmpDir: tmpdir() });
  const python = await resolver.python();
  if ('error' in python) throw new Error(python.error);
  const scratch = await mkdtemp(path.join(tmpdir(), 'packet-bench-mutate-'));
  const env = { ...process.env, PATH: `${python.shimDir}:${process.env.PATH}`, PYTHONDONTWRITEBYTECODE: '1' };
  try {
    for (const packet of packets.filter((p) => p.trees.replies.includes(MUTANTS_REPLY))) {
      const dir = path.join(root, 'packets', sources.find((s) => s.id === packet.id)!.folder);
      const files = await loadPacketFiles(packet, dir);
      const sample = new Map(await Promise.all(packet.trees.sample.map(async (f) => [f, await readFile(path.join(dir, 'sample', f))] as [string, Buffer])));
      const ws = await prepareWorkspace(files, { files: sample, deleted: [] }, { withHidden: true, canaries: true, parentDir: scratch, random: Math.random });
      if ('rejected' in ws) throw new Error(`${packet.id}: ${ws.rejected}`);
      const bare: number[] = [];
      const perMutant: number[] = [];
      const walls: number[] = [];
      let summary = '';
      for (let i = 0; i < rounds; i++) {
        bare.push(time(() => spawnSync('bash', ['-c', `cd ${JSON.stringify(ws.dir)} && ${packet.prompt.data.test}`], { env, stdio: 'ignore' })));
        const out = path.join(scratch, `${packet.id}-${i}`);
        const wall = time(() => node(['src/cli/bin.js', 'mutate', packet.id, '--out', out, '--format', 'json', ...(process.env.BENCH_JOBS ? ['--jobs', process.env.BENCH_JOBS] : [])]));
        const report = JSON.parse(await readFile(path.join(out, 'report.json'), 'utf8')) as { timing: { perMutantMs: number }; summary: { killed: number; survived: number; crashed: number; invalid: number; proposed: number; score: number } };
        perMutant.push(report.timing.perMutantMs);
        walls.push(wall);
        const s = report.summary;
        summary = `${s.proposed} mutants: ${s.killed} killed, ${s.survived} survived, ${s.crashed} crashed, ${s.invalid} invalid; score ${s.score}%`;
      }
      await ws.dispose();
      const b = median(bare);
      const m = median(perMutant);
      console.log(`mutate: ${packet.id}, ${summary}, ${rounds} rounds (medians)`);
      console.log(`  bare test command on the sample ${b.toFixed(0)} ms`);
      console.log(`  per judged mutant              ${m.toFixed(0)} ms   (sandboxed, canaries, judged; mutants run ${process.env.BENCH_JOBS ?? 'default'} at once)`);
      console.log(`  ratio mutant / bare            ${(m / b).toFixed(2)}`);
      console.log(`  packet mutate, whole command   ${(median(walls) / 1000).toFixed(2)} s   (startup, self-test, the sample's run, the contract read, reports)`);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await resolver.dispose();
  }
}

/**
 * Variants: one packet of N variants rehearsed, against the same N variants as N plain packets (each
 * variant's rendered files, its prompt without the `variants` field) rehearsed in one run. Both
 * runs start the CLI once and rehearse the same floor, sample and mutant workspaces; the variant
 * run also renders the variants, writes their folders and runs the leak checks.
 */
async function benchVariants(): Promise<void> {
  const n = Number(process.env.BENCH_VARIANTS ?? 3);
  const id = 'variant-planted';
  const fixture = path.join(root, 'tests/fixtures/variants/packets', id);
  const scratch = await mkdtemp(path.join(tmpdir(), 'packet-bench-variants-'));
  try {
    const varied = path.join(scratch, 'varied');
    const plain = path.join(scratch, 'plain');
    const files = (await readdir(fixture, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
    for (const e of files) {
      const rel = path.relative(fixture, path.join(e.parentPath, e.name));
      await mkdir(path.dirname(path.join(varied, id, rel)), { recursive: true });
      await copyFile(path.join(fixture, rel), path.join(varied, id, rel));
    }
    const prompt = path.join(varied, id, 'prompt.mdx');
    await writeFile(prompt, (await readFile(prompt, 'utf8')).replace(/^  count: \d+$/m, `  count: ${n}`));
    const loaded = await loadPackets({ packetsDir: varied, cwd: root, ids: [id] });
    const packet = codePackets(loaded.packets)[0];
    if (!packet) throw new Error(`${id}: ${loaded.diagnostics.map((d) => d.message).join('; ')}`);
    const rendered = await packetVariants(packet, async (rel) => new Uint8Array(await readFile(path.join(varied, id, rel))));
    for (const r of rendered) {
      if (!r.variant) throw new Error(`${id} ${r.id} does not render`);
      for (const [rel, bytes] of r.variant.files) {
        // A plain packet: the rendered prompt without its `variants` field, and without the scripted
        // replies, which a variant's rehearsal does not run (docs/variants.md), so both do the same checks.
        if (rel.startsWith('replies/')) continue;
        const target = path.join(plain, `${id}-${r.id}`, rel);
        await mkdir(path.dirname(target), { recursive: true });
        const decoded = new TextDecoder().decode(bytes);
        const text = rel === 'prompt.mdx' ? decoded.replace(/^variants:\n(?:  .*\n)+/m, '') : rel === 'failures.mdx' ? decoded.replace(/^    reply: .*\n/gm, '') : undefined;
        await writeFile(target, text ?? bytes);
      }
    }
    const cli = (packetsDir: string) =>
      time(() => {
        const status = spawnSync(process.execPath, ['src/cli/bin.js', 'rehearse', '--packets', packetsDir, '--no-cache', ...(process.env.BENCH_JOBS ? ['--jobs', process.env.BENCH_JOBS] : []), '--report', path.join(scratch, 'report.json')], { cwd: root, stdio: 'ignore' }).status;
        if (status !== 0) throw new Error(`packet rehearse --packets ${packetsDir} exited ${status}`);
      });
    const v: number[] = [];
    const p: number[] = [];
    for (let i = 0; i < rounds; i++) {
      v.push(cli(varied));
      p.push(cli(plain));
    }
    const [vm, pm] = [median(v), median(p)];
    console.log(`variants: ${id}, ${n} variants (${leakPairs(n).length} leak checks), ${rounds} rounds (medians, --no-cache)`);
    console.log(`  ${n} plain packets, one run     ${(pm / 1000).toFixed(2)} s   (N times one packet)`);
    console.log(`  one packet of ${n} variants     ${(vm / 1000).toFixed(2)} s`);
    console.log(`  ratio variants / N x one      ${(vm / pm).toFixed(2)}   (target <= 1.2)`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

const only = process.env.BENCH_ONLY;
if (!only || only === 'rehearsal') await benchRehearsal();
if (!only || only === 'build' || only === 'generated') await benchBuild(only === 'generated');
if (!only || only === 'grade') await benchGrade();
if (!only || only === 'shards') await benchShards();
if (!only || only === 'mutate') await benchMutate();
if (!only || only === 'lab') await (await import('./bench-lab.ts')).benchLab();
if (!only || only === 'cli') await (await import('./bench-cli.ts')).benchCli();
if (!only || only === 'variants') await benchVariants();
