/**
 * The budget of one model run: the packet's caps (prompt frontmatter `budget`), lowered by
 * flags, never raised. The meter counts every attempt (retries are model calls), the tokens the
 * endpoint reported (unknown usage stays unknown and is counted apart), the wall clock and the
 * streak of identical errors. The token cap is checked before each call: the tokens spent, plus
 * the next prompt's estimate, plus the request's max_tokens, must fit.
 */
import { classInfo, type ErrorClass } from './error-class.ts';
import type { CapStop, StopReason } from './retry.ts';

/**
 * The prompt estimate is the tokenizer's count times a factor: {@link INITIAL_PROMPT_FACTOR}
 * until the endpoint has reported a prompt's tokens, then the largest ratio reported / counted
 * seen so far (at least 1) times {@link PROMPT_FACTOR_MARGIN}. The first margin covers servers
 * whose tokenizers split text finer than cl100k_base (the 32,000-token vocabularies of older
 * open models count code about a fifth higher).
 */
export const INITIAL_PROMPT_FACTOR = 1.25;
export const PROMPT_FACTOR_MARGIN = 1.05;

/** Hard caps on one model run. */
export interface BudgetLimits {
  /** Model calls, every attempt included. */
  modelCalls: number;
  /** Prompt plus completion tokens, as reported by the endpoint; checked before each call with the next call's estimate. */
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
    // Stryker disable next-line ConditionalExpression: equivalent; an undefined flag compares neither lower nor higher.
    if (v === undefined) continue;
    // Stryker disable next-line EqualityOperator: equivalent; a flag equal to the packet's cap sets the same limit.
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
  /** What those calls may have spent, estimated (prompt estimate plus the reply's tokens, or max_tokens): counted against the cap, never written as usage. */
  estimatedUnknownTokens: number;
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
  /** The token cap's verdict on a call whose prompt counts `promptCount` tokens and which asks for `maxTokens`: null when it fits. */
  nextCallStop(promptCount: number, maxTokens: number): CapStop | null;
  /** A tokenizer count times the current calibration factor, rounded up. */
  calibrated(promptCount: number): number;
  /**
   * Count one attempt. `errorKey` identifies the error (class and status) for the
   * identical-errors streak (null: not a repeatable error). `promptCount` is the tokenizer's count
   * of the prompt (for calibration); `unreported`, the estimate of what an attempt without usage
   * may have spent.
   */
  record(attempt: {
    error: ErrorClass | null;
    usable: boolean;
    errorKey: string | null;
    usage: { prompt_tokens: number; completion_tokens: number } | null;
    promptCount?: number;
    unreported?: number;
  }): void;
  spent(): Spent;
}

/** A meter over `limits`, started now. `now` is a monotonic clock in ms. */
export function createMeter(limits: BudgetLimits, now: () => number): BudgetMeter {
  const started = now();
  const deadline = started + limits.wallSeconds * 1000;
  let calls = 0;
  let knownTokens = 0;
  let unknownUsageCalls = 0;
  let estimatedUnknownTokens = 0;
  let ratio = 0;
  let streakKey: string | null = null;
  let streak = 0;
  const factor = () => (ratio > 0 ? Math.max(1, ratio) * PROMPT_FACTOR_MARGIN : INITIAL_PROMPT_FACTOR);
  // The small epsilon keeps float noise (1.1 * 1.05 * 1000 = 1155.0000000000002) from adding a token.
  const calibrated = (count: number) => Math.ceil(count * factor() - 1e-9);
  return {
    limits,
    calibrated,
    nextCallStop(promptCount, maxTokens) {
      const spent = knownTokens + estimatedUnknownTokens;
      const prompt = calibrated(promptCount);
      const total = spent + prompt + maxTokens;
      if (total <= limits.tokens) return null;
      return {
        reason: 'tokens',
        detail: `the next call could cross the ${limits.tokens}-token cap: ${spent} spent + about ${prompt} prompt + ${maxTokens} max_tokens = ${total}`,
        estimate: { prompt, maxTokens, spent },
      };
    },
    remainingMs: () => deadline - now(),
    capReached() {
      if (streak >= limits.identicalErrors) return 'identical-errors';
      if (calls >= limits.modelCalls) return 'model-calls';
      if (knownTokens + estimatedUnknownTokens >= limits.tokens) return 'tokens';
      if (now() >= deadline) return 'wall-clock';
      return null;
    },
    record(a) {
      calls++;
      if (a.usage) {
        knownTokens += a.usage.prompt_tokens + a.usage.completion_tokens;
        if (a.promptCount) ratio = Math.max(ratio, a.usage.prompt_tokens / a.promptCount);
      } else if (!a.error || classInfo(a.error).tokensUnknown) {
        unknownUsageCalls++;
        estimatedUnknownTokens += a.unreported ?? 0;
      }
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
    spent: () => ({ calls, knownTokens, unknownUsageCalls, estimatedUnknownTokens, wallMs: Math.round(now() - started), identicalErrors: streak }),
  };
}
