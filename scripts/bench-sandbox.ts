// npx node scripts/bench-sandbox.ts (BENCH_RUNS, default 40): what the sandbox costs per run,
// measured side by side in one process and printed in milliseconds (medians):
//   1. createSandbox (probe + confinement self-test), the price of every CLI start
//   2. `true` and `python3 -c pass` in a small work directory (a packet's starter tree):
//      unconfined (a plain process group) against bubblewrap; the difference is the overhead
// Runs alternate between the two, so a noisy neighbour favours neither.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadPackets } from '../src/packets/load.ts';
import { codePackets } from '../src/packets/packet.ts';
import { EMPTY_SUBMISSION, loadPacketFiles, prepareWorkspace } from '../src/judge/workspace.ts';
import { createSandbox } from '../src/sandbox/create.ts';
import { createInterpreterResolver } from '../src/sandbox/interpreters.ts';
import type { RunSpec, Sandbox } from '../src/sandbox/types.ts';
import { createUnconfinedSandbox } from '../src/sandbox/unconfined.ts';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.env.BENCH_RUNS ?? 40);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const resolver = createInterpreterResolver({ searchPath: process.env.PATH ?? '', env: process.env, tmpDir: tmpdir() });
const python = await resolver.python();
if ('error' in python) throw new Error(python.error);
const scratch = await mkdtemp(path.join(tmpdir(), 'packet-bench-sandbox-'));
try {
  const created: number[] = [];
  let sandbox: Sandbox | undefined;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const result = await createSandbox({ allowUnconfined: false, selfTestMounts: python.mounts, tmpDir: scratch });
    created.push(performance.now() - t0);
    if (!result.ok) throw new Error(result.error.message);
    await sandbox?.dispose?.();
    sandbox = result.sandbox;
  }
  const bwrap = sandbox!;
  const unconfined = createUnconfinedSandbox();

  const { packets: loadedPackets, sources } = await loadPackets({ packetsDir: 'packets', cwd: root });

  const packets = codePackets(loadedPackets);
  const packet = packets[0]!;
  const packetDir = path.join(root, 'packets', sources.find((s) => s.id === packet.id)!.folder);
  const ws = await prepareWorkspace(await loadPacketFiles(packet, packetDir), EMPTY_SUBMISSION, { withHidden: true, canaries: false, parentDir: scratch, random: Math.random });
  if ('rejected' in ws) throw new Error(ws.rejected);

  const measure = async (command: string) => {
    const times = { unconfined: [] as number[], bubblewrap: [] as number[] };
    const spec: RunSpec = { workdir: ws.dir, command, ...python.mounts, readOnlyInWorkdir: ws.readOnly };
    for (let i = 0; i < runs; i++) {
      for (const [name, box] of (i % 2 ? [['unconfined', unconfined], ['bubblewrap', bwrap]] : [['bubblewrap', bwrap], ['unconfined', unconfined]]) as [keyof typeof times, Sandbox][]) {
        const t0 = performance.now();
        const result = await box.run(spec);
        times[name].push(performance.now() - t0);
        if (result.error || result.exitCode !== 0) throw new Error(`${name}: ${command}: ${result.error ?? result.stderr}`);
      }
    }
    const u = median(times.unconfined);
    const b = median(times.bubblewrap);
    console.log(`  ${command.padEnd(22)} unconfined ${u.toFixed(1)} ms, bubblewrap ${b.toFixed(1)} ms, overhead ${(b - u).toFixed(1)} ms`);
  };
  console.log(`sandbox: ${runs} runs each (medians), work directory: ${packet.id} (${ws.before.size} candidate files, ${ws.mounted.size} protected)`);
  console.log(`  createSandbox (self-test) ${median(created).toFixed(1)} ms`);
  await measure('true');
  await measure('python3 -c pass');
  await bwrap.dispose?.();
} finally {
  await rm(scratch, { recursive: true, force: true });
  await resolver.dispose();
}
