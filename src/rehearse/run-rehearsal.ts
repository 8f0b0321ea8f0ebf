/**
 * `packet rehearse` as a library call: with the packets loaded and the run environment ready,
 * start the embedded scripted endpoint, rehearse every packet (its scripted replies included),
 * then the live model runs when a model is named, and write the JSON report. The command only
 * parses flags and prints.
 */
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import type { BudgetLimits } from '../llm/budget.ts';
import type { FetchLike } from '../llm/client.ts';
import { createEndpointGate, type GatePause } from '../llm/endpoint-gate.ts';
import type { KitIdentity } from '../kit/identity.ts';
import type { WaitPlan } from '../llm/retry.ts';
import { replyStoreFromDirs, startScriptedServer } from '../llm/scripted-server.ts';
import { redact } from '../llm/stable-json.ts';
import type { CodePacket } from '../packets/packet.ts';
import type { LabTables } from '../labs/table-cache.ts';
import type { RehearsalCache } from './cache.ts';
import type { RunEnvironment } from './environment.ts';
import { runModelRehearsals } from './model-runs.ts';
import { rehearse } from './rehearse.ts';
import { reportText } from './report-file.ts';
import type { Reporter } from './reporter.ts';
import { exitCodeOf, type ModelRunReport, type RehearsalReport } from './report.ts';
import { systemClock, type SessionClock } from './session.ts';
import type { Shard } from './shard.ts';

/** Write a file atomically: a temporary file, then a rename. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

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
  clock?: SessionClock;
}

/** Everything a rehearsal run needs. */
export interface RunRehearsalOptions {
  packets: readonly CodePacket[];
  /** Absolute path of each packet's folder, by id. */
  packetDirs: ReadonlyMap<string, string>;
  environment: RunEnvironment;
  jobs: number;
  timeoutMs: number;
  cache: RehearsalCache;
  reporter: Reporter;
  /** Labs' test tables (cached, shared with the build); default: computed per lab, kept in memory. */
  labTables?: LabTables;
  /** Parent folder for workspaces. */
  scratchDir: string;
  /** Receipts of model runs go under it. */
  outDir: string;
  /** The JSON report, absolute. */
  reportFile: string;
  cwd: string;
  date: () => Date;
  live?: LiveModelOptions;
  /** Told about retries of live runs. */
  onWait?: (packet: string, plan: WaitPlan, retry: number, model: string) => void;
  /** Told when a rate-limit answer pauses the endpoint for every live run. */
  onPause?: (pause: GatePause, host: string) => void;
  /** Told about the live runs' start and end, for the console. */
  onModels?: (event: { start: { models: string[]; host: string; scripted: boolean; endpointJobs: number } } | { end: ModelRunReport[] }) => void;
  /** The shard of the packets this run covers (already selected), for the report. */
  shard?: Shard;
  /** The kit, as the report names it (default: this kit). */
  kit?: KitIdentity;
}

/** Rehearse, run the live models, write the report; returns the report and the exit code. */
export async function runRehearsal(o: RunRehearsalOptions): Promise<{ report: RehearsalReport; exitCode: 0 | 1 | 2 }> {
  const { environment } = o;
  // The embedded endpoint serves every packet's replies: the reply checks always use it, a
  // live run uses it when no endpoint is given. It listens on 127.0.0.1 only.
  const server = await startScriptedServer({
    replies: replyStoreFromDirs(new Map(o.packets.map((p) => [p.id, { dir: o.packetDirs.get(p.id)!, replies: p.trees.replies }]))),
  });
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
      reporters: [o.reporter],
      scratchDir: o.scratchDir,
      date: o.date,
      now: () => performance.now(),
      scripted: { url: server.url, outDir: o.outDir, cwd: o.cwd },
      ...(o.shard ? { shard: o.shard } : {}),
      ...(o.kit ? { kit: o.kit } : {}),
      ...(o.labTables ? { labTables: o.labTables } : {}),
    });
    if (o.live) {
      const live = o.live;
      modelScratch = await mkdtemp(path.join(o.scratchDir, 'packet-model-'));
      const endpoint = live.endpoint ?? { baseURL: server.url, host: new URL(server.url).host, defaultQuery: {} };
      const clock = live.clock ?? systemClock;
      const endpointJobs = Math.max(1, live.endpointJobs ?? 1);
      const gate = createEndpointGate({ host: endpoint.host, concurrency: endpointJobs, clock, ...(o.onPause ? { onPause: (p: GatePause) => o.onPause!(p, endpoint.host) } : {}) });
      o.onModels?.({ start: { models: live.models, host: endpoint.host, scripted: !live.endpoint, endpointJobs } });
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
        onRun: (run) => o.reporter.onModelRunEnd?.(run),
        ...(o.onWait ? { onWait: o.onWait } : {}),
      });
      o.onModels?.({ end: report.models });
    }
    const text = reportText(report);
    await writeFileAtomic(o.reportFile, o.live?.apiKey ? redact(text, [o.live.apiKey]) : text);
    return { report, exitCode: exitCodeOf(report) };
  } finally {
    await server.close();
    if (modelScratch) await rm(modelScratch, { recursive: true, force: true });
  }
}
