import { describe, expect, it } from 'vitest';
import { LEAK_PAIRS, leakDigest, leakPairs, variantCheck, weakerVariants } from '../../../src/rehearse/rehearse-variants.ts';
import type { CheckResult, PacketReport } from '../../../src/rehearse/report.ts';

const check = (id: string, ok: boolean, extra: Partial<CheckResult> = {}): CheckResult => ({ id, kind: 'mutant', expected: 'red', actual: ok ? 'killed' : 'survived', ok, durationMs: 1, ...extra });
const report = (checks: CheckResult[]): PacketReport => ({ id: 'p', version: '1', digest: 'd', status: 'fails-closed', checks, defects: [], cached: false, durationMs: 1 });

describe('the leak pairs', () => {
  it('pairs each variant with the next, at most LEAK_PAIRS', () => {
    expect(leakPairs(1)).toEqual([]);
    expect(leakPairs(2)).toEqual([[1, 2]]);
    expect(leakPairs(3)).toEqual([
      [1, 2],
      [2, 3],
    ]);
    expect(leakPairs(20)).toHaveLength(LEAK_PAIRS);
    expect(leakPairs(20)).toEqual([
      [1, 2],
      [2, 3],
      [3, 4],
    ]);
  });

  it('caches a pair under both digests, in order', () => {
    expect(leakDigest('a', 'b')).not.toBe(leakDigest('b', 'a'));
    expect(leakDigest('a', 'b')).toMatch(/^[0-9a-f]{64}$/);
    // A lab's pair (the key's answer laid out) is cached apart from a take-home's (the sample).
    expect(leakDigest('a', 'b', 'key')).not.toBe(leakDigest('a', 'b'));
    expect(leakDigest('a', 'b', 'sample')).toBe(leakDigest('a', 'b'));
  });
});

describe('the weaker variants', () => {
  const v = (n: number, values: Record<string, string | number>) => ({ id: `v${n}`, values });

  it('names a variant where a check fails that holds in another, with its values (PK158)', () => {
    const out = weakerVariants([
      { variant: v(1, { limit: 4 }), report: report([check('floor', true), check('mutant:a', true)]) },
      { variant: v(2, { limit: 7 }), report: report([check('floor', true), check('mutant:a', true)]) },
      { variant: v(3, { limit: 9 }), report: report([check('floor', true), check('mutant:a', false)]) },
    ]);
    expect(out.map((c) => [c.id, c.code, c.ok])).toEqual([['variant:v3', 'PK158', false]]);
    expect(out[0]!.defect).toContain('Variant v3 (limit=9)');
    expect(out[0]!.defect).toContain('mutant:a fails in it and holds in v1, v2');
    expect(out[0]!.variant).toEqual({ id: 'v3', values: { limit: 9 } });
  });

  it('tells nothing when a check fails in every variant, or could not be judged', () => {
    expect(
      weakerVariants([
        { variant: v(1, { limit: 4 }), report: report([check('mutant:a', false), check('floor', true)]) },
        { variant: v(2, { limit: 7 }), report: report([check('mutant:a', false), check('floor', false, { inconclusive: true })]) },
      ]),
    ).toEqual([]);
  });
});

describe("a variant's check in the packet's report", () => {
  it('is prefixed with the variant, names it and its values, and keeps its code', () => {
    const c = variantCheck({ id: 'v2', values: { func: 'to_seconds', limit: 3 } }, check('mutant:a', false, { code: 'PK446', defect: 'The tests miss it.' }));
    expect(c).toMatchObject({ id: 'v2:mutant:a', code: 'PK446', variant: { id: 'v2', values: { func: 'to_seconds', limit: 3 } }, defect: 'Variant v2 (func=to_seconds, limit=3): The tests miss it.' });
  });
});
