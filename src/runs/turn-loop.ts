/**
 * The model turn loop every run that calls a model goes through (a rehearsal's model run, a
 * mutation run): one budget meter for the run; each call through the kit's client with the
 * ledger, the retry policy, the injected clock and, when shared, the endpoint's gate; a call a
 * budget cap stopped leaves give_up.json before the run sees it; and the run decides after each
 * call whether it is done or sends the next turn's messages, while feedback turns remain.
 */
import { createMeter, type BudgetLimits, type BudgetMeter } from '../llm/budget.ts';
import type { CallResult, ChatMessage, ModelClient } from '../llm/client.ts';
import type { AttemptGate } from '../llm/endpoint-gate.ts';
import type { Ledger } from '../llm/ledger.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, type StopReason, type WaitPlan } from '../llm/retry.ts';

/** Clocks, randomness and sleep, injected (tests never wait for real backoff). */
export interface RunClock {
  /** Monotonic ms. */
  now(): number;
  /** Wall clock, epoch ms. */
  nowEpochMs(): number;
  sleep(ms: number): Promise<void>;
  /** [0, 1). */
  random(): number;
}

/** The real clocks. */
export const systemClock: RunClock = {
  now: () => performance.now(),
  nowEpochMs: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: () => Math.random(),
};

/** What the loop needs. */
export interface TurnLoopOptions {
  client: ModelClient;
  model: string;
  limits: BudgetLimits;
  policy?: RetryPolicy;
  ledger: Ledger;
  clock: RunClock;
  /** Calls after the first (0: one call only). */
  feedbackTurns: number;
  /** The max_tokens each request sends (the client's default when unset). */
  maxReplyTokens?: number;
  /** The endpoint's gate, shared with the other runs calling it. */
  gate?: AttemptGate;
  /** Told about waits between attempts. */
  onWait?: (plan: WaitPlan, retry: number) => void;
}

/** One call, as the run sees it. */
export interface TurnCall extends CallResult {
  /** Set when a budget cap stopped the call: give_up.json is written; `budgetOnly` when no attempt failed (a budget too small, not an endpoint down). */
  stopped?: { budgetOnly: boolean };
}

/** After a call: the run's outcome, or the next turn's messages. */
export type TurnStep<T> = { done: T } | { next: ChatMessage[] };

/** The limit a cap stands for, for give_up.json. */
export function capLimit(limits: BudgetLimits, reason: StopReason): number {
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

/** A run's turn loop: its meter, and `run`, which calls until a step is done or the turns run out (then undefined). */
export function createTurnLoop(o: TurnLoopOptions): {
  meter: BudgetMeter;
  run<T>(first: ChatMessage[], step: (call: TurnCall, turn: number, more: boolean) => Promise<TurnStep<T>> | TurnStep<T>): Promise<T | undefined>;
} {
  const { clock } = o;
  const meter = createMeter(o.limits, clock.now);
  return {
    meter,
    async run(first, step) {
      let messages = first;
      for (let turn = 1; turn <= 1 + Math.max(0, o.feedbackTurns); turn++) {
        const result = await o.client.complete(messages, {
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
          ...(o.gate ? { gate: o.gate } : {}),
        });
        let call: TurnCall = result;
        if (result.stop) {
          const spent = meter.spent();
          await o.ledger.giveUp({
            reason: result.stop.reason,
            detail: result.stop.detail,
            limit: capLimit(o.limits, result.stop.reason),
            spent,
            ...(result.stop.estimate ? { estimate: result.stop.estimate } : {}),
            ts: new Date(clock.nowEpochMs()).toISOString(),
          });
          const budgetOnly = !result.failure && !o.ledger.lines.some((l) => l.error && l.error !== 'missing-usage');
          call = { ...result, stopped: { budgetOnly } };
        }
        const next = await step(call, turn, turn <= o.feedbackTurns);
        if ('done' in next) return next.done;
        messages = next.next;
      }
      return undefined;
    },
  };
}
