/**
 * The budget of one model run: the packet's caps (prompt frontmatter `budget`), lowered by
 * flags, never raised. The meter counts every attempt (retries are model calls), the tokens the
 * endpoint reported (unknown usage stays unknown and is counted apart), the wall clock and the
 * streak of identical errors.
 */
import { classInfo, type ErrorClass } from './error-class.ts';
import type { StopReason } from './retry.ts';

/** Hard caps on one model run. */
export interface BudgetLimits {
  /** Model calls, every attempt included. */
  modelCalls: number;
  /** Prompt plus completion tokens, as reported by the endpoint. */
  tokens: number;
  /** Wall-clock seconds for the whole run. */
  wallSeconds: number;
  /** Identical errors in a row before the run stops. */
  identicalErrors: number;
}

/** The packet's caps, each lowered by a flag when the flag is lower; a higher flag is ignored and named. */
export function effectiveBudget(packet: BudgetLimits, flags: Partial<BudgetLimits>): { limits: BudgetLimits; ignored: string[] } {
  const limits = { ...packet };
  const ignored: string[] = [];
  for (const key of Object.keys(packet) as (keyof BudgetLimits)[]) {
    const v = flags[key];
    if (v === undefined) continue;
    if (v < packet[key]) limits[key] = v;
    else if (v > packet[key]) ignored.push(`${key} ${v} (the packet allows ${packet[key]}; flags can only lower a budget)`);
  }
  return { limits, ignored };
}

/** What a run spent so far. */
export interface Spent {
  calls: number;
  /** Tokens of the calls whose usage is known. */
  knownTokens: number;
  /** Calls that may have spent tokens the endpoint did not report (see ClassInfo.tokensUnknown): unknown, not zero. */
  unknownUsageCalls: number;
  wallMs: number;
  /** The current streak of identical errors. */
  identicalErrors: number;
}

/** Counts one run against its limits. */
export interface BudgetMeter {
  readonly limits: BudgetLimits;
  /** Milliseconds left before the deadline. */
  remainingMs(): number;
  /** The first cap that forbids another call now, or null. */
  capReached(): StopReason | null;
  /** Count one attempt. `errorKey` identifies the error (class and status) for the identical-errors streak. */
  record(attempt: { error: ErrorClass | null; usable: boolean; errorKey: string | null; usage: { prompt_tokens: number; completion_tokens: number } | null }): void;
  spent(): Spent;
}

/** A meter over `limits`, started now. `now` is a monotonic clock in ms. */
export function createMeter(limits: BudgetLimits, now: () => number): BudgetMeter {
  const started = now();
  const deadline = started + limits.wallSeconds * 1000;
  let calls = 0;
  let knownTokens = 0;
  let unknownUsageCalls = 0;
  let streakKey: string | null = null;
  let streak = 0;
  return {
    limits,
    remainingMs: () => deadline - now(),
    capReached() {
      if (streak >= limits.identicalErrors) return 'identical-errors';
      if (calls >= limits.modelCalls) return 'model-calls';
      if (knownTokens >= limits.tokens) return 'tokens';
      if (now() >= deadline) return 'wall-clock';
      return null;
    },
    record(a) {
      calls++;
      if (a.usage) knownTokens += a.usage.prompt_tokens + a.usage.completion_tokens;
      else if (!a.error || classInfo(a.error).tokensUnknown) unknownUsageCalls++;
      if (a.usable || !a.errorKey) {
        streakKey = null;
        streak = 0;
      } else if (a.errorKey === streakKey) {
        streak++;
      } else {
        streakKey = a.errorKey;
        streak = 1;
      }
    },
    spent: () => ({ calls, knownTokens, unknownUsageCalls, wallMs: Math.round(now() - started), identicalErrors: streak }),
  };
}
