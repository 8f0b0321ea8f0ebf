import { describe, expect, it } from 'vitest';
import { scoreSheet } from '../../../src/labs/score.ts';

const rubric = {
  rows: [
    { id: 'choices', max: 3, auto: 'choices' },
    { id: 'final', max: 2, auto: 'tests' },
    { id: 'hidden', max: 1, auto: 'hidden-tests' },
    { id: 'reasons', max: 3 },
  ],
};
const key = ['revise', 'accept', 'revise', 'reject'];
const green = { testsGreen: true, visibleGreen: true, hiddenGreen: true };

describe('scoreSheet', () => {
  it('scores the key’s answers at the max and green tests in full', () => {
    const s = scoreSheet(rubric, key.map((answer) => ({ answer })), key, green);
    expect(s.matches).toEqual([true, true, true, true]);
    expect(s.scores).toEqual({ choices: 3, final: 2, hidden: 1 });
    expect(s.evidence).toEqual({ matches: 4, total: 4, ...green });
  });

  it('scores the share of matching answers, rounded down, and red tests at 0', () => {
    const s = scoreSheet(rubric, ['accept', 'accept', 'accept', 'accept'].map((answer) => ({ answer })), key, { testsGreen: false, visibleGreen: true, hiddenGreen: false });
    expect(s.matches).toEqual([false, true, false, false]);
    expect(s.scores).toEqual({ choices: 0, final: 0, hidden: 0 });
    expect(scoreSheet(rubric, [{ answer: 'revise' }, { answer: 'accept' }, { answer: null }, { answer: 'accept' }], key, green).scores.choices).toBe(1);
  });

  it('never counts a hand edit as a match, and leaves the choices row to the reviewer', () => {
    const s = scoreSheet(rubric, [{ answer: 'revise', hand: true }, { answer: 'accept' }, { answer: 'revise' }, { answer: 'reject' }], key, green);
    expect(s.matches).toEqual([false, true, true, true]);
    expect(s.handEdited).toEqual([0]);
    expect(s.scores).toEqual({ final: 2, hidden: 1 });
  });

  it('leaves the test rows open when no run gave results (a drill, or no table)', () => {
    const s = scoreSheet(rubric, key.map((answer) => ({ answer })), key, null);
    expect(s.scores).toEqual({ choices: 3 });
    expect(s.evidence.testsGreen).toBeNull();
    expect(() => scoreSheet(rubric, [{ answer: 'accept' }], key, null)).toThrow(/1 answers for 4 keys/);
  });
});
