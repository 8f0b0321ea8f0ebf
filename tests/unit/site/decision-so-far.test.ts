import { describe, expect, it } from 'vitest';
import { decisionSoFar as judgeDecisionSoFar } from '../../../src/judge/scorecard.ts';
import { decisionSoFar } from '../../../src/site/decision-so-far.ts';
import type { ScoringCard } from '../../../src/site/scored-sheet.ts';
import { GradeErrors } from '../../../src/errors/grade-catalog.ts';
import { GRADER_VETO_CODES } from '../../../src/judge/verdict-words.ts';

const card: Pick<ScoringCard, 'rubric'> = {
  rubric: {
    hireBar: 6,
    rows: [
      { id: 'tests', criterion: 'Tests pass.', max: 3, auto: 'tests', levels: {} },
      { id: 'honest', criterion: 'No fake green.', max: 2, levels: {} },
      { id: 'notes', criterion: 'Notes.', max: 3, levels: {} },
    ],
    vetoes: [{ row: 'honest', atMost: 0, note: 'A fake green is a no.' }],
  },
};

describe('the decision so far while rows are open', () => {
  it('is no-hire once the total cannot reach the bar, the caps counted, in the words of the scorecard', () => {
    expect(decisionSoFar(card, { tests: 0 })).toEqual({ state: 'no-hire', reason: "at most 5 of the hire bar's 6, whatever the reviewer scores", open: 2 });
    expect(decisionSoFar(card, { tests: 3 }, { notes: { max: 0 } })).toEqual({ state: 'no-hire', reason: "at most 5 of the hire bar's 6, whatever the reviewer scores", open: 2 });
  });

  it('is no-hire once a veto fires, and pending while the bar can still be reached', () => {
    expect(decisionSoFar(card, { honest: 0 })).toMatchObject({ state: 'no-hire', reason: 'veto on honest (0 <= 0): A fake green is a no.' });
    expect(decisionSoFar(card, { tests: 3 })).toEqual({ state: 'pending', reason: '2 of 3 rows still to score', open: 2 });
  });

  it("is the card's decision once every row is scored", () => {
    expect(decisionSoFar(card, { tests: 3, honest: 2, notes: 1 })).toEqual({ state: 'hire', reason: '6 of 8 clears the hire bar of 6', open: 0 });
  });

  it("names the grader's verdict as the scorecard does, while the scored rows are the scorecard's own", () => {
    const grader = { verdict: 'CAUGHT', findings: [{ code: 'PK416', severity: 'error' as const }, { code: 'PK512', severity: 'warning' as const }], auto: { tests: 0 } };
    const judgeCard = { rubric: { data: { ...card.rubric, combine: { rows: 'median' as const, veto: 'any' as const } } } };
    const rows = card.rubric.rows.map((r) => ({ id: r.id, criterion: r.criterion, max: r.max, auto: r.auto ?? null, score: r.auto ? 0 : null, evidence: null, cap: null, findings: [] }));
    const onCard = judgeDecisionSoFar(judgeCard as never, rows, true, grader);
    expect(decisionSoFar(card, { tests: 0 }, {}, grader)).toEqual({ state: 'no-hire', reason: onCard.reason, open: 2 });
    expect(onCard.reason).toBe("the grader's verdict is CAUGHT (PK416): its automatic rows leave at most 5 of the hire bar's 6, whatever the reviewer scores");
    // Once the reviewer has scored a row of their own, the words say whose scores leave the card short.
    expect(decisionSoFar(card, { tests: 0, notes: 0 }, {}, grader).reason).toBe("the grader's verdict is CAUGHT (PK416): the scores so far leave at most 2 of the hire bar's 6, whatever the reviewer scores");
    expect(decisionSoFar(card, { honest: 0 }, {}, grader).reason).toBe("veto on honest (0 <= 0): A fake green is a no.; the grader's verdict is CAUGHT (PK416)");
    expect(decisionSoFar(card, { tests: 0 }, {}, { ...grader, verdict: 'PASS' }).reason).toBe("at most 5 of the hire bar's 6, whatever the reviewer scores");
  });

  it("keeps the grader's veto of a submission that answers another variant, even with every row scored at its best", () => {
    const grader = { verdict: 'FAIL', findings: [{ code: GradeErrors.AnswersOtherVariant.code, severity: 'error' as const }] };
    expect(GRADER_VETO_CODES).toEqual([GradeErrors.AnswersOtherVariant.code, GradeErrors.VariantNotSent.code]);
    const full = decisionSoFar(card, { tests: 3, honest: 2, notes: 3 }, {}, grader);
    expect(full.state).toBe('no-hire');
    expect(full.reason).toContain('PK584');
    expect(decisionSoFar(card, { tests: 3 }, {}, grader).state).toBe('no-hire');
    // Without the finding the same scores hire.
    expect(decisionSoFar(card, { tests: 3, honest: 2, notes: 3 }, {}, { verdict: 'FAIL', findings: [] }).state).toBe('hire');
  });
});
