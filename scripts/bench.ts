// npm run bench: measurements side by side in one run, printed as ratios.
//   1. rehearsal of the library (no cache) / the same test commands run bare in a shell loop
//   2. warm re-run of the library (cache hit), in seconds
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadPackets } from '../src/packets/load.ts';
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
  // The same workspaces the rehearsal runs: floor, sample (+hidden), each mutant (+hidden).
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
  }
  const loop = dirs.map((d) => `(cd ${JSON.stringify(d.dir)} && ${d.command}) >/dev/null 2>&1 || true`).join('\n');
  const env = { ...process.env, PATH: `${python.shimDir}:${process.env.PATH}`, PYTHONDONTWRITEBYTECODE: '1' };
  const cli = (args: string[]) =>
    spawnSync(process.execPath, ['bin/packet.js', 'rehearse', ...args, '--report', path.join(scratch, 'report.json')], { cwd: root, stdio: 'ignore' }).status;

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

await benchRehearsal();
