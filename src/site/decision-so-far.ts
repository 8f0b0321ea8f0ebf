import { decide } from '../judge/score.ts';
import { graderVeto, shortReason, verdictWords, vetoReason, type GraderWord } from '../judge/verdict-words.ts';
import type { ScoringCard } from './scored-sheet.ts';

/**
 * Where a card's decision stands while rows are open, in the words of the scorecard's decision
 * so far: a fired veto or a total that cannot reach the hire bar (the caps counted) decides
 * no-hire before every row is scored. With the grader's verdict, a no-hire names it as the
 * scorecard does (the phrases of src/judge/verdict-words.ts). Pure.
 */
export function decisionSoFar(
  card: Pick<ScoringCard, 'rubric'>,
  scores: Readonly<Record<string, number | undefined>>,
  caps: Readonly<Record<string, { max: number }>> = {},
  grader?: GraderWord & { auto?: Readonly<Record<string, number>> },
): { state: 'hire' | 'no-hire' | 'pending'; reason: string; open: number } {
  const { rows, hireBar, vetoes } = card.rubric;
  const open = rows.filter((r) => scores[r.id] === undefined);
  const scored: Record<string, number> = {};
  for (const r of rows) if (scores[r.id] !== undefined) scored[r.id] = scores[r.id]!;
  // A finding the grader counts as a veto holds whatever the rows say, as the scorecard's own decision does.
  const vetoed = graderVeto(grader);
  if (vetoed) return { state: 'no-hire', reason: vetoed, open: open.length };
  if (open.length === 0) {
    const d = decide(card.rubric, scored);
    return { state: d.decision, reason: d.reason, open: 0 };
  }
  const fired = vetoes.filter((v) => v.row in scored && scored[v.row]! <= v.atMost);
  const caught = verdictWords(grader);
  if (fired.length) return { state: 'no-hire', reason: vetoReason(fired.map((v) => ({ row: v.row, score: scored[v.row]!, atMost: v.atMost, note: v.note })), caught), open: open.length };
  const points = Object.values(scored).reduce((n, s) => n + s, 0);
  const best = points + open.reduce((n, r) => n + Math.min(r.max, caps[r.id]?.max ?? r.max), 0);
  // While the scored rows are the scorecard's automatic rows as it scored them, the words are the card's own.
  const asGraded = grader?.auto !== undefined && Object.keys(scored).length === Object.keys(grader.auto).length && Object.entries(grader.auto).every(([row, s]) => scored[row] === s);
  if (best < hireBar) return { state: 'no-hire', reason: shortReason(best, hireBar, caught, asGraded ? 'its automatic rows' : 'the scores so far'), open: open.length };
  return { state: 'pending', reason: `${open.length} of ${rows.length} rows still to score`, open: open.length };
}
