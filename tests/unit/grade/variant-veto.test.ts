import { describe, expect, it } from 'vitest';
import { GradeErrors } from '../../../src/errors/grade-catalog.ts';
import { withVariant } from '../../../src/grade/grade.ts';
import { finding } from '../../../src/judge/findings.ts';
import type { CardVariant, Scorecard } from '../../../src/judge/scorecard.ts';

const leak = finding('hidden-tests', GradeErrors.AnswersOtherVariant, { own: 'v7', other: 'v3', ownTests: 'red', otherTests: 'green' });
const variant = (passed: string | null): CardVariant => ({ id: 'v7', number: 7, values: { func: 'to_seconds' }, digest: 'a'.repeat(64), leakCheck: { ran: true, reason: 'its own variant is red', tried: ['v3'], passed } });
const card = (state: Scorecard['decision']['state'], findings = [leak]) => ({ findings, decision: { state, reason: 'the rubric', autoPoints: 0, range: { min: 0, max: 5 }, hireBar: 5, vetoes: [] } }) as unknown as Scorecard;

describe('withVariant', () => {
  it('turns a hire or a pending card that answers another variant into a no-hire naming both variants', () => {
    for (const state of ['hire', 'pending'] as const) {
      const c = withVariant(card(state), variant('v3'));
      expect(c.decision).toMatchObject({ state: 'no-hire', reason: "PK584: it passes variant v3's tests, not its own variant v7", autoPoints: 0, hireBar: 5 });
      expect(c.variant?.id).toBe('v7');
    }
  });

  it('leaves every other decision as the rubric made it', () => {
    expect(withVariant(card('pending', []), variant(null)).decision).toMatchObject({ state: 'pending', reason: 'the rubric' });
    expect(withVariant(card('hire', []), variant(null)).decision.state).toBe('hire');
    expect(withVariant(card('no-hire'), variant('v3')).decision.reason).toBe('the rubric');
    expect(withVariant(card('not-graded'), variant('v3')).decision.state).toBe('not-graded');
  });

  it('turns any decision but not-graded into a no-hire when the submission names another variant than the roster sent (PK585), said first', () => {
    const notSent = finding('version', GradeErrors.VariantNotSent, { sent: 'v7', stated: 'v1', by: "its README's Variant: line names", file: 'roster.csv', line: 8 });
    const how = { by: "its README's Variant: line names", stated: 'v1' };
    for (const state of ['hire', 'pending'] as const) {
      expect(withVariant(card(state, [notSent]), variant(null), how).decision).toMatchObject({ state: 'no-hire', reason: "PK585: sent v7, its README's Variant: line names variant v1" });
    }
    // With PK584 too, both are named; a no-hire of the rubric's own keeps its reason after them.
    expect(withVariant(card('pending', [notSent, leak]), variant('v3'), how).decision.reason).toBe("PK585: sent v7, its README's Variant: line names variant v1; PK584: it passes variant v3's tests, not its own variant v7");
    expect(withVariant(card('no-hire', [notSent]), variant(null), how).decision).toMatchObject({ state: 'no-hire', reason: "PK585: sent v7, its README's Variant: line names variant v1; the rubric" });
    expect(withVariant(card('not-graded', [notSent]), variant(null), how).decision.state).toBe('not-graded');
    // The stated id is the candidate's text: escaped in the reason.
    expect(withVariant(card('pending', [notSent]), variant(null), { ...how, stated: 'v1\u202e' }).decision.reason).toContain('v1\\u202e');
  });
});
