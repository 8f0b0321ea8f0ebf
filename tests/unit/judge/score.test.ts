import { describe, expect, it } from 'vitest';
import { decide } from '../../../src/judge/score.ts';

/** The hire bar and the vetoes on a scored card: each boundary, and the reason in words. */
const rubric = {
  rows: [
    { id: 'correct', max: 3 },
    { id: 'tests', max: 2 },
    { id: 'notes', max: 5 },
  ],
  hireBar: 6,
  vetoes: [
    { row: 'tests', atMost: 0, note: 'no tests is a no' },
    { row: 'notes', atMost: 1, note: 'notes are required' },
  ],
} as never;

describe('decide', () => {
  it('hires a card whose total is exactly the hire bar', () => {
    expect(decide(rubric, { correct: 2, tests: 2, notes: 2 })).toEqual({ total: 6, max: 10, hireBar: 6, vetoes: [], decision: 'hire', reason: '6 of 10 clears the hire bar of 6' });
  });

  it('does not hire one point below the bar', () => {
    expect(decide(rubric, { correct: 1, tests: 2, notes: 2 })).toEqual({ total: 5, max: 10, hireBar: 6, vetoes: [], decision: 'no-hire', reason: '5 of 10 is below the hire bar of 6' });
  });

  it('clamps each score to its row: above the maximum counts the maximum, below zero counts zero', () => {
    expect(decide(rubric, { correct: 9, tests: 2, notes: 2 }).total).toBe(7);
    expect(decide(rubric, { correct: 3, tests: 2, notes: -4 })).toMatchObject({ total: 5, decision: 'no-hire' });
  });

  it('fires a veto at its limit, not one above it, and names every veto that fired', () => {
    expect(decide(rubric, { correct: 3, tests: 1, notes: 2 }).vetoes).toEqual([]);
    const d = decide(rubric, { correct: 3, tests: 0, notes: 1 });
    expect(d.vetoes).toEqual([
      { row: 'tests', score: 0, atMost: 0, note: 'no tests is a no' },
      { row: 'notes', score: 1, atMost: 1, note: 'notes are required' },
    ]);
    expect(d.decision).toBe('no-hire');
    expect(d.reason).toBe('veto on tests (0 <= 0), notes (1 <= 1)');
  });

  it('takes an unscored row as 0, for the total and for its veto', () => {
    expect(decide(rubric, { correct: 3, notes: 5 })).toEqual({
      total: 8,
      max: 10,
      hireBar: 6,
      vetoes: [{ row: 'tests', score: 0, atMost: 0, note: 'no tests is a no' }],
      decision: 'no-hire',
      reason: 'veto on tests (0 <= 0)',
    });
  });
});
