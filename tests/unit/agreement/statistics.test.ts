import { describe, expect, it } from 'vitest';
import { bootstrapInterval, quantile } from '../../../src/agreement/bootstrap.ts';
import { seededRandom } from '../../../src/kit/seeded-random.ts';
import { fCdf, fQuantile } from '../../../src/agreement/f-distribution.ts';
import { intraclass } from '../../../src/agreement/icc.ts';
import { pairsOfTable, quadraticKappa } from '../../../src/agreement/kappa.ts';
import { krippendorffAlpha } from '../../../src/agreement/krippendorff.ts';

/** Raters by units, null for a missing value, as the worked examples print them. */
const unitsOf = (raters: (number | null)[][]) => raters[0]!.map((_, u) => raters.map((r) => r[u]).filter((v): v is number => v !== null && v !== undefined));

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers,
// 12 units, missing values. He reports nominal 0.743, ordinal 0.815, interval 0.849, ratio 0.797.
const KRIPPENDORFF_2011 = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
  [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
];

// The 3 coders x 15 units example of Krippendorff's alpha's article (also the test data of the
// Python `krippendorff` package): nominal 0.691, interval 0.811.
const THREE_CODERS = [
  [null, null, null, null, null, 3, 4, 1, 2, 1, 1, 3, 3, null, 3],
  [1, null, 2, 1, 3, 3, 4, 3, null, null, null, null, null, null, null],
  [null, null, 2, 1, 3, 4, 4, null, 2, 1, 1, 3, 3, null, 4],
];

describe("Krippendorff's alpha", () => {
  it.each([
    ['nominal', 0.743],
    ['ordinal', 0.815],
    ['interval', 0.849],
    ['ratio', 0.797],
  ] as const)("gives Krippendorff's own %s value on his 4-observer example", (metric, expected) => {
    expect(krippendorffAlpha(unitsOf(KRIPPENDORFF_2011), metric).alpha).toBeCloseTo(expected, 3);
  });

  it('gives the published values of the 3-coder example with missing data', () => {
    expect(krippendorffAlpha(unitsOf(THREE_CODERS), 'nominal').alpha).toBeCloseTo(0.691358, 6);
    expect(krippendorffAlpha(unitsOf(THREE_CODERS), 'interval').alpha).toBeCloseTo(0.810845, 6);
  });

  it('is 1 for perfect agreement, undefined without variation or without a unit rated twice', () => {
    expect(krippendorffAlpha([[1, 1], [2, 2], [3, 3]], 'ordinal').alpha).toBe(1);
    expect(krippendorffAlpha([[2, 2], [2, 2]], 'ordinal').alpha).toBeNull();
    expect(krippendorffAlpha([[1], [2]], 'ordinal').alpha).toBeNull();
  });

  it('weighs an ordinal disagreement by the values between, not by the distance alone', () => {
    // Rank-based: 0 vs 3 with nothing scored between weighs like 0 vs 1 would.
    const far = krippendorffAlpha([[0, 3], [0, 0], [3, 3]], 'ordinal').alpha!;
    const near = krippendorffAlpha([[0, 1], [0, 0], [1, 1]], 'ordinal').alpha!;
    expect(far).toBeCloseTo(near, 12);
    const spread = [[0, 3], [1, 1], [0, 0], [3, 3]];
    expect(krippendorffAlpha(spread, 'ordinal').alpha).not.toBeCloseTo(krippendorffAlpha(spread, 'interval').alpha!, 3);
  });
});

describe("Cohen's weighted kappa, quadratic weights", () => {
  // Gwet, Handbook of Inter-Rater Reliability (irrCAC's cont3x3abstractors): 100 pregnancies by
  // two abstractors; irrCAC reports kappa 0.7964 and, with quadratic weights, 0.8921569.
  const ABSTRACTORS = [
    [13, 0, 0],
    [0, 20, 7],
    [0, 4, 56],
  ];
  it('gives the published value of the abstractors table', () => {
    expect(quadraticKappa(pairsOfTable(ABSTRACTORS))).toBeCloseTo(0.8921569, 7);
  });
  it('is 1 on agreement, negative on systematic disagreement, null without variation', () => {
    expect(quadraticKappa([[0, 0], [1, 1], [3, 3]])).toBe(1);
    expect(quadraticKappa([[0, 3], [3, 0]])).toBeLessThan(0);
    expect(quadraticKappa([[2, 2], [2, 2]])).toBeNull();
  });
});

describe('the intraclass correlation', () => {
  // Shrout & Fleiss (1979), Table 2: 6 targets, 4 judges. They report ICC(1,1) = .17,
  // ICC(2,1) = .29, ICC(3,1) = .71; R's psych::ICC gives ICC(2,1)'s 95% interval as [0.019, 0.76].
  const SHROUT_FLEISS = [
    [9, 2, 5, 8],
    [6, 1, 3, 2],
    [8, 4, 6, 8],
    [7, 1, 2, 6],
    [10, 5, 6, 9],
    [6, 2, 4, 7],
  ];
  it('gives Shrout and Fleiss\'s three single-rater ICCs', () => {
    const r = intraclass(SHROUT_FLEISS)!;
    expect(r.icc1).toBeCloseTo(0.17, 2);
    expect(r.icc2).toBeCloseTo(0.29, 2);
    expect(r.icc3).toBeCloseTo(0.71, 2);
    expect(r.ms.rows).toBeCloseTo(11.24, 2);
    expect(r.ms.columns).toBeCloseTo(32.49, 2);
    expect(r.ms.error).toBeCloseTo(1.02, 2);
  });
  it("gives McGraw and Wong's F-based interval of ICC(2,1), as psych::ICC prints it", () => {
    const r = intraclass(SHROUT_FLEISS)!;
    expect(r.interval!.lower).toBeCloseTo(0.019, 3);
    expect(r.interval!.upper).toBeCloseTo(0.76, 2);
  });
  it('gives [1, 1] for totals in perfect agreement, and an interval inside [-1, 1] for a negative ICC', () => {
    expect(intraclass([[1, 1], [2, 2], [3, 3]])).toMatchObject({ icc2: 1, interval: { lower: 1, upper: 1 } });
    const negative = intraclass([[1, 3], [3, 1], [2, 2], [1, 2]])!;
    expect(negative.icc2).toBeLessThan(0);
    // The same formula with SciPy's F quantiles: lower -1.837 (clamped to -1), upper 0.21218.
    expect(negative.interval!.lower).toBe(-1);
    expect(negative.interval!.upper).toBeCloseTo(0.212, 3);
    // No variance between targets or between raters: the interval's degrees of freedom are undefined.
    expect(intraclass([[1, 3], [3, 1], [2, 2]])!.interval).toBeNull();
  });
  it('refuses a table too small or without variance', () => {
    expect(intraclass([[1, 2]])).toBeNull();
    expect(intraclass([[3, 3], [3, 3]])).toBeNull();
  });
});

describe('the F distribution', () => {
  // scipy.stats.f.ppf(0.975, 5, 15) = 3.5764153492790607, f.ppf(0.95, 3, 10) = 3.7082648190468435,
  // f.ppf(0.975, 2.5, 7.3) = 6.000258449760683 (fractional degrees of freedom, as Satterthwaite's).
  it.each([
    [0.975, 5, 15, 3.5764153492790607],
    [0.95, 3, 10, 3.7082648190468435],
    [0.975, 2.5, 7.3, 6.000258449760683],
  ])('has the quantile %s of F(%s, %s)', (p, d1, d2, expected) => {
    expect(fQuantile(p, d1, d2)).toBeCloseTo(expected, 9);
    expect(fCdf(expected, d1, d2)).toBeCloseTo(p, 9);
  });
});

describe('the bootstrap', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const units = [1, 2, 3, 4, 5, 6, 7, 8];
    const mean = (s: readonly number[]) => s.reduce((a, b) => a + b, 0) / s.length;
    const a = bootstrapInterval(units, mean, { seed: 23, resamples: 500 });
    expect(bootstrapInterval(units, mean, { seed: 23, resamples: 500 })).toEqual(a);
    expect(bootstrapInterval(units, mean, { seed: 24, resamples: 500 })).not.toEqual(a);
    expect(a!.lower).toBeLessThan(4.5);
    expect(a!.upper).toBeGreaterThan(4.5);
    expect(a!.resamples).toBe(500);
  });
  it('leaves out resamples without a value, and has none with one unit', () => {
    expect(bootstrapInterval([1], () => 1, { seed: 1, resamples: 10 })).toBeNull();
    expect(bootstrapInterval([1, 2], () => null, { seed: 1, resamples: 10 })).toBeNull();
  });
  it('draws from [0, 1) and interpolates quantiles between ranks', () => {
    const r = seededRandom(7);
    for (let i = 0; i < 100; i++) expect(r()).toBeGreaterThanOrEqual(0);
    expect(quantile([0, 10], 0.25)).toBe(2.5);
  });
});
