/**
 * Live model runs (`packet rehearse --endpoint URL --model A,B`): one session per packet and
 * model, each with its receipts in `<out>/<packet>/` (one model) or `<out>/<packet>/<model>/`
 * (several). The endpoint's gate bounds them: at most its concurrency of sessions at once (so no
 * session's wall clock runs while it waits for a turn), each making one call at a time, and a
 * rate-limit answer to any of them pauses every one.
 */
import path from 'node:path';
import pLimit from 'p-limit';
import type { CodePacket } from '../packets/packet.ts';
import { effectiveBudget, type BudgetLimits } from '../llm/budget.ts';
import { createModelClient, type FetchLike } from '../llm/client.ts';
import { createEndpointGate, type EndpointGate } from '../llm/endpoint-gate.ts';
import { createLedger } from '../llm/ledger.ts';
import type { RetryPolicy, WaitPlan } from '../llm/retry.ts';
import { runSession, type SessionClock } from './session.ts';
import { sortKeys } from '../llm/stable-json.ts';
import { modelRunReport } from './model-run-report.ts';
import type { RehearsalReporter } from './reporter.ts';
import type { ModelRunReport, RehearsalReport } from './report.ts';
import type { TestRunner } from '../judge/run-tests.ts';
import { loadPacketFiles } from '../judge/workspace.ts';
import { modelRunVariant, REPLY_VARIANT } from './rehearse-variants.ts';
import { variantId } from '../packets/variants.ts';

/** Everything the live runs need. */
export interface ModelRunsOptions {
  packets: readonly CodePacket[];
  /** Absolute path of each packet's folder, by id. */
  packetDirs: ReadonlyMap<string, string>;
  /** The offline rehearsal of the same packets: the sample's test count comes from it. */
  offline: Pick<RehearsalReport, 'packets'>;
  runner: TestRunner;
  schedule: <T>(fn: () => Promise<T>) => Promise<T>;
  scratchDir: string;
  endpoint: { baseURL: string; host: string; defaultQuery?: Record<string, string> };
  /** Never logged or written; redacted from every receipt as a second lock. */
  apiKey: string | null;
  /** The models, as named: every packet runs against each; `{packet}` is replaced by each packet's id. */
  models: readonly string[];
  /** The endpoint's gate (default: one with room for one call at a time, on `clock`). */
  gate?: EndpointGate;
  /** Budget flags: each can only lower the packet's cap. */
  flags: Partial<BudgetLimits>;
  feedbackTurns: number;
  stallCalls: number;
  attemptTimeoutMs: number;
  /** The max_tokens each request sends (the client's default when unset). */
  maxReplyTokens?: number;
  policy?: RetryPolicy;
  /** Receipts go to `<outDir>/<packet>/` (several models: `<outDir>/<packet>/<model folder>/`); null keeps them in memory. */
  outDir: string | null;
  cwd: string;
  clock: SessionClock;
  date: () => Date;
  fetch?: FetchLike;
  /** Told of each run's end and of the waits before retries. */
  reporter?: Pick<RehearsalReporter, 'onModelRunEnd' | 'onWait'>;
}

/** A folder name for a model: its id with anything but letters, digits, `.`, `_` and `-` turned into `_`. */
export function modelFolder(model: string): string {
  return model.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '') || 'model';
}

/** Run every model on every packet; the runs come back sorted by packet, then in the order of `models`. */
export async function runModelRehearsals(o: ModelRunsOptions): Promise<ModelRunReport[]> {
  const client = createModelClient({
    baseURL: o.endpoint.baseURL,
    apiKey: o.apiKey,
    attemptTimeoutMs: o.attemptTimeoutMs,
    ...(o.endpoint.defaultQuery ? { defaultQuery: o.endpoint.defaultQuery } : {}),
    ...(o.fetch ? { fetch: o.fetch } : {}),
  });
  const gate = o.gate ?? createEndpointGate({ host: o.endpoint.host, concurrency: 1, clock: o.clock });
  const sessions = pLimit(gate.concurrency);
  const packets = [...o.packets].sort((a, b) => a.id.localeCompare(b.id));
  const models = [...new Set(o.models)];
  // Folders per model when there are several; two names that read alike get their position appended.
  const folders = models.map(modelFolder);
  const folderOf = (i: number) => (folders.indexOf(folders[i]!) === i ? folders[i]! : `${folders[i]}-${i + 1}`);
  const cells = packets.flatMap((packet) => models.map((named, column) => ({ packet, named, column })));
  const runs = await Promise.all(
    cells.map(({ packet, named, column }) =>
      sessions(async () => {
        const run = await runOne(o, { packet, named, client, gate, dir: o.outDir ? (models.length > 1 ? path.join(o.outDir, packet.id, folderOf(column)) : path.join(o.outDir, packet.id)) : null });
        o.reporter?.onModelRunEnd?.(run);
        return { run, column };
      }),
    ),
  );
  return runs.sort((a, b) => a.run.packet.localeCompare(b.run.packet) || a.column - b.column).map((r) => r.run);
}

/** One packet against one model. */
async function runOne(
  o: ModelRunsOptions,
  cell: { packet: CodePacket; named: string; client: ReturnType<typeof createModelClient>; gate: EndpointGate; dir: string | null },
): Promise<ModelRunReport> {
  const { named } = cell;
  const model = named.replaceAll('{packet}', cell.packet.id);
  // A packet with variants: the run is on its first variant, rendered, as its scripted replies are (the sample's check is that variant's).
  const withVariants = cell.packet.prompt.data.variants !== undefined;
  const sampleId = withVariants ? `${variantId(REPLY_VARIANT)}:sample` : 'sample';
  const sample = o.offline.packets.find((p) => p.id === cell.packet.id)?.checks.find((c) => c.id === sampleId);
  const seen = sample?.ok ? await modelRunVariant(cell.packet, o.packetDirs.get(cell.packet.id)!, o.scratchDir) : { packet: cell.packet, dir: o.packetDirs.get(cell.packet.id)! };
  const { packet } = seen;
  const { limits } = effectiveBudget(packet.prompt.data.budget, o.flags);
  const date = o.date().toISOString();
  const about = { date, packet: packet.id, version: packet.prompt.data.version, digest: packet.digest, model, named, endpoint: o.endpoint.host, budget: limits, cwd: o.cwd, ...(seen.variant ? { variant: seen.variant } : {}) };
  if (!sample?.ok) {
    return sortKeys({
      ...about,
      verdict: 'INCONCLUSIVE',
      inconclusiveCause: 'sandbox',
      reason: 'the packet\'s own sample does not pass its tests, so no answer can be judged; fix the packet first',
      possibleLeak: false,
      caughtBy: [],
      findings: [],
      signals: [],
      calls: 0,
      turns: 0,
      tokens: { prompt: 0, completion: 0, total: 0, unknownCalls: 0 },
      bytes: { out: 0, in: 0 },
      wallMs: 0,
      errors: {},
      stop: null,
      receipts: { usage: null, ledger: null, giveUp: null },
    } satisfies ModelRunReport);
  }
  const ledger = await createLedger({ dir: cell.dir, header: { packet: packet.id, version: about.version, digest: packet.digest, model, endpoint: o.endpoint.host }, secrets: o.apiKey ? [o.apiKey] : [] });
  const result = await runSession({
    files: await loadPacketFiles(packet, seen.dir),
    client: cell.client,
    model,
    limits,
    ...(o.policy ? { policy: o.policy } : {}),
    ...(o.maxReplyTokens ? { maxReplyTokens: o.maxReplyTokens } : {}),
    runner: { ...o.runner, ...(packet.prompt.data.sandbox ? { caps: packet.prompt.data.sandbox } : {}) },
    scratchDir: o.scratchDir,
    feedbackTurns: o.feedbackTurns,
    stallCalls: o.stallCalls,
    ledger,
    clock: o.clock,
    schedule: o.schedule,
    gate: cell.gate,
    ...(o.reporter?.onWait ? { onWait: (plan: WaitPlan, retry: number) => o.reporter!.onWait!(packet.id, plan, retry, model) } : {}),
  });
  return modelRunReport(result, about);
}
