import { seededRandom } from '../kit/seeded-random.ts';

/**
 * A percentile bootstrap over units (the submissions): resample them with replacement, compute
 * the statistic again on each resample, and take the middle `level` of the results. Seeded
 * (mulberry32), so the same sheets and seed give the same interval on every machine. Pure.
 */

/** An interval, and how many resamples gave the statistic a value (an undefined one is left out). */
export interface BootstrapInterval {
  lower: number;
  upper: number;
  level: number;
  resamples: number;
}

/** The bootstrap interval of `statistic` over `units`, or null when fewer than two units or no resample gave a value. */
export function bootstrapInterval<U>(units: readonly U[], statistic: (sample: readonly U[]) => number | null, options: { seed: number; resamples: number; level?: number }): BootstrapInterval | null {
  const level = options.level ?? 0.95;
  if (units.length < 2) return null;
  const random = seededRandom(options.seed);
  const values: number[] = [];
  for (let b = 0; b < options.resamples; b++) {
    const sample = Array.from({ length: units.length }, () => units[Math.floor(random() * units.length)]!);
    const v = statistic(sample);
    if (v !== null && Number.isFinite(v)) values.push(v);
  }
  if (!values.length) return null;
  values.sort((a, b) => a - b);
  return { lower: quantile(values, (1 - level) / 2), upper: quantile(values, 1 - (1 - level) / 2), level, resamples: values.length };
}

/** The p-quantile of sorted values, interpolated between the nearest ranks (type 7). */
export function quantile(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}
