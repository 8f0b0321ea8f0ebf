/**
 * The kit's one retry loop. The SDK's own retries are off (maxRetries 0), so every attempt is
 * seen, counted and written to the ledger here. Waits use full-jitter exponential backoff with
 * a cap, or the wait the server asked for when it is sane (Retry-After, reset headers, reset
 * times in the error body: see rate-limit.ts); the loop stops instead of waiting when the wait
 * would outlast the remaining budget. Randomness, sleep and clocks are injected.
 */
import type { AttemptGate } from './endpoint-gate.ts';
import { classInfo, type ErrorClass } from './error-class.ts';
import { serverWait, type RateLimitInput } from './rate-limit.ts';

export { parseRetryAfter, type RetryAfter } from './rate-limit.ts';

/** How the loop waits and how often it tries. */
export interface RetryPolicy {
  /** Backoff ceiling before the first retry, in ms; it doubles with each retry. */
  baseMs: number;
  /** The largest backoff ceiling, in ms. */
  capMs: number;
  /** Attempts per call, the first one included. The budget's model calls cap them too. */
  maxAttempts: number;
  /** A Retry-After above this many ms is absurd and ignored (backoff is used instead). */
  maxRetryAfterMs: number;
}

/** Defaults: 0.5 s doubling to 8 s, four attempts, Retry-After up to an hour. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseMs: 500, capMs: 8_000, maxAttempts: 4, maxRetryAfterMs: 3_600_000 };

/** The backoff ceiling before retry number `retry` (1 for the first retry): min(cap, base * 2^(retry-1)). */
export function backoffCeiling(retry: number, policy: Pick<RetryPolicy, 'baseMs' | 'capMs'>): number {
  const exp = Math.min(30, Math.max(0, retry - 1));
  return Math.min(policy.capMs, policy.baseMs * 2 ** exp);
}

/** Full jitter: a uniform wait between 0 and the ceiling. `random` returns [0, 1). */
export function fullJitter(retry: number, policy: Pick<RetryPolicy, 'baseMs' | 'capMs'>, random: () => number): number {
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.floor(r * backoffCeiling(retry, policy));
}

/** How long to wait before the next attempt, and why. */
export interface WaitPlan {
  ms: number;
  /** `retry-after`: the server said when (any header or body field); `backoff`: full jitter. */
  source: 'retry-after' | 'backoff';
  /** Where the server said it: `retry-after`, `x-ratelimit-reset-requests`, `error metadata`... */
  from?: string;
  /** Set when the server named a wait that was not used. */
  ignored?: string;
}

/** The wait before retry number `retry`: the server's when it names a sane one, else full-jitter backoff. */
export function planWait(retry: number, hints: RateLimitInput, options: { policy: RetryPolicy; random: () => number; nowEpochMs: number }): WaitPlan {
  const said = serverWait(hints, options.nowEpochMs, options.policy.maxRetryAfterMs);
  if (said && 'ms' in said) return { ms: said.ms, source: 'retry-after', from: said.from };
  const ms = fullJitter(retry, options.policy, options.random);
  return said ? { ms, source: 'backoff', ignored: said.ignored } : { ms, source: 'backoff' };
}

/** Why a run stopped before it was done: a cap of the budget. */
export type StopReason = 'model-calls' | 'tokens' | 'wall-clock' | 'identical-errors';

/** A cap that forbids the next attempt: its reason, and optionally the stop in words. */
export type CapStop = StopReason | { reason: StopReason; detail: string; estimate?: CallEstimate };

/** What the next call could cost: the prompt's estimate and the request's max_tokens. */
export interface CallEstimate {
  /** Estimated prompt tokens (tokenizer count times the calibration factor). */
  prompt: number;
  /** The max_tokens the request sends. */
  maxTokens: number;
  /** Tokens spent so far, as the cap check counts them. */
  spent: number;
}

/** One attempt's outcome, as the loop needs it. */
export type AttemptOutcome<T> = { ok: true; value: T } | { ok: false; error: ErrorClass; hints: RateLimitInput; value: T };

/** What the loop needs from its caller. */
export interface RetryLoopOptions<T> {
  policy: RetryPolicy;
  /** [0, 1). */
  random: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Wall clock in epoch ms, for HTTP-date Retry-After values. */
  nowEpochMs: () => number;
  /** Milliseconds left before the run's deadline. */
  remainingMs: () => number;
  /** A cap that forbids another attempt now (checked before every attempt), or null. */
  capReached: () => CapStop | null;
  /** Make attempt number `n` (1-based). Never throws: failures are data. */
  attempt: (n: number) => Promise<AttemptOutcome<T>>;
  /** Told about each wait, for logs. */
  onWait?: (plan: WaitPlan, retry: number) => void;
  /**
   * The endpoint's gate, shared with every other session calling it: each attempt waits there
   * for a slot and for the end of a pause, and a rate-limit answer (or any answer that says when
   * to come back) pauses it for everyone.
   */
  gate?: AttemptGate;
}

/** How a call ended. */
export type LoopResult<T> =
  | { kind: 'ok'; value: T; attempts: number }
  | { kind: 'failed'; error: ErrorClass; value: T; attempts: number; why: 'not-retryable' | 'attempts-exhausted' }
  | { kind: 'stopped'; reason: StopReason; attempts: number; last?: { error: ErrorClass; value: T }; detail: string; estimate?: CallEstimate };

function stopOf(cap: CapStop): { reason: StopReason; detail: string; estimate?: CallEstimate } {
  return typeof cap === 'string' ? { reason: cap, detail: `the ${cap} cap was reached` } : cap;
}

/** Run attempts until one succeeds, one fails for good, or a cap stops the loop. */
export async function retryLoop<T>(o: RetryLoopOptions<T>): Promise<LoopResult<T>> {
  let last: { error: ErrorClass; value: T } | undefined;
  for (let n = 1; ; n++) {
    const cap = o.capReached();
    if (cap) return { kind: 'stopped', attempts: n - 1, ...(last ? { last } : {}), ...stopOf(cap) };
    if (o.remainingMs() <= 0) return { kind: 'stopped', reason: 'wall-clock', attempts: n - 1, ...(last ? { last } : {}), detail: 'the wall-clock budget is spent' };
    const pass = o.gate ? await o.gate.enter(o.remainingMs) : undefined;
    if (pass && 'stop' in pass) return { kind: 'stopped', reason: 'wall-clock', attempts: n - 1, ...(last ? { last } : {}), detail: pass.stop };
    let outcome: AttemptOutcome<T>;
    try {
      outcome = await o.attempt(n);
    } finally {
      pass?.leave();
    }
    if (outcome.ok) return { kind: 'ok', value: outcome.value, attempts: n };
    last = { error: outcome.error, value: outcome.value };
    const retryable = classInfo(outcome.error).retryable;
    const plan = retryable ? planWait(n, outcome.hints, { policy: o.policy, random: o.random, nowEpochMs: o.nowEpochMs() }) : null;
    // A rate limit, or a server that says when to come back, slows the endpoint for every session,
    // this one's last attempt included. (A quota is not retried, and pauses nobody.)
    if (plan && (outcome.error === 'rate-limit' || plan.source === 'retry-after')) o.gate?.slow(plan.ms, plan.from ?? plan.source);
    if (!plan) return { kind: 'failed', error: outcome.error, value: outcome.value, attempts: n, why: 'not-retryable' };
    if (n >= o.policy.maxAttempts) return { kind: 'failed', error: outcome.error, value: outcome.value, attempts: n, why: 'attempts-exhausted' };
    const after = o.capReached();
    if (after) return { kind: 'stopped', attempts: n, last, ...stopOf(after) };
    const remaining = o.remainingMs();
    if (plan.ms >= remaining) {
      return {
        kind: 'stopped',
        reason: 'wall-clock',
        attempts: n,
        last,
        detail: `the next wait (${plan.ms} ms, ${plan.from ?? plan.source}) would outlast the ${Math.max(0, Math.round(remaining))} ms left`,
      };
    }
    o.onWait?.(plan, n);
    if (plan.ms > 0) await o.sleep(plan.ms);
  }
}
