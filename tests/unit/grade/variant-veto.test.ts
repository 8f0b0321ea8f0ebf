import { describe, expect, it } from 'vitest';
import { GradeErrors } from '../../../src/errors/grade-catalog.ts';
import { withVariant } from '../../../src/grade/grade.ts';
import { shownName } from '../../../src/errors/safe-name.ts';
import { finding } from '../../../src/judge/findings.ts';
import { graderVeto } from '../../../src/judge/verdict-words.ts';
import type { CardVariant, Scorecard } from '../../../src/judge/scorecard.ts';

const leak = finding('hidden-tests', GradeErrors.AnswersOtherVariant, { own: 'v7', other: 'v3', ownTests: 'red', otherTests: 'green' });
const variant = (passed: string | null): CardVariant => ({ id: 'v7', number: 7, values: { func: 'to_seconds' }, digest: 'a'.repeat(64), leakCheck: { ran: true, reason: 'its own variant is red', tried: ['v3'], passed } });
const card = (state: Scorecard['decision']['state'], findings = [leak]) => ({ findings, decision: { state, reason: 'the rubric', autoPoints: 0, range: { min: 0, max: 5 }, hireBar: 5, vetoes: [] } }) as unknown as Scorecard;

describe('withVariant', () => {
  it('turns a card that answers another variant into a no-hire, by the one rule of a grader veto (graderVeto)', () => {
    const reason = "the grader vetoes a hire: PK584 (This submission passes variant v3's tests, not its own variant v7)";
    expect(graderVeto({ verdict: 'FAIL', findings: [leak] })).toBe(reason);
    for (const state of ['hire', 'pending', 'no-hire'] as const) {
      const c = withVariant(card(state), variant('v3'));
      // A no-hire of the rubric's too: the veto's words come first, as on the rubric page.
      expect(c.decision).toMatchObject({ state: 'no-hire', reason, autoPoints: 0, hireBar: 5 });
      expect(c.variant?.id).toBe('v7');
    }
  });

  it('leaves every other decision as the rubric made it', () => {
    expect(withVariant(card('pending', []), variant(null)).decision).toMatchObject({ state: 'pending', reason: 'the rubric' });
    expect(withVariant(card('hire', []), variant(null)).decision.state).toBe('hire');
    expect(withVariant(card('not-graded'), variant('v3')).decision.state).toBe('not-graded');
  });

  it('turns any decision but not-graded into a no-hire when the submission names another variant than the roster sent (PK585), by the same rule', () => {
    const notSentBy = (stated: string) => finding('version', GradeErrors.VariantNotSent, { sent: 'v7', stated: shownName(stated), by: "its README's Variant line names", file: 'roster.csv', line: 8 });
    const notSent = notSentBy('v1');
    const said = "PK585 (This submission was sent variant v7, and its README's Variant line names variant v1)";
    for (const state of ['hire', 'pending', 'no-hire'] as const) {
      expect(withVariant(card(state, [notSent]), variant(null)).decision).toMatchObject({ state: 'no-hire', reason: `the grader vetoes a hire: ${said}` });
    }
    // With PK584 too, both are named, in the card's order.
    expect(withVariant(card('pending', [notSent, leak]), variant('v3')).decision.reason).toBe(`the grader vetoes a hire: ${said}, PK584 (This submission passes variant v3's tests, not its own variant v7)`);
    expect(withVariant(card('not-graded', [notSent]), variant(null)).decision.state).toBe('not-graded');
    // The stated id is the candidate's text: escaped in the finding, and so in the reason.
    expect(withVariant(card('pending', [notSentBy('v1\u202e')]), variant(null)).decision.reason).toContain('v1\\u202e');
  });
});
