/**
 * Live model runs (`packet rehearse --endpoint URL --model NAME`): one session per packet, one
 * packet at a time (free endpoints rate-limit), each with its receipts in `<out>/<packet>/`.
 */
import path from 'node:path';
import type { Packet } from '../packets/packet.ts';
import { effectiveBudget, type BudgetLimits } from '../llm/budget.ts';
import { createModelClient, type FetchLike } from '../llm/client.ts';
import { createLedger } from '../llm/ledger.ts';
import type { RetryPolicy, WaitPlan } from '../llm/retry.ts';
import { runSession, type SessionClock } from './session.ts';
import { sortKeys } from '../llm/stable-json.ts';
import { modelRunReport } from './model-run-report.ts';
import type { ModelRunReport, RehearsalReport } from './report.ts';
import type { TestRunner } from '../judge/run-tests.ts';
import { loadPacketFiles } from '../judge/workspace.ts';

/** Everything the live runs need. */
export interface ModelRunsOptions {
  packets: readonly Packet[];
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
  /** The model id; `{packet}` is replaced by each packet's id. */
  model: string;
  /** Budget flags: each can only lower the packet's cap. */
  flags: Partial<BudgetLimits>;
  feedbackTurns: number;
  stallCalls: number;
  attemptTimeoutMs: number;
  /** The max_tokens each request sends (the client's default when unset). */
  maxReplyTokens?: number;
  policy?: RetryPolicy;
  /** Receipts go to `<outDir>/<packet>/`; null keeps them in memory. */
  outDir: string | null;
  cwd: string;
  clock: SessionClock;
  date: () => Date;
  fetch?: FetchLike;
  onRun?: (run: ModelRunReport) => void;
  onWait?: (packet: string, plan: WaitPlan, retry: number) => void;
}

/** Run the model on every packet, in id order. */
export async function runModelRehearsals(o: ModelRunsOptions): Promise<ModelRunReport[]> {
  const client = createModelClient({
    baseURL: o.endpoint.baseURL,
    apiKey: o.apiKey,
    attemptTimeoutMs: o.attemptTimeoutMs,
    ...(o.endpoint.defaultQuery ? { defaultQuery: o.endpoint.defaultQuery } : {}),
    ...(o.fetch ? { fetch: o.fetch } : {}),
  });
  const runs: ModelRunReport[] = [];
  for (const packet of [...o.packets].sort((a, b) => a.id.localeCompare(b.id))) {
    const model = o.model.replaceAll('{packet}', packet.id);
    const { limits } = effectiveBudget(packet.prompt.data.budget, o.flags);
    const date = o.date().toISOString();
    const about = { date, packet: packet.id, version: packet.prompt.data.version, digest: packet.digest, model, endpoint: o.endpoint.host, budget: limits, cwd: o.cwd };
    const sample = o.offline.packets.find((p) => p.id === packet.id)?.checks.find((c) => c.id === 'sample');
    let run: ModelRunReport;
    if (!sample?.ok) {
      run = sortKeys({
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
    } else {
      const dir = o.outDir ? path.join(o.outDir, packet.id) : null;
      const ledger = await createLedger({ dir, header: { packet: packet.id, version: about.version, digest: packet.digest, model, endpoint: o.endpoint.host }, secrets: o.apiKey ? [o.apiKey] : [] });
      const result = await runSession({
        files: await loadPacketFiles(packet, o.packetDirs.get(packet.id)!),
        client,
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
        ...(o.onWait ? { onWait: (plan: WaitPlan, retry: number) => o.onWait!(packet.id, plan, retry) } : {}),
      });
      run = modelRunReport(result, about);
    }
    runs.push(run);
    o.onRun?.(run);
  }
  return runs;
}
