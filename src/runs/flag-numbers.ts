import { availableParallelism } from 'node:os';
import type { BudgetLimits } from '../llm/budget.ts';

/**
 * The numeric flags of the run commands (as given, or already parsed to numbers), checked where the run starts: whole numbers with a
 * lower (and sometimes an upper) bound, `--jobs` and `--timeout`, and the budget flags. Each
 * check gives the number or the sentence saying what is wrong, naming the command and the flag.
 */

/** A flag's bounds: `[name, min]` or `[name, min, max]`. */
export type WholeFlag = readonly [name: string, min: number, max?: number];

/** `value` as a whole number within bounds; undefined when not given; null when it is not one. */
export function wholeNumber(value: string | number | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined | null {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= min && n <= max ? n : null;
}

/** Every flag of `flags` read from `values` as a whole number; the first that is not one is the error. */
export function wholeNumbers(command: string, values: Readonly<Record<string, unknown>>, flags: readonly WholeFlag[]): { ok: true; n: Record<string, number | undefined> } | { ok: false; error: string } {
  const n: Record<string, number | undefined> = {};
  for (const [flag, min, max] of flags) {
    const value = values[flag] as string | number | undefined;
    const v = wholeNumber(value, min, max);
    if (v === null) return { ok: false, error: `packet ${command}: --${flag} must be a whole number ${max !== undefined ? `from ${min} to ${max}` : `of at least ${min}`}, not "${value}".\n` };
    n[flag] = v;
  }
  return { ok: true, n };
}

/** `--jobs N` (default: the cores) and `--timeout S`, shared by the commands that run tests in the sandbox. */
export function poolOptions(command: string, values: { jobs?: string | number | undefined; timeout?: string | number | undefined }): { ok: true; jobs: number; timeout: number } | { ok: false; error: string } {
  const jobs = values.jobs === undefined ? availableParallelism() : Number(values.jobs);
  const timeout = Number(values.timeout);
  if (!Number.isInteger(jobs) || jobs < 1) return { ok: false, error: `packet ${command}: --jobs must be a whole number of at least 1, not "${values.jobs}".\n` };
  if (!(timeout > 0)) return { ok: false, error: `packet ${command}: --timeout must be a positive number of seconds, not "${values.timeout}".\n` };
  return { ok: true, jobs, timeout };
}

/** The budget flags (`--max-calls`, `--max-tokens`, `--max-seconds`, `--max-identical-errors`), checked, as budget limits. */
export const BUDGET_FLAGS: readonly WholeFlag[] = [
  ['max-calls', 1],
  ['max-tokens', 1],
  ['max-seconds', 1],
  ['max-identical-errors', 1],
];

/** The budget limits the flags set (the packet's own budget caps them: `effectiveBudget`). */
export function budgetFlags(n: Readonly<Record<string, number | undefined>>): Partial<BudgetLimits> {
  return {
    ...(n['max-calls'] !== undefined ? { modelCalls: n['max-calls'] } : {}),
    ...(n['max-tokens'] !== undefined ? { tokens: n['max-tokens'] } : {}),
    ...(n['max-seconds'] !== undefined ? { wallSeconds: n['max-seconds'] } : {}),
    ...(n['max-identical-errors'] !== undefined ? { identicalErrors: n['max-identical-errors'] } : {}),
  };
}
