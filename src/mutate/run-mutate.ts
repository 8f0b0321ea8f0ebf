/**
 * One mutation run on one packet (docs/mutation.md):
 *
 * 1. the sample is judged first, with every test: mutants of a sample that is not green say
 *    nothing about the tests, so the run stops there (no call is made);
 * 2. the model is asked for N mutants of the sample's source files, through the kit's client:
 *    the budget is checked before each call, every attempt is a line of usage.jsonl, a cap
 *    writes give_up.json; a reply that cannot be read is INCONCLUSIVE for that call, and the
 *    model is told why and asked again while `feedbackTurns` remain;
 * 3. each item is checked before the sandbox: a usable item, a path among the sources, not a
 *    repeat of an earlier one (the same normalised code: counted once), not cosmetic, and the
 *    def lines the tests import unchanged (Python's parser, in the sandbox: contract.ts);
 * 4. each remaining mutant is laid over the sample and judged by the judge with every test, in
 *    the shared pool, and classified (classify.ts).
 *
 * Never throws for endpoint, reply or mutant trouble: those are outcomes.
 */
import { createHash } from 'node:crypto';
import type { BudgetLimits } from '../llm/budget.ts';
import { describeFailure, type ModelClient } from '../llm/client.ts';
import type { Ledger } from '../llm/ledger.ts';
import type { RetryPolicy, StopReason, WaitPlan } from '../llm/retry.ts';
import { countTextTokens } from '../llm/tokens.ts';
import { judgeRun } from '../judge/judge-run.ts';
import { createTurnLoop, type RunClock } from '../runs/turn-loop.ts';
import type { TestRunner } from '../judge/run-tests.ts';
import type { PacketFiles } from '../judge/workspace.ts';
import { classifyJudgement, normalizedCode } from './classify.ts';
import { contractBreak, readContracts, testSources } from './contract.ts';
import type { MutateReporter } from './mutate-reporters.ts';
import { describeSummary, MUTATE_SCHEMA_VERSION, summarize, type CallRecord, type MutantRecord, type MutationReport } from './report.ts';
import { parseMutantReply, type Proposal } from './reply.ts';
import { malformedFeedback, mutationMessages } from './request.ts';
import { sampleSources } from './sources.ts';

/** Clocks, randomness and sleep, injected (the run layer's clock). */
export type MutateClock = RunClock;

/** What a mutation run needs. */
export interface MutateOptions {
  /** The packet's files and rules (`loadPacketFiles`). */
  files: PacketFiles;
  /** The sample overlay's files (`readSampleTree`). */
  sample: ReadonlyMap<string, Buffer>;
  client: ModelClient;
  model: string;
  /** Host (and port) of the endpoint, for the report. */
  endpoint: string;
  /** The embedded scripted endpoint answers. */
  scripted: boolean;
  limits: BudgetLimits;
  policy?: RetryPolicy;
  /** Mutants to ask for. */
  count: number;
  /** Calls after a reply that could not be read (0: one call only). */
  feedbackTurns: number;
  /** The max_tokens each request sends; default: enough for `count` whole copies of the largest source file. */
  maxReplyTokens?: number;
  runner: TestRunner;
  /** Wraps each sandbox run (a shared pool). */
  schedule: <T>(fn: () => Promise<T>) => Promise<T>;
  scratchDir: string;
  ledger: Ledger;
  clock: MutateClock;
  /** The date the report carries. */
  date: Date;
  /** Receipt paths in the report are relative to it. */
  relative: (p: string | null) => string | null;
  /** Told about the run as it goes (the waits before retries). */
  reporter?: Pick<MutateReporter, 'onWait'>;
}

/** Why a packet cannot be mutated at all (nothing was asked of the model). */
export interface MutateRefusal {
  ok: false;
  /** `sample-red`: the sample is not green; `no-sources`: nothing to mutate; `sandbox`: the sample could not be run. */
  kind: 'sample-red' | 'no-sources' | 'sandbox';
  reason: string;
}

/** The max_tokens a request for `count` mutants needs: each mutant a whole copy of the largest file, escaped as JSON (about a third more), plus the fault. */
export async function replyTokensFor(sources: ReadonlyMap<string, string>, count: number): Promise<number> {
  let largest = 0;
  for (const text of sources.values()) largest = Math.max(largest, await countTextTokens(text));
  return Math.min(32_768, Math.max(1024, Math.ceil(count * (largest * 1.35 + 80) + 200)));
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Run the model's mutants of one packet. */
export async function runMutate(o: MutateOptions): Promise<{ ok: true; report: MutationReport } | MutateRefusal> {
  const { clock, files } = o;
  const packet = files.packet;
  const language = packet.prompt.data.language;
  const started = clock.now();
  const sources = sampleSources(files, o.sample);
  if (!sources.size) {
    return { ok: false, kind: 'no-sources', reason: `the sample has no ${language} source file outside the protected paths and the tests` };
  }

  // 1. The sample, judged with every test.
  const baseline = await judgeRun({
    files,
    submission: { files: o.sample, deleted: [] },
    withHidden: true,
    runner: o.runner,
    scratchDir: o.scratchDir,
    random: clock.random,
    now: clock.now,
    schedule: o.schedule,
  });
  if ('rejected' in baseline) return { ok: false, kind: 'sample-red', reason: `the sample's files cannot be laid out: ${baseline.rejected}` };
  const bj = baseline.judgement;
  const infra = bj.findings.find((f) => f.kind === 'infra');
  if (infra) return { ok: false, kind: 'sandbox', reason: infra.message };
  if (!bj.testsGreen || bj.tampered) {
    const why = bj.findings.filter((f) => ['run', 'tamper', 'tests', 'hidden-tests'].includes(f.kind)).map((f) => `${f.code} ${f.message}`);
    return { ok: false, kind: 'sample-red', reason: `${why.join('; ') || bj.description} (${bj.description})` };
  }
  const setupMs = clock.now() - started;

  // 2. The calls.
  const maxReplyTokens = o.maxReplyTokens ?? (await replyTokensFor(sources, o.count));
  const loop = createTurnLoop({
    client: o.client,
    model: o.model,
    limits: o.limits,
    ledger: o.ledger,
    clock,
    feedbackTurns: o.feedbackTurns,
    maxReplyTokens,
    ...(o.policy ? { policy: o.policy } : {}),
    ...(o.reporter?.onWait ? { onWait: (plan: WaitPlan, retry: number) => o.reporter!.onWait!(plan, retry) } : {}),
  });
  const { meter } = loop;
  const base = mutationMessages({ title: packet.prompt.data.title, goal: packet.prompt.body, language, sources, count: o.count });
  const calls: CallRecord[] = [];
  let proposals: Proposal[] | undefined;
  let replyTurn = 0;
  let stop: StopReason | null = null;
  let inconclusive: MutationReport['inconclusive'];
  await loop.run<true>(base, (call, turn) => {
    if (call.stop) {
      stop = call.stop.reason;
      const failure = call.failure ? `; the last attempt ended ${describeFailure(call.failure)}` : '';
      calls.push({ turn, attempts: call.attempts, status: 'INCONCLUSIVE', reason: `stopped: ${call.stop.detail}${failure}`, error: call.error });
      inconclusive = { cause: call.stopped?.budgetOnly ? 'budget' : 'endpoint', reason: `no reply could be read: ${call.stop.detail}${failure}` };
      return { done: true };
    }
    if (call.output === null) {
      const why = `the endpoint gave no usable answer: ${call.detail ?? call.error ?? 'unknown error'}`;
      calls.push({ turn, attempts: call.attempts, status: 'INCONCLUSIVE', reason: why, error: call.error });
      inconclusive = { cause: 'endpoint', reason: why };
      return { done: true };
    }
    const parsed = parseMutantReply(call.output, sources);
    if (!parsed.ok) {
      calls.push({ turn, attempts: call.attempts, status: 'INCONCLUSIVE', reason: `the reply is malformed: ${parsed.reason}`, error: call.error });
      inconclusive = { cause: 'reply', reason: `no reply could be read as mutants: ${parsed.reason}` };
      return { next: [...base, { role: 'assistant', content: call.output }, { role: 'user', content: malformedFeedback(parsed.reason) }] };
    }
    calls.push({ turn, attempts: call.attempts, status: 'ok', error: call.error, ...(parsed.notes.length ? { notes: parsed.notes } : {}) });
    proposals = parsed.proposals;
    replyTurn = turn;
    inconclusive = undefined;
    return { done: true };
  });

  // 3. Before the sandbox: usable, not a repeat, not cosmetic.
  const records: MutantRecord[] = [];
  const candidates: { record: MutantRecord; code: string }[] = [];
  const seen = new Map<string, number>();
  for (const p of proposals ?? []) {
    const record: MutantRecord = { id: p.index, fault: p.fault, path: p.path, status: 'invalid', reason: '', turn: replyTurn, ...(p.form ? { form: p.form } : {}), ...(p.code !== undefined ? { code: p.code } : {}) };
    records.push(record);
    if (p.problem || p.code === undefined) {
      record.reason = `not a usable mutant: ${p.problem ?? 'it holds no code'}`;
      continue;
    }
    const normal = normalizedCode(p.code, language);
    const key = `${p.path}\0${normal}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      record.status = 'duplicate';
      record.duplicateOf = earlier;
      record.reason = `the same code as mutant #${earlier} once blank lines, trailing spaces and comments are set aside; counted once`;
      continue;
    }
    seen.set(key, p.index);
    if (normal === normalizedCode(sources.get(p.path)!, language)) {
      record.reason = 'it changes nothing but blank lines, spacing or comments: no behaviour changed';
      continue;
    }
    candidates.push({ record, code: p.code });
  }

  // The contract the tests import, read by Python's parser in the sandbox.
  let judgeable = candidates;
  if (candidates.length && language.toLowerCase() === 'python') {
    const reading = await readContracts({
      runner: o.runner,
      scratchDir: o.scratchDir,
      sources,
      tests: testSources(files.starter, files.hidden, files.isGuarded),
      mutants: candidates.map((c) => ({ path: c.record.path, code: c.code })),
      schedule: o.schedule,
    });
    if ('error' in reading) {
      for (const c of candidates) Object.assign(c.record, { status: 'unjudged', reason: `its contract could not be read: ${reading.error}` });
      judgeable = [];
    } else {
      judgeable = candidates.filter((c, i) => {
        const broken = contractBreak(reading, i, c.record.path);
        if (broken) c.record.reason = broken;
        return !broken;
      });
    }
  }

  // 4. The sandbox: each mutant over the sample, every test.
  await Promise.all(
    judgeable.map(async ({ record, code }) => {
      const judged = await judgeRun({
        files,
        submission: { files: new Map<string, string | Uint8Array>([...o.sample, [record.path, code]]), deleted: [] },
        withHidden: true,
        runner: o.runner,
        scratchDir: o.scratchDir,
        random: clock.random,
        now: clock.now,
        schedule: o.schedule,
      });
      if ('rejected' in judged) {
        Object.assign(record, { status: 'invalid', reason: `its files cannot be laid out: ${judged.rejected}` });
        return;
      }
      const outcome = classifyJudgement(judged.judgement);
      Object.assign(record, { ...outcome, tests: judged.judgement.description, durationMs: Math.round(judged.durationMs) });
    }),
  );

  const summary = summarize(o.count, records);
  if (summary.unjudged && !inconclusive) inconclusive = { cause: 'sandbox', reason: `${summary.unjudged} mutant${summary.unjudged === 1 ? '' : 's'} could not be run in the sandbox` };
  const judgedMs = records.filter((r) => r.durationMs !== undefined).map((r) => r.durationMs!);
  const mutantsMs = judgedMs.reduce((a, b) => a + b, 0);
  const verdict = inconclusive ? 'INCONCLUSIVE' : 'classified';
  const ledger = await o.ledger.close({ verdict, summary: describeSummary(summary), score: summary.score });
  const spent = meter.spent();
  const receipts = o.ledger.paths();
  return {
    ok: true,
    report: {
      schemaVersion: MUTATE_SCHEMA_VERSION,
      packet: packet.id,
      version: packet.prompt.data.version,
      digest: packet.digest,
      date: o.date.toISOString(),
      model: o.model,
      endpoint: o.endpoint,
      scripted: o.scripted,
      verdict,
      ...(inconclusive ? { inconclusive } : {}),
      sources: [...sources].map(([p, t]) => ({ path: p, sha256: sha256(t) })),
      baseline: { tests: bj.description, durationMs: Math.round(baseline.durationMs) },
      calls,
      mutants: records,
      summary,
      spend: {
        calls: ledger.calls,
        tokens: ledger.tokens,
        promptTokens: ledger.known_prompt_tokens,
        completionTokens: ledger.known_completion_tokens,
        unknownCalls: ledger.usage_unknown_calls,
        wallMs: spent.wallMs,
      },
      stop,
      timing: {
        setupMs: Math.round(setupMs),
        baselineMs: Math.round(baseline.durationMs),
        mutantsMs,
        perMutantMs: judgedMs.length ? Math.round(mutantsMs / judgedMs.length) : null,
        wallMs: Math.round(clock.now() - started),
      },
      receipts: { usage: o.relative(receipts.usage), ledger: o.relative(receipts.ledger), giveUp: o.relative(receipts.giveUp) },
    },
  };
}
