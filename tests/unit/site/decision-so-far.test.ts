import { describe, expect, it } from 'vitest';
import { decisionSoFar } from '../../../src/site/decision-so-far.ts';
import type { ScoringCard } from '../../../src/site/scored-sheet.ts';

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
});
