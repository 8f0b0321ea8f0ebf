// BENCH_ONLY=lab npm run bench: a lab's test table, every combination of its suggestions, computed
//   1. the kit's way: one sandbox run per lab, a driver that imports unittest once and runs the
//      combinations in forked workers, a batch each (the default);
//   2. the same driver with a fork per combination (batch 1: the plain way to isolate combinations);
//   3. naively: one sandbox run per combination, a fresh `python3 -m unittest` each, one after the other.
// Printed side by side with the ratio naive / kit (target >= 5). BENCH_LABS=a,b picks the labs
// (default: every lab of the library with at most 81 combinations); BENCH_ROUNDS=n the rounds (default 1).
import path from 'node:path';
import { analyseTests } from '../src/judge/judge.ts';
import { runTests, type TestRunner } from '../src/judge/run-tests.ts';
import { loadPacketFiles, prepareWorkspace, type PacketFiles } from '../src/judge/workspace.ts';
import { precomputeLab } from '../src/labs/precompute.ts';
import { allPass, type LabTable } from '../src/labs/table.ts';
import { composeLab, statesOfIndex } from '../src/packets/lab-compose.ts';
import { loadPackets } from '../src/packets/load.ts';
import { packetsOfKind } from '../src/packets/packet.ts';
import { openRunContext } from '../src/runs/context.ts';

const root = path.resolve(import.meta.dirname, '..');
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Every combination of a lab, one sandbox run each, sequentially; whether each was green. */
async function naive(files: PacketFiles, runner: TestRunner, scratch: string): Promise<boolean[]> {
  const packet = files.packet;
  if (packet.kind !== 'lab' || !packet.lab) throw new Error(`${packet.id} is not a lab with resolved suggestions`);
  const lab = packet.lab;
  const out: boolean[] = [];
  for (let index = 0; index < 3 ** lab.suggestions.length; index++) {
    const submission = { files: composeLab(lab, statesOfIndex(index, lab.suggestions.length)), deleted: [] };
    const ws = await prepareWorkspace(files, submission, { withHidden: true, canaries: false, parentDir: scratch, random: Math.random });
    if ('rejected' in ws) throw new Error(ws.rejected);
    try {
      const run = await runTests(runner, ws.dir, files.packet.prompt.data.test, ws.readOnly);
      const tests = analyseTests({ expected: ws.expected, testFiles: ws.testFiles, canaries: [], run });
      out.push(tests.findings.length === 0);
    } finally {
      await ws.dispose();
    }
  }
  return out;
}

export async function benchLab(): Promise<void> {
  const { packets: loadedPackets, sources } = await loadPackets({ packetsDir: 'packets', cwd: root });
  const packets = packetsOfKind(loadedPackets, 'lab');
  const wanted = process.env.BENCH_LABS?.split(',');
  const labs = packets.filter((p) => p.lab && (wanted ? wanted.includes(p.id) : 3 ** p.lab.suggestions.length <= 81));
  if (!labs.length) throw new Error('no lab to measure');
  // The sandbox in a scratch root of the run's own, as every command has it.
  const ctx = openRunContext('bench', { env: process.env, cwd: root, now: () => new Date() }, { unconfined: false, packets: 'packets' })!;
  const made = await ctx.sandbox();
  if (!made.ok) throw new Error(made.diagnostic.message);
  const env = made.ready.environment;
  const runner: TestRunner = made.ready.runner(60_000);
  const scratch = made.ready.scratchDir;
  const all = await Promise.all(labs.map((p) => loadPacketFiles(p, path.join(root, 'packets', sources.find((s) => s.id === p.id)!.folder))));
  const combos = labs.reduce((n, p) => n + 3 ** p.lab!.suggestions.length, 0);
  const kit: number[] = [];
  const forks: number[] = [];
  const bare: number[] = [];
  let agree = true;
  try {
    for (let r = 0; r < rounds; r++) {
      let t0 = performance.now();
      const tables: LabTable[] = [];
      for (const files of all) {
        const result = await precomputeLab({ files, runner, scratchDir: scratch });
        if ('error' in result) throw new Error(`${files.packet.id}: ${result.error}`);
        tables.push(result.table);
      }
      kit.push(performance.now() - t0);
      t0 = performance.now();
      for (const files of all) {
        const result = await precomputeLab({ files, runner, scratchDir: scratch, batch: 1 });
        if ('error' in result) throw new Error(`${files.packet.id}: ${result.error}`);
      }
      forks.push(performance.now() - t0);
      t0 = performance.now();
      for (const [i, files] of all.entries()) {
        const greens = await naive(files, runner, scratch);
        // The kit's table and the naive runs must say the same about every combination.
        greens.forEach((green, index) => {
          const c = tables[i]!.combinations[index]!;
          if (green !== (allPass(c.visible) && allPass(c.hidden))) agree = false;
        });
      }
      bare.push(performance.now() - t0);
    }
  } finally {
    await ctx.dispose();
  }
  const k = median(kit);
  const f = median(forks);
  const b = median(bare);
  const per = (ms: number) => `${(ms / combos).toFixed(1)} ms a combination`;
  console.log(`lab tables: ${labs.map((p) => p.id).join(', ')}: ${combos} combinations, ${rounds} round${rounds === 1 ? '' : 's'} (medians), sandbox ${env.sandbox.kind}`);
  console.log(`  naive: a sandboxed python3 -m unittest per combination  ${(b / 1000).toFixed(2)} s   (${per(b)})`);
  console.log(`  driver, a fork per combination (batch 1)                ${(f / 1000).toFixed(2)} s   (${per(f)})`);
  console.log(`  driver, batches in forked workers (the kit's default)   ${(k / 1000).toFixed(2)} s   (${per(k)})`);
  console.log(`  ratio naive / fork per combination                      ${(b / f).toFixed(2)}`);
  console.log(`  ratio naive / kit                                       ${(b / k).toFixed(2)}   (target >= 5)`);
  console.log(`  the table and the naive runs agree on every combination: ${agree ? 'yes' : 'NO'}`);
}
