/**
 * One model run on one packet: send the prompt and the context files, parse the reply, apply it
 * in a sandbox workspace, run every test and signal, and, within the budget, feed the visible
 * tests' failures back for a few more turns. The run ends in one verdict:
 *
 * - PASS: every test green (visible and hidden, at least the sample's count), no signal.
 * - CAUGHT: tests red, or a signal matched with visible tests red.
 * - FALSE-GREEN: the visible tests are green, but hidden tests or a signal say wrong.
 * - GAVE-UP: a cap of the budget stopped the run after the model had answered (give_up.json).
 * - INCONCLUSIVE: no answer could be judged (endpoint down, malformed reply, sandbox failure,
 *   a budget too small for the first call). A dead endpoint is never GAVE-UP and never a pass,
 *   whatever stopped the retries.
 *
 * Only the final answer is parsed: the client keeps the reasoning apart, and a feedback turn
 * sends the model its answer back without it.
 */
import type { Packet } from '../packets/packet.ts';
import type { TestRunner } from './run-tests.ts';
import { createMeter, type BudgetLimits, type Spent } from '../llm/budget.ts';
import { describeFailure, type ChatMessage, type Failure, type ModelClient } from '../llm/client.ts';
import { evaluateReply, visibleTestOutput, type CaughtBy, type Evaluation, type SignalMatch } from './evaluate.ts';
import type { Ledger, LedgerSummary, ReceiptPaths } from '../llm/ledger.ts';
import { contextPaths, feedbackMessage, firstMessages, readStarterTexts } from './session-messages.ts';
import { parseReply } from '../llm/reply-parse.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, type StopReason, type WaitPlan } from '../llm/retry.ts';

/** How a model run ended. */
export type Verdict = 'PASS' | 'CAUGHT' | 'FALSE-GREEN' | 'GAVE-UP' | 'INCONCLUSIVE';

/** Clocks, randomness and sleep, injected (tests never wait for real backoff). */
export interface SessionClock {
  /** Monotonic ms. */
  now(): number;
  /** Wall clock, epoch ms. */
  nowEpochMs(): number;
  sleep(ms: number): Promise<void>;
  /** [0, 1). */
  random(): number;
}

/** The real clocks. */
export const systemClock: SessionClock = {
  now: () => performance.now(),
  nowEpochMs: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: () => Math.random(),
};

/** What a run needs. */
export interface SessionOptions {
  packet: Packet;
  packetDir: string;
  client: ModelClient;
  model: string;
  limits: BudgetLimits;
  policy?: RetryPolicy;
  runner: TestRunner;
  scratchDir: string;
  /** Tests the sample runs (visible and hidden). */
  expectedRan: number;
  /** Feedback turns after the first answer (0: one answer only). */
  feedbackTurns: number;
  /** Stop after this many answers in a row that change no test result. */
  stallCalls: number;
  ledger: Ledger;
  clock: SessionClock;
  /** Wraps each sandbox run (a shared pool). */
  schedule?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Told about waits between attempts. */
  onWait?: (plan: WaitPlan, retry: number) => void;
  /** The max_tokens each request sends (the client's default when unset). */
  maxReplyTokens?: number;
}

/** One turn of the run. */
export interface TurnRecord {
  turn: number;
  /** Attempts this turn (model calls). */
  calls: number;
  /** The call's final error class, if any. */
  error: string | null;
  /** `files`, `diff` or `files+diff` when the reply parsed; otherwise why it was rejected. */
  reply: string;
  /** Reasoning kept apart from the answer: where it was, and its length in characters. */
  reasoning?: { sources: string[]; chars: number };
  /** What the parser noted (a path given twice, a whole file and a diff for one path and which was applied). */
  notes?: string[];
  verdict?: Evaluation['verdict'];
  tests?: string;
}

/** Why a run was inconclusive. */
export type InconclusiveCause = 'endpoint' | 'reply' | 'sandbox' | 'budget';

/** The outcome of a run. */
export interface SessionResult {
  verdict: Verdict;
  /** The verdict in words. */
  reason: string;
  inconclusiveCause?: InconclusiveCause;
  /** What caught a wrong answer (CAUGHT, FALSE-GREEN, or the last judged answer of a GAVE-UP run). */
  caughtBy: CaughtBy[];
  signals: SignalMatch[];
  /** PASS on the first answer: the packet may leak its answer. */
  possibleLeak: boolean;
  /** The last judged answer. */
  evaluation?: Evaluation;
  turns: TurnRecord[];
  stop?: { reason: StopReason; detail: string };
  /** The failed attempt that ended the run's last call, as the server put it (class, status, message). */
  failure?: Failure;
  /** Models the server says answered, when not the one asked for. */
  servedModels: string[];
  spent: Spent;
  ledger: LedgerSummary;
  receipts: ReceiptPaths;
}

function capLimit(limits: BudgetLimits, reason: StopReason): number {
  switch (reason) {
    case 'model-calls':
      return limits.modelCalls;
    case 'tokens':
      return limits.tokens;
    case 'wall-clock':
      return limits.wallSeconds;
    case 'identical-errors':
      return limits.identicalErrors;
  }
}

/** Run one model on one packet. Never throws for endpoint or reply trouble: those are verdicts. */
export async function runSession(o: SessionOptions): Promise<SessionResult> {
  const { packet, clock } = o;
  const meter = createMeter(o.limits, clock.now);
  const starter = await readStarterTexts(o.packet, o.packetDir);
  const context = new Map(contextPaths(packet).filter((p) => starter.has(p)).map((p) => [p, starter.get(p)!] as [string, string]));
  const base = firstMessages(packet, context);
  let messages: ChatMessage[] = base;
  const current = new Map(starter);
  const files = new Map<string, string>();
  const deleted = new Set<string>();
  const turns: TurnRecord[] = [];
  let last: Evaluation | undefined;
  let lastKey: string | undefined;
  let stall = 0;

  const finish = async (r: Omit<SessionResult, 'spent' | 'ledger' | 'receipts' | 'turns' | 'caughtBy' | 'signals' | 'possibleLeak' | 'servedModels'> & { possibleLeak?: boolean }): Promise<SessionResult> => {
    const spent = meter.spent();
    const ledger = await o.ledger.close({
      verdict: r.verdict,
      stop: r.stop?.reason ?? null,
      wall_ms: spent.wallMs,
      turns: turns.length,
    });
    return {
      ...r,
      servedModels: [...new Set(o.ledger.lines.map((l) => l.served_model).filter((m) => m !== null))],
      possibleLeak: r.possibleLeak ?? false,
      caughtBy: r.evaluation?.caughtBy ?? [],
      signals: r.evaluation?.signals ?? [],
      turns,
      spent,
      ledger,
      receipts: o.ledger.paths(),
    };
  };

  for (let turn = 1; turn <= 1 + Math.max(0, o.feedbackTurns); turn++) {
    const call = await o.client.complete(messages, {
      model: o.model,
      turn,
      meter,
      ledger: o.ledger,
      policy: o.policy ?? DEFAULT_RETRY_POLICY,
      random: clock.random,
      sleep: clock.sleep,
      nowEpochMs: clock.nowEpochMs,
      now: clock.now,
      ...(o.onWait ? { onWait: o.onWait } : {}),
      ...(o.maxReplyTokens ? { maxReplyTokens: o.maxReplyTokens } : {}),
    });
    if (call.stop) {
      turns.push({ turn, calls: call.attempts, error: call.error, reply: `stopped: ${call.stop.detail}` });
      const spent = meter.spent();
      const estimate = call.stop.estimate ? { estimate: call.stop.estimate } : {};
      await o.ledger.giveUp({ reason: call.stop.reason, detail: call.stop.detail, limit: capLimit(o.limits, call.stop.reason), spent, ...estimate, ts: new Date(clock.nowEpochMs()).toISOString() });
      const failure = call.failure ? { failure: call.failure } : {};
      if (!last) {
        // No attempt failed: the budget alone stopped the run before any answer (a budget too small, not an endpoint down).
        const budgetOnly = !call.failure && !o.ledger.lines.some((l) => l.error && l.error !== 'missing-usage');
        return finish({
          verdict: 'INCONCLUSIVE',
          inconclusiveCause: budgetOnly ? 'budget' : 'endpoint',
          reason: `no answer could be judged: ${call.stop.detail}${call.failure ? `; the last attempt ended ${describeFailure(call.failure)}` : ''}`,
          stop: call.stop,
          ...failure,
        });
      }
      return finish({ verdict: 'GAVE-UP', reason: `${call.stop.detail}; the last answer was ${last.verdict}`, stop: call.stop, evaluation: last, ...failure });
    }
    if (call.output === null) {
      turns.push({ turn, calls: call.attempts, error: call.error, reply: 'no answer' });
      const why = `the endpoint gave no usable answer: ${call.detail ?? call.error ?? 'unknown error'}`;
      const failure = call.failure ? { failure: call.failure } : {};
      // An answer was already judged (and was not a pass): that verdict stands.
      if (last) return finish({ verdict: last.verdict, reason: `${describeCatch(last)} (${last.summary}); then ${why}`, evaluation: last, ...failure });
      return finish({ verdict: 'INCONCLUSIVE', inconclusiveCause: 'endpoint', reason: why, ...failure });
    }
    const parsed = parseReply(call.output, current);
    const more = turn <= o.feedbackTurns;
    const kept = call.reasoning ? { reasoning: call.reasoning } : {};
    if (!parsed.ok) {
      turns.push({ turn, calls: call.attempts, error: call.error, reply: `rejected: ${parsed.reason}`, ...kept });
      stall = lastKey === 'rejected' ? stall + 1 : 0;
      lastKey = 'rejected';
      if (!more || stall >= o.stallCalls) {
        if (last) return finish({ verdict: last.verdict, reason: `${describeCatch(last)} (${last.summary}); the next reply could not be applied: ${parsed.reason}`, evaluation: last });
        return finish({ verdict: 'INCONCLUSIVE', inconclusiveCause: 'reply', reason: `the reply could not be applied: ${parsed.reason}` });
      }
      messages = [...base, { role: 'assistant', content: call.output }, { role: 'user', content: feedbackMessage({ rejected: parsed.reason }) }];
      continue;
    }
    for (const [p, t] of parsed.files) {
      files.set(p, t);
      current.set(p, t);
      deleted.delete(p);
    }
    for (const d of parsed.deleted) {
      files.delete(d);
      current.delete(d);
      deleted.add(d);
    }
    const evaluation = await evaluateReply({
      packet,
      packetDir: o.packetDir,
      files,
      deleted: [...deleted],
      runner: o.runner,
      scratchDir: o.scratchDir,
      expectedRan: o.expectedRan,
      ...(o.schedule ? { schedule: o.schedule } : {}),
      now: clock.now,
    });
    turns.push({
      turn,
      calls: call.attempts,
      error: call.error,
      reply: evaluation.rejected ? `rejected: ${evaluation.rejected}` : parsed.format,
      verdict: evaluation.verdict,
      tests: evaluation.summary,
      ...kept,
      ...(parsed.notes.length ? { notes: parsed.notes } : {}),
    });
    if (evaluation.infra) {
      return finish({ verdict: 'INCONCLUSIVE', inconclusiveCause: 'sandbox', reason: evaluation.infra, evaluation });
    }
    if (evaluation.rejected) {
      return finish({ verdict: 'INCONCLUSIVE', inconclusiveCause: 'reply', reason: `the reply could not be applied: ${evaluation.rejected}`, evaluation });
    }
    last = evaluation;
    if (evaluation.verdict === 'PASS') {
      return finish({
        verdict: 'PASS',
        reason: `all tests green (${evaluation.summary}) and no signal matched, on answer ${turn}`,
        evaluation,
        possibleLeak: turn === 1,
      });
    }
    if (evaluation.verdict === 'FALSE-GREEN') {
      return finish({ verdict: 'FALSE-GREEN', reason: `the visible tests are green but ${describeCatch(evaluation)} (${evaluation.summary})`, evaluation });
    }
    // CAUGHT: feed the visible failures back while turns and answers that change something remain.
    stall = lastKey === evaluation.resultKey ? stall + 1 : 0;
    lastKey = evaluation.resultKey;
    if (!more || stall >= o.stallCalls) {
      const why = !more ? '' : `; stopped after ${stall} answer${stall === 1 ? '' : 's'} that changed no test result`;
      return finish({ verdict: 'CAUGHT', reason: `${describeCatch(evaluation)} (${evaluation.summary})${why}`, evaluation });
    }
    const output = await visibleTestOutput({ packet, packetDir: o.packetDir, files, deleted: [...deleted], runner: o.runner, scratchDir: o.scratchDir, ...(o.schedule ? { schedule: o.schedule } : {}), now: clock.now });
    messages = [...base, { role: 'assistant', content: call.output }, { role: 'user', content: feedbackMessage({ tests: output }) }];
  }
  // Not reached: every path through the last turn returns.
  return finish({ verdict: 'INCONCLUSIVE', inconclusiveCause: 'reply', reason: 'the run ended without a verdict' });
}

/** What caught a wrong answer, in words. */
export function describeCatch(e: Pick<Evaluation, 'caughtBy' | 'signals'>): string {
  const parts: string[] = [];
  if (e.caughtBy.includes('visible-tests')) parts.push('the visible tests fail');
  if (e.caughtBy.includes('hidden-tests')) parts.push('the hidden tests fail');
  if (e.caughtBy.includes('signal')) parts.push(`the signal of ${e.signals.map((s) => `"${s.mode}"`).join(', ')} matches (${e.signals[0]!.where}: ${e.signals[0]!.line})`);
  return parts.join(', ') || 'nothing';
}
