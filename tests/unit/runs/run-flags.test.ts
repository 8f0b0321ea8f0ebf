import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { budgetFlags, DEFAULT_TIMEOUT_SECONDS, poolOf } from '../../../src/runs/run-flags.ts';

describe('the run flags', () => {
  it('take the numbers as given, and default --jobs to the cores and --timeout to 30 s', () => {
    expect(poolOf({ jobs: 3, timeout: 0.5 })).toEqual({ jobs: 3, timeoutMs: 500 });
    expect(poolOf({})).toEqual({ jobs: availableParallelism(), timeoutMs: DEFAULT_TIMEOUT_SECONDS * 1000 });
    expect(DEFAULT_TIMEOUT_SECONDS).toBe(30);
  });

  it('turn the budget flags given into budget limits, and leave out the others', () => {
    expect(budgetFlags({ 'max-calls': 3, 'max-seconds': 60 })).toEqual({ modelCalls: 3, wallSeconds: 60 });
    expect(budgetFlags({ 'max-tokens': 100, 'max-identical-errors': 2 })).toEqual({ tokens: 100, identicalErrors: 2 });
    expect(budgetFlags({})).toEqual({});
  });
});
