import { expect } from 'vitest';
import type { CheckResult, PacketReport, VariantReport } from '../../src/rehearse/report.ts';

/**
 * A rehearsed packet of three variants whose parameters reach only its prompt, as the leak check
 * flags it: a defect, both leak runs (v1 against v2, v2 against v3) failed with PK159, and v2 and
 * v3 named as the same tests as v1 (PK159, found without a run). Returns
 * the leak checks and the first two variants, for what the caller checks of them.
 */
export function promptOnlyLeaks(p: PacketReport): { leaks: CheckResult[]; v1: VariantReport; v2: VariantReport } {
  expect(p.status).toBe('defect');
  const leaks = p.checks.filter((c) => c.kind === 'leak');
  expect(leaks.map((c) => [c.id, c.ok, c.code])).toEqual([
    ['leak:v1>v2', false, 'PK159'],
    ['leak:v2>v3', false, 'PK159'],
    ['leak:v1=v2', false, 'PK159'],
    ['leak:v1=v3', false, 'PK159'],
  ]);
  const [v1, v2] = p.variants!;
  return { leaks, v1: v1!, v2: v2! };
}
