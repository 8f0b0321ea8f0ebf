import { fQuantile } from './f-distribution.ts';

/**
 * Intraclass correlations of a complete table of n targets (rows) by k raters (columns), from
 * the two-way ANOVA's mean squares (Shrout & Fleiss 1979; McGraw & Wong 1996): ICC(1,1),
 * ICC(2,1) (two-way random, absolute agreement, single rater) and ICC(3,1), and the F-based
 * confidence interval of ICC(2,1) (McGraw & Wong 1996, table 7, with Satterthwaite's degrees of
 * freedom). Pure.
 */

/** The ICCs of a table and the interval of ICC(2,1). */
export interface IccResult {
  /** One-way random, single rater. */
  icc1: number;
  /** Two-way random, absolute agreement, single rater. */
  icc2: number;
  /** Two-way mixed, consistency, single rater. */
  icc3: number;
  /** The interval of ICC(2,1) at `level`; null where the F-based interval is undefined (no residual and no rater variance, ICC(2,1) = 1 exactly, gives [1, 1]). */
  interval: { lower: number; upper: number; level: number } | null;
  /** Targets and raters. */
  n: number;
  k: number;
  /** The mean squares: between targets, between raters, residual, within targets. */
  ms: { rows: number; columns: number; error: number; within: number };
}

/** The ICCs of `table` (every row the same length k >= 2, n >= 2 rows), or null when the table is too small or has no variance. */
export function intraclass(table: readonly (readonly number[])[], level = 0.95): IccResult | null {
  const n = table.length;
  const k = table[0]?.length ?? 0;
  if (n < 2 || k < 2 || table.some((r) => r.length !== k)) return null;
  const grand = table.flat().reduce((s, v) => s + v, 0) / (n * k);
  const rowMeans = table.map((r) => r.reduce((s, v) => s + v, 0) / k);
  const colMeans = Array.from({ length: k }, (_, j) => table.reduce((s, r) => s + r[j]!, 0) / n);
  const ssTotal = table.flat().reduce((s, v) => s + (v - grand) ** 2, 0);
  const ssRows = k * rowMeans.reduce((s, m) => s + (m - grand) ** 2, 0);
  const ssCols = n * colMeans.reduce((s, m) => s + (m - grand) ** 2, 0);
  const ssError = Math.max(0, ssTotal - ssRows - ssCols);
  const msr = ssRows / (n - 1);
  const msc = ssCols / (k - 1);
  const mse = ssError / ((n - 1) * (k - 1));
  const msw = (ssCols + ssError) / (n * (k - 1));
  const d2 = msr + (k - 1) * mse + (k * (msc - mse)) / n;
  if (ssTotal === 0 || d2 === 0) return null;
  const icc1 = (msr - msw) / (msr + (k - 1) * msw);
  const icc2 = (msr - mse) / d2;
  const icc3 = (msr - mse) / (msr + (k - 1) * mse);
  const bounds = icc2 >= 1 ? { lower: 1, upper: 1 } : icc2Interval(icc2, n, k, msr, msc, mse, level);
  return { icc1, icc2, icc3, interval: bounds && { ...bounds, level }, n, k, ms: { rows: msr, columns: msc, error: mse, within: msw } };
}

/** McGraw & Wong's interval of ICC(A,1), clamped to [-1, 1]; null when its degrees of freedom are undefined. */
function icc2Interval(icc: number, n: number, k: number, msr: number, msc: number, mse: number, level: number): { lower: number; upper: number } | null {
  const tail = 1 - (1 - level) / 2;
  const a = (k * icc) / (n * (1 - icc));
  const b = 1 + (k * icc * (n - 1)) / (n * (1 - icc));
  const v = (a * msc + b * mse) ** 2 / ((a * msc) ** 2 / (k - 1) + (b * mse) ** 2 / ((n - 1) * (k - 1)));
  const fLow = fQuantile(tail, n - 1, v);
  const fHigh = fQuantile(tail, v, n - 1);
  const lower = (n * (msr - fLow * mse)) / (fLow * (k * msc + (k * n - k - n) * mse) + n * msr);
  const upper = (n * (fHigh * msr - mse)) / (k * msc + (k * n - k - n) * mse + n * fHigh * msr);
  if (!Number.isFinite(lower) || !Number.isFinite(upper)) return null;
  const clamp = (x: number) => Math.max(-1, Math.min(1, x));
  return { lower: clamp(lower), upper: clamp(upper) };
}
