/**
 * The kit's one retry loop. The SDK's own retries are off (maxRetries 0), so every attempt is
 * seen, counted and written to the ledger here. Waits use full-jitter exponential backoff with
 * a cap, or the server's Retry-After when it is sane; the loop stops instead of waiting when
 * the wait would outlast the remaining budget. Randomness, sleep and clocks are injected.
 */
import { classInfo, type ErrorClass } from './error-class.ts';

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

/** What a Retry-After header asked for. */
export type RetryAfter = { ms: number } | { ignored: string };

/**
 * Read `retry-after-ms` or `Retry-After` (delta seconds or an HTTP date). Returns null when the
 * server sent neither, `{ ignored }` for a value that is malformed, negative or absurd (over
 * `maxMs`), and `{ ms }` otherwise. A date in the past means "now" (0 ms).
 */
export function parseRetryAfter(headers: { retryAfter: string | null; retryAfterMs: string | null }, nowEpochMs: number, maxMs: number): RetryAfter | null {
  const check = (ms: number, raw: string): RetryAfter => {
    if (!Number.isFinite(ms) || ms < 0) return { ignored: `malformed retry-after "${raw}"` };
    if (ms > maxMs) return { ignored: `absurd retry-after "${raw}" (over ${Math.round(maxMs / 1000)} s)` };
    return { ms: Math.ceil(ms) };
  };
  const msHeader = headers.retryAfterMs?.trim();
  if (msHeader) return /^\d+(\.\d+)?$/.test(msHeader) ? check(Number(msHeader), msHeader) : { ignored: `malformed retry-after-ms "${msHeader}"` };
  const raw = headers.retryAfter?.trim();
  if (!raw) return null;
  if (/^\d+(\.\d+)?$/.test(raw)) return check(Number(raw) * 1000, raw);
  if (/^-/.test(raw)) return { ignored: `malformed retry-after "${raw}"` };
  // An HTTP date: IMF-fixdate, or the obsolete RFC 850 and asctime forms Date.parse also reads.
  if (!/[a-z]{3}/i.test(raw)) return { ignored: `malformed retry-after "${raw}"` };
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return { ignored: `malformed retry-after "${raw}"` };
  return check(Math.max(0, at - nowEpochMs), raw);
}

/** How long to wait before the next attempt, and why. */
export interface WaitPlan {
  ms: number;
  source: 'retry-after' | 'backoff';
  /** Set when a Retry-After was sent but not used. */
  ignored?: string;
}

/** The wait before retry number `retry`: a sane Retry-After, else full-jitter backoff. */
export function planWait(
  retry: number,
  headers: { retryAfter: string | null; retryAfterMs: string | null },
  options: { policy: RetryPolicy; random: () => number; nowEpochMs: number },
): WaitPlan {
  const ra = parseRetryAfter(headers, options.nowEpochMs, options.policy.maxRetryAfterMs);
  if (ra && 'ms' in ra) return { ms: ra.ms, source: 'retry-after' };
  const ms = fullJitter(retry, options.policy, options.random);
  return ra ? { ms, source: 'backoff', ignored: ra.ignored } : { ms, source: 'backoff' };
}

/** Why a run stopped before it was done: a cap of the budget. */
export type StopReason = 'model-calls' | 'tokens' | 'wall-clock' | 'identical-errors';

/** One attempt's outcome, as the loop needs it. */
export type AttemptOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; error: ErrorClass; headers: { retryAfter: string | null; retryAfterMs: string | null }; value: T };

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
  capReached: () => StopReason | null;
  /** Make attempt number `n` (1-based). Never throws: failures are data. */
  attempt: (n: number) => Promise<AttemptOutcome<T>>;
  /** Told about each wait, for logs. */
  onWait?: (plan: WaitPlan, retry: number) => void;
}

/** How a call ended. */
export type LoopResult<T> =
  | { kind: 'ok'; value: T; attempts: number }
  | { kind: 'failed'; error: ErrorClass; value: T; attempts: number; why: 'not-retryable' | 'attempts-exhausted' }
  | { kind: 'stopped'; reason: StopReason; attempts: number; last?: { error: ErrorClass; value: T }; detail: string };

/** Run attempts until one succeeds, one fails for good, or a cap stops the loop. */
export async function retryLoop<T>(o: RetryLoopOptions<T>): Promise<LoopResult<T>> {
  let last: { error: ErrorClass; value: T } | undefined;
  for (let n = 1; ; n++) {
    const cap = o.capReached();
    if (cap) return { kind: 'stopped', reason: cap, attempts: n - 1, ...(last ? { last } : {}), detail: `the ${cap} cap was reached` };
    if (o.remainingMs() <= 0) return { kind: 'stopped', reason: 'wall-clock', attempts: n - 1, ...(last ? { last } : {}), detail: 'the wall-clock budget is spent' };
    const outcome = await o.attempt(n);
    if (outcome.ok) return { kind: 'ok', value: outcome.value, attempts: n };
    last = { error: outcome.error, value: outcome.value };
    if (!classInfo(outcome.error).retryable) return { kind: 'failed', error: outcome.error, value: outcome.value, attempts: n, why: 'not-retryable' };
    if (n >= o.policy.maxAttempts) return { kind: 'failed', error: outcome.error, value: outcome.value, attempts: n, why: 'attempts-exhausted' };
    const after = o.capReached();
    if (after) return { kind: 'stopped', reason: after, attempts: n, last, detail: `the ${after} cap was reached` };
    const plan = planWait(n, outcome.headers, { policy: o.policy, random: o.random, nowEpochMs: o.nowEpochMs() });
    const remaining = o.remainingMs();
    if (plan.ms >= remaining) {
      return {
        kind: 'stopped',
        reason: 'wall-clock',
        attempts: n,
        last,
        detail: `the next wait (${plan.ms} ms, ${plan.source}) would outlast the ${Math.max(0, Math.round(remaining))} ms left`,
      };
    }
    o.onWait?.(plan, n);
    if (plan.ms > 0) await o.sleep(plan.ms);
  }
}
