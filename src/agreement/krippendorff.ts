/**
 * Krippendorff's alpha over reliability data: any number of raters, missing values allowed, by
 * the coincidence matrix of Krippendorff, "Computing Krippendorff's Alpha-Reliability" (2011).
 * Pure; `units` holds each unit's values, one per rater who rated it (missing ones left out).
 */

/** The level of measurement: how far apart two values are (the difference function, squared). */
export type AlphaMetric = 'nominal' | 'ordinal' | 'interval' | 'ratio';

/** Alpha with what it was computed from; `alpha` is null when the data cannot give one. */
export interface AlphaResult {
  /** 1 - observed / expected disagreement; null without two pairable values or without any variation. */
  alpha: number | null;
  /** Values in units rated at least twice (n of the coincidence matrix). */
  pairable: number;
  /** Observed disagreement. */
  observed: number;
  /** Disagreement expected by chance. */
  expected: number;
}

/** Alpha of the values of each unit (a unit rated once adds nothing). */
export function krippendorffAlpha(units: readonly (readonly number[])[], metric: AlphaMetric): AlphaResult {
  const coincidence = new Map<number, Map<number, number>>();
  const add = (c: number, k: number, w: number) => {
    const row = coincidence.get(c) ?? new Map<number, number>();
    row.set(k, (row.get(k) ?? 0) + w);
    coincidence.set(c, row);
  };
  for (const values of units) {
    const m = values.length;
    if (m < 2) continue;
    for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) if (i !== j) add(values[i]!, values[j]!, 1 / (m - 1));
  }
  const levels = [...coincidence.keys()].sort((a, b) => a - b);
  const nc = new Map(levels.map((c) => [c, [...coincidence.get(c)!.values()].reduce((s, v) => s + v, 0)]));
  const n = [...nc.values()].reduce((s, v) => s + v, 0);
  if (n < 2) return { alpha: null, pairable: n, observed: 0, expected: 0 };
  const delta = difference(metric, levels, nc);
  let observed = 0;
  let expected = 0;
  for (const c of levels) {
    for (const k of levels) {
      const d = delta(c, k);
      observed += (coincidence.get(c)!.get(k) ?? 0) * d;
      expected += nc.get(c)! * nc.get(k)! * d;
    }
  }
  observed /= n;
  expected /= n * (n - 1);
  return { alpha: expected === 0 ? null : 1 - observed / expected, pairable: round(n), observed, expected };
}

const round = (v: number) => Math.round(v * 1e9) / 1e9;

/** The squared difference function of a metric, over the values that occur. */
function difference(metric: AlphaMetric, levels: readonly number[], nc: ReadonlyMap<number, number>): (c: number, k: number) => number {
  if (metric === 'nominal') return (c, k) => (c === k ? 0 : 1);
  if (metric === 'interval') return (c, k) => (c - k) ** 2;
  if (metric === 'ratio') return (c, k) => (c + k === 0 ? 0 : ((c - k) / (c + k)) ** 2);
  // Ordinal: the values between c and k, counting c and k by half (ranks of the pooled values).
  const index = new Map(levels.map((c, i) => [c, i]));
  const counts = levels.map((c) => nc.get(c)!);
  return (c, k) => {
    let lo = index.get(c)!;
    let hi = index.get(k)!;
    if (lo > hi) [lo, hi] = [hi, lo];
    let sum = 0;
    for (let g = lo; g <= hi; g++) sum += counts[g]!;
    return (sum - (counts[lo]! + counts[hi]!) / 2) ** 2;
  };
}
