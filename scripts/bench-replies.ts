// npx node scripts/bench-replies.ts (BENCH_ROUNDS, BENCH_JOBS): what the scripted replies add to
// a rehearsal of the library, measured side by side in one run and printed as a ratio:
//   1. rehearsal without the reply checks / with them (no cache, same pool), as a ratio
//   2. one model call through the kit's client against the embedded endpoint (no sandbox), in ms
import path from 'node:path';
import { createMeter } from '../src/llm/budget.ts';
import { createModelClient } from '../src/llm/client.ts';
import { createLedger } from '../src/llm/ledger.ts';
import { DEFAULT_RETRY_POLICY } from '../src/llm/retry.ts';
import { systemClock } from '../src/runs/turn-loop.ts';
import { loadPackets } from '../src/packets/load.ts';
import { codePackets } from '../src/packets/packet.ts';
import { noCache } from '../src/rehearse/cache.ts';
import { openRunContext } from '../src/runs/context.ts';
import { rehearse } from '../src/rehearse/rehearse.ts';

const root = path.resolve(import.meta.dirname, '..');
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const jobs = Number(process.env.BENCH_JOBS ?? 2);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const { packets: loadedPackets, sources } = await loadPackets({ packetsDir: 'packets', cwd: root });

const packets = codePackets(loadedPackets);
const dirs = new Map(sources.map((s) => [s.id, path.join(root, 'packets', s.folder)]));
// The sandbox in a scratch root of the run's own, and the scripted endpoint, as every command has them.
const ctx = openRunContext('bench', { env: process.env, cwd: root, now: () => new Date() }, { unconfined: false, packets: 'packets' })!;
const made = await ctx.sandbox();
if (!made.ok) throw new Error(made.diagnostic.message);
const env = made.ready.environment;
const server = await ctx.scriptedServer(packets.map((p) => ({ id: p.id, dir: dirs.get(p.id)!, replies: p.trees.replies })));
const scratch = made.ready.scratchDir;

const run = async (scripted: boolean) => {
  const t0 = performance.now();
  const report = await rehearse({
    packets,
    packetDirs: dirs,
    sandbox: env.sandbox,
    sandboxNotice: env.notice,
    interpreter: env.interpreter,
    jobs,
    timeoutMs: 30_000,
    cache: noCache,
    reporters: [],
    scratchDir: scratch,
    date: () => new Date(),
    now: () => performance.now(),
    ...(scripted ? { scripted: { url: server.url, outDir: null, cwd: root } } : {}),
  });
  const replies = report.packets.flatMap((p) => p.checks.filter((c) => c.kind === 'reply'));
  if (replies.some((c) => !c.ok)) throw new Error('a reply check failed');
  return { ms: performance.now() - t0, replies: replies.length };
};

const without: number[] = [];
const withReplies: number[] = [];
let replyChecks = 0;
for (let i = 0; i < rounds; i++) {
  without.push((await run(false)).ms);
  const w = await run(true);
  withReplies.push(w.ms);
  replyChecks = w.replies;
}

// The pipeline without the sandbox: one call, its ledger line, through the SDK and the counting fetch.
const client = createModelClient({ baseURL: server.url, apiKey: null, attemptTimeoutMs: 30_000 });
const p = packets[0]!;
const calls: number[] = [];
for (let i = 0; i < 50; i++) {
  const ledger = await createLedger({ dir: null, header: { packet: p.id, version: '', digest: p.digest, model: 'm', endpoint: '' } });
  const t0 = performance.now();
  await client.complete([{ role: 'user', content: 'x'.repeat(6000) }], {
    model: `scripted:${p.id}/sample`,
    turn: 1,
    meter: createMeter(p.prompt.data.budget, systemClock.now),
    ledger,
    policy: DEFAULT_RETRY_POLICY,
    random: Math.random,
    sleep: systemClock.sleep,
    nowEpochMs: Date.now,
    now: systemClock.now,
  });
  calls.push(performance.now() - t0);
}

await ctx.dispose();
const a = median(without);
const b = median(withReplies);
console.log(`scripted replies: ${packets.length} packets, ${replyChecks} reply checks, ${rounds} rounds (medians), ${jobs} jobs`);
console.log(`  rehearsal without reply checks  ${(a / 1000).toFixed(2)} s`);
console.log(`  rehearsal with reply checks     ${(b / 1000).toFixed(2)} s`);
console.log(`  ratio with / without            ${(b / a).toFixed(2)}   (${((b - a) / replyChecks).toFixed(0)} ms per reply check)`);
console.log(`  one model call (SDK + ledger)   ${median(calls.slice(5)).toFixed(1)} ms   (embedded endpoint, no sandbox)`);
