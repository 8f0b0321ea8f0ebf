import type { RubricFrontmatter } from '../packets/schema/rubric.ts';

/** A filled-in rubric: a score per row id. */
export type RowScores = Readonly<Record<string, number>>;

/** The decision a scored card reaches. */
export interface Decision {
  /** Sum of the row scores. */
  total: number;
  /** The most a card can score. */
  max: number;
  /** The rubric's hire bar. */
  hireBar: number;
  /** The vetoes that fired, with their notes. */
  vetoes: { row: string; score: number; atMost: number; note: string }[];
  /** `hire` when the total clears the bar and no veto fired. */
  decision: 'hire' | 'no-hire';
  /** Why, in words. */
  reason: string;
}

/** Apply the hire bar and the vetoes to a scored card. Pure; shared by grading, rehearsal and the site's form. */
export function decide(rubric: Pick<RubricFrontmatter, 'rows' | 'hireBar' | 'vetoes'>, scores: RowScores): Decision {
  const total = rubric.rows.reduce((sum, row) => sum + Math.max(0, Math.min(row.max, scores[row.id] ?? 0)), 0);
  const max = rubric.rows.reduce((sum, row) => sum + row.max, 0);
  const vetoes = rubric.vetoes
    .filter((v) => (scores[v.row] ?? 0) <= v.atMost)
    .map((v) => ({ row: v.row, score: scores[v.row] ?? 0, atMost: v.atMost, note: v.note }));
  const clears = total >= rubric.hireBar;
  const decision = clears && vetoes.length === 0 ? 'hire' : 'no-hire';
  const reason = vetoes.length
    ? `veto on ${vetoes.map((v) => `${v.row} (${v.score} <= ${v.atMost})`).join(', ')}`
    : clears
      ? `${total} of ${max} clears the hire bar of ${rubric.hireBar}`
      : `${total} of ${max} is below the hire bar of ${rubric.hireBar}`;
  return { total, max, hireBar: rubric.hireBar, vetoes, decision, reason };
}
