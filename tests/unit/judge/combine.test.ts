import { describe, expect, it } from 'vitest';
import { combineScores, lowerMedian } from '../../../src/judge/combine.ts';

const rubric = {
  rows: [
    { id: 'a', criterion: 'A', max: 3, levels: { '0': 'no', '3': 'yes' } },
    { id: 'b', criterion: 'B', max: 3, levels: { '0': 'no', '3': 'yes' } },
  ],
  hireBar: 4,
  vetoes: [{ row: 'b', atMost: 0, note: 'B at 0 is a no.' }],
};

describe('lowerMedian', () => {
  it('takes the middle of an odd count and the lower middle of an even one', () => {
    expect(lowerMedian([3, 1, 2])).toBe(2);
    expect(lowerMedian([3, 2])).toBe(2);
    expect(lowerMedian([0, 3, 3, 1])).toBe(1);
    expect(() => lowerMedian([])).toThrow(/no values/);
  });
});

describe('combineScores', () => {
  it('combines rows by the median and applies the hire bar to their total', () => {
    const d = combineScores(rubric, [
      { a: 3, b: 2 },
      { a: 1, b: 2 },
      { a: 2, b: 3 },
    ]);
    expect(d.scores).toEqual({ a: 2, b: 2 });
    expect(d.total).toBe(4);
    expect(d.decision).toBe('hire');
    expect(d.sheets).toBe(3);
    expect(d.rule).toEqual({ rows: 'median', veto: 'any' });
  });

  it('lets one reviewer\'s veto hold under "any", though the median does not fire it', () => {
    const sheets = [
      { a: 3, b: 0 },
      { a: 3, b: 3 },
      { a: 3, b: 3 },
    ];
    const any = combineScores(rubric, sheets);
    expect(any.scores.b).toBe(3);
    expect(any.decision).toBe('no-hire');
    expect(any.vetoes.map((v) => v.row)).toEqual(['b']);
    expect(any.reason).toMatch(/veto on b \(fired by a reviewer\)/);
    const majority = combineScores({ ...rubric, combine: { rows: 'median', veto: 'majority' } }, sheets);
    expect(majority.decision).toBe('hire');
    expect(majority.vetoes).toEqual([]);
  });

  it('holds a veto under "majority" only when more than half fired it', () => {
    const rule = { ...rubric, combine: { rows: 'median' as const, veto: 'majority' as const } };
    expect(combineScores(rule, [{ a: 3, b: 0 }, { a: 3, b: 0 }, { a: 3, b: 3 }]).vetoes).toHaveLength(1);
    expect(combineScores(rule, [{ a: 3, b: 0 }, { a: 3, b: 3 }]).vetoes).toHaveLength(0);
  });

  it('gives the total as the reason when the rule holds no veto, though a combined row sits at a veto\'s level', () => {
    // Lowest per row makes b 0, but only one reviewer of three fired the veto: under "majority" it does not hold.
    const d = combineScores({ ...rubric, hireBar: 3, combine: { rows: 'lowest', veto: 'majority' } }, [{ a: 3, b: 0 }, { a: 3, b: 3 }, { a: 3, b: 3 }]);
    expect(d.scores.b).toBe(0);
    expect(d.vetoes).toEqual([]);
    expect(d.decision).toBe('hire');
    expect(d.reason).toBe('3 of 6 clears the hire bar of 3');
  });

  it('takes the harshest score under "lowest"', () => {
    const d = combineScores({ ...rubric, combine: { rows: 'lowest', veto: 'any' } }, [{ a: 3, b: 2 }, { a: 1, b: 3 }]);
    expect(d.scores).toEqual({ a: 1, b: 2 });
    expect(d.decision).toBe('no-hire');
  });

  it('refuses no sheets and a sheet with a row left open', () => {
    expect(() => combineScores(rubric, [])).toThrow(/no sheets/);
    expect(() => combineScores(rubric, [{ a: 3 }])).toThrow(/sheet 1 has no score for row "b"/);
  });
});
