/**
 * A rehearsal on an open run context: with the packets loaded and the sandbox ready, start the
 * embedded scripted endpoint, rehearse every packet (its scripted replies included), then the
 * live model runs when a model is named, and write the JSON report. Everything it has to say
 * goes to its reporter.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import type { BudgetLimits } from '../llm/budget.ts';
import type { FetchLike } from '../llm/client.ts';
import { createEndpointGate } from '../llm/endpoint-gate.ts';
import type { KitIdentity } from '../kit/identity.ts';
import type { CodePacket } from '../packets/packet.ts';
import type { LabTables } from '../labs/table-cache.ts';
import type { RehearsalCache } from './cache.ts';
import type { ReadySandbox, RunContext } from '../runs/context.ts';
import { systemClock, type RunClock } from '../runs/turn-loop.ts';
import { runModelRehearsals } from './model-runs.ts';
import { rehearse } from './rehearse.ts';
import { replySource } from './rehearse-variants.ts';
import type { RehearsalReporter } from './reporter.ts';
import { exitCodeOf, type RehearsalReport } from './report.ts';
import type { Shard } from './shard.ts';

export { writeFileAtomic } from './report-file.ts';

/** Live model runs on top of the offline rehearsal. */
export interface LiveModelOptions {
  /** The models, as named (`--model a,b`): every packet runs against each; `{packet}` is replaced by each packet's id. */
  models: string[];
  /** Model calls in flight at once against the endpoint (default 1): one limit for all models and packets. */
  endpointJobs?: number;
  /** The endpoint; absent: the embedded scripted endpoint. */
  endpoint?: { baseURL: string; host: string; defaultQuery: Record<string, string> };
  /** Never logged or written. */
  apiKey: string | null;
  flags: Partial<BudgetLimits>;
  feedbackTurns: number;
  stallCalls: number;
  attemptTimeoutMs: number;
  /** The max_tokens each request sends. */
  maxReplyTokens?: number;
  fetch?: FetchLike;
  clock?: RunClock;
}

/** Everything a rehearsal run needs. */
export interface RunRehearsalOptions {
  packets: readonly CodePacket[];
  /** Absolute path of each packet's folder, by id. */
  packetDirs: ReadonlyMap<string, string>;
  /** The run's context (the scripted endpoint); disposed of by the caller. */
  ctx: Pick<RunContext, 'scriptedServer'>;
  /** The sandbox, ready, and its scratch root (workspaces go under it). */
  sandbox: Pick<ReadySandbox, 'environment' | 'scratchDir'>;
  jobs: number;
  timeoutMs: number;
  cache: RehearsalCache;
  /** Told of everything; its `onReport` gets the final report (the JSON file is a reporter: `jsonReportFile`). */
  reporter: RehearsalReporter;
  /** Labs' test tables (cached, shared with the build); default: computed per lab, kept in memory. */
  labTables?: LabTables;
  /** Receipts of model runs go under it. */
  outDir: string;
  cwd: string;
  date: () => Date;
  live?: LiveModelOptions;
  /** The shard of the packets this run covers (already selected), for the report. */
  shard?: Shard;
  /** The kit, as the report names it (default: this kit). */
  kit?: KitIdentity;
  /** The variants proven of each packet with parameters (`--variants N`); default: its `variants.count`. */
  variants?: number;
}

/** Rehearse, run the live models, write the report; returns the report and the exit code. */
export async function runRehearsal(o: RunRehearsalOptions): Promise<{ report: RehearsalReport; exitCode: 0 | 1 | 2 }> {
  const { environment, scratchDir } = o.sandbox;
  const { reporter } = o;
  // The embedded endpoint serves every packet's replies: the reply checks always use it, a
  // live run uses it when no endpoint is given. It listens on 127.0.0.1 only.
  const server = await o.ctx.scriptedServer(o.packets.map((p) => replySource(p, o.packetDirs.get(p.id)!)));
  let modelScratch: string | undefined;
  try {
    const report = await rehearse({
      packets: o.packets,
      packetDirs: o.packetDirs,
      sandbox: environment.sandbox,
      sandboxNotice: environment.notice,
      interpreter: environment.interpreter,
      jobs: o.jobs,
      timeoutMs: o.timeoutMs,
      cache: o.cache,
      reporters: [reporter],
      scratchDir,
      date: o.date,
      now: () => performance.now(),
      scripted: { url: server.url, outDir: o.outDir, cwd: o.cwd },
      ...(o.shard ? { shard: o.shard } : {}),
      ...(o.kit ? { kit: o.kit } : {}),
      ...(o.labTables ? { labTables: o.labTables } : {}),
      ...(o.variants !== undefined ? { variants: o.variants } : {}),
    });
    if (o.live) {
      const live = o.live;
      modelScratch = await mkdtemp(path.join(scratchDir, 'packet-model-'));
      const endpoint = live.endpoint ?? { baseURL: server.url, host: new URL(server.url).host, defaultQuery: {} };
      const clock = live.clock ?? systemClock;
      const endpointJobs = Math.max(1, live.endpointJobs ?? 1);
      const gate = createEndpointGate({ host: endpoint.host, concurrency: endpointJobs, clock, ...(reporter.onPause ? { onPause: (p) => reporter.onPause!(p, endpoint.host) } : {}) });
      reporter.onModelsStart?.({ models: live.models, host: endpoint.host, scripted: !live.endpoint, endpointJobs });
      const limit = pLimit(Math.max(1, o.jobs));
      report.live = { endpoint: endpoint.host, models: [...live.models] };
      report.models = await runModelRehearsals({
        packets: o.packets,
        packetDirs: o.packetDirs,
        offline: report,
        runner: { sandbox: environment.sandbox, mounts: environment.interpreter.mounts, timeoutMs: o.timeoutMs },
        schedule: (fn) => limit(fn),
        scratchDir: modelScratch,
        endpoint,
        apiKey: live.apiKey,
        models: live.models,
        gate,
        flags: live.flags,
        feedbackTurns: live.feedbackTurns,
        stallCalls: live.stallCalls,
        attemptTimeoutMs: live.attemptTimeoutMs,
        ...(live.maxReplyTokens ? { maxReplyTokens: live.maxReplyTokens } : {}),
        outDir: o.outDir,
        cwd: o.cwd,
        clock,
        date: o.date,
        ...(live.fetch ? { fetch: live.fetch } : {}),
        reporter,
      });
      reporter.onModelsEnd?.(report.models);
    }
    await reporter.onReport?.(report);
    return { report, exitCode: exitCodeOf(report) };
  } finally {
    await server.close();
    if (modelScratch) await rm(modelScratch, { recursive: true, force: true });
  }
}
