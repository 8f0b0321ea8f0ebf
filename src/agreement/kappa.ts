/**
 * Cohen's weighted kappa of two raters with quadratic weights (Cohen 1968; the Fleiss-Cohen
 * weights, a disagreement of d points costs d squared): 1 - sum(w * observed) / sum(w * chance),
 * over the units both raters scored. Pure.
 */

/** Kappa, or null with fewer than two units both rated or no disagreement to expect by chance. */
export function quadraticKappa(pairs: readonly (readonly [number, number])[]): number | null {
  const n = pairs.length;
  if (n < 2) return null;
  let observed = 0;
  for (const [a, b] of pairs) observed += (a - b) ** 2;
  let chance = 0;
  for (const [a] of pairs) for (const [, b] of pairs) chance += (a - b) ** 2;
  observed /= n;
  chance /= n * n;
  return chance === 0 ? null : 1 - observed / chance;
}

/** Pairs from a contingency table (rows: rater A's category i, columns: rater B's j), for tables published as counts. */
export function pairsOfTable(table: readonly (readonly number[])[]): [number, number][] {
  return table.flatMap((row, i) => row.flatMap((count, j) => Array.from({ length: count }, () => [i, j] as [number, number])));
}
