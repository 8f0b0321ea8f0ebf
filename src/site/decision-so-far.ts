import { decide } from '../judge/score.ts';
import type { ScoringCard } from './scored-sheet.ts';

/**
 * Where a card's decision stands while rows are open, in the words of the scorecard's decision
 * so far: a fired veto or a total that cannot reach the hire bar (the caps counted) decides
 * no-hire before every row is scored. Pure.
 */
export function decisionSoFar(
  card: Pick<ScoringCard, 'rubric'>,
  scores: Readonly<Record<string, number | undefined>>,
  caps: Readonly<Record<string, { max: number }>> = {},
): { state: 'hire' | 'no-hire' | 'pending'; reason: string; open: number } {
  const { rows, hireBar, vetoes } = card.rubric;
  const open = rows.filter((r) => scores[r.id] === undefined);
  const scored: Record<string, number> = {};
  for (const r of rows) if (scores[r.id] !== undefined) scored[r.id] = scores[r.id]!;
  if (open.length === 0) {
    const d = decide(card.rubric, scored);
    return { state: d.decision, reason: d.reason, open: 0 };
  }
  const fired = vetoes.filter((v) => v.row in scored && scored[v.row]! <= v.atMost);
  if (fired.length) return { state: 'no-hire', reason: `veto on ${fired.map((v) => `${v.row} (${scored[v.row]} <= ${v.atMost}): ${v.note}`).join('; ')}`, open: open.length };
  const points = Object.values(scored).reduce((n, s) => n + s, 0);
  const best = points + open.reduce((n, r) => n + Math.min(r.max, caps[r.id]?.max ?? r.max), 0);
  if (best < hireBar) return { state: 'no-hire', reason: `at most ${best} of the hire bar's ${hireBar}, whatever the reviewer scores`, open: open.length };
  return { state: 'pending', reason: `${open.length} of ${rows.length} rows still to score`, open: open.length };
}
