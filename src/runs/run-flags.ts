import { availableParallelism } from 'node:os';
import type { BudgetLimits } from '../llm/budget.ts';

/**
 * The numeric flags the run commands share, as the run library takes them: numbers already
 * checked against their bounds by the command's flag spec (`cli/command-specs.ts`), so a run
 * only fills in the defaults of the flags not given.
 */

/** `--jobs N` and `--timeout S`, as given. */
export interface PoolFlags {
  jobs?: number | undefined;
  timeout?: number | undefined;
}

/** The seconds per sandbox run when `--timeout` is not given. */
export const DEFAULT_TIMEOUT_SECONDS = 30;

/** The pool of sandbox runs: `--jobs` (default: the cores) at once, `--timeout` seconds each. */
export function poolOf(flags: PoolFlags): { jobs: number; timeoutMs: number } {
  return { jobs: flags.jobs ?? availableParallelism(), timeoutMs: (flags.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000 };
}

/** The budget flags, as given. */
export interface BudgetFlagValues {
  'max-calls'?: number | undefined;
  'max-tokens'?: number | undefined;
  'max-seconds'?: number | undefined;
  'max-identical-errors'?: number | undefined;
}

/** The budget limits the flags set (the packet's own budget caps them: `effectiveBudget`). */
export function budgetFlags(n: BudgetFlagValues): Partial<BudgetLimits> {
  return {
    ...(n['max-calls'] !== undefined ? { modelCalls: n['max-calls'] } : {}),
    ...(n['max-tokens'] !== undefined ? { tokens: n['max-tokens'] } : {}),
    ...(n['max-seconds'] !== undefined ? { wallSeconds: n['max-seconds'] } : {}),
    ...(n['max-identical-errors'] !== undefined ? { identicalErrors: n['max-identical-errors'] } : {}),
  };
}
