import type { RubricFrontmatter } from '../packets/schema/rubric.ts';
import { decide, type Decision, type RowScores } from './score.ts';

/**
 * Several reviewers' scores of one submission made into one decision, by the rule the rubric
 * declares (`combine` in rubric.mdx): a combined score per row (the median, of an even number
 * the lower middle, or the lowest), the hire bar on their total, and the vetoes that hold (one
 * reviewer's, or a majority's). Mechanical on purpose: no one argues an average in a debrief.
 * Pure; shared by `packet agreement` and the rubric page.
 */

/** The rule, as the rubric declares it. */
export type CombineRule = RubricFrontmatter['combine'];

/** The rule a rubric that declares none gets. */
export const DEFAULT_COMBINE: CombineRule = { rows: 'median', veto: 'any' };

/** The combined decision of several sheets. */
export interface CombinedDecision extends Decision {
  /** The combined score of each row. */
  scores: Record<string, number>;
  /** How many sheets were combined. */
  sheets: number;
  /** The rule applied. */
  rule: CombineRule;
}

/** The middle of sorted whole scores; of an even count, the lower middle. */
export function lowerMedian(values: readonly number[]): number {
  if (values.length === 0) throw new Error('lowerMedian: no values');
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/**
 * Combine complete sheets (a score on every row) of one submission. Throws on no sheets or a
 * sheet without a score for some row: a decision needs every row of every sheet.
 */
export function combineScores(rubric: Pick<RubricFrontmatter, 'rows' | 'hireBar' | 'vetoes'> & { combine?: CombineRule }, sheets: readonly RowScores[]): CombinedDecision {
  if (sheets.length === 0) throw new Error('combineScores: no sheets to combine');
  const rule = rubric.combine ?? DEFAULT_COMBINE;
  const scores: Record<string, number> = {};
  for (const row of rubric.rows) {
    const values = sheets.map((s, i) => {
      const v = s[row.id];
      if (v === undefined) throw new Error(`combineScores: sheet ${i + 1} has no score for row "${row.id}"`);
      return v;
    });
    scores[row.id] = rule.rows === 'lowest' ? Math.min(...values) : lowerMedian(values);
  }
  const base = decide(rubric, scores);
  const held = rubric.vetoes.filter((v) => {
    const fired = sheets.filter((s) => (s[v.row] ?? 0) <= v.atMost).length;
    return rule.veto === 'any' ? fired > 0 : fired * 2 > sheets.length;
  });
  const vetoes = held.map((v) => ({ row: v.row, score: scores[v.row] ?? 0, atMost: v.atMost, note: v.note }));
  const clears = base.total >= rubric.hireBar;
  const decision = clears && vetoes.length === 0 ? 'hire' : 'no-hire';
  const who = rule.veto === 'any' ? 'a reviewer' : 'a majority of reviewers';
  // The base reason may name a veto the rule does not hold (a majority rule, one reviewer's 0): say the total then.
  const reason = vetoes.length
    ? `veto on ${vetoes.map((v) => v.row).join(', ')} (fired by ${who})`
    : `${base.total} of ${base.max} ${clears ? 'clears' : 'is below'} the hire bar of ${rubric.hireBar}`;
  return { ...base, vetoes, decision, reason, scores, sheets: sheets.length, rule };
}
