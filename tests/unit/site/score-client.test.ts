import { describe, expect, it } from 'vitest';
import { holdsOwnScores } from '../../../src/site/score-client.ts';

/**
 * The lab and drill scoring pages ask before a new answer sheet replaces the card only when the
 * card holds the reviewer's own work: a tick the last sheet did not pre-fill, or a note.
 */
describe('holdsOwnScores', () => {
  it.each([
    ['an empty card', {}, [], null, false],
    ['only the ticks the last sheet pre-filled', { choices: 3, 'final-tests': 2 }, ['', ' '], { choices: 3, 'final-tests': 2 }, false],
    ['a row the reviewer ticked', { choices: 3, reasons: 2 }, [], { choices: 3 }, true],
    ['a pre-filled row the reviewer changed', { choices: 1 }, [], { choices: 3 }, true],
    ['a note', {}, ['Kim names every rule.'], {}, true],
    ['ticks restored from this browser, which no sheet pre-filled', { choices: 3 }, [], null, true],
  ])('%s', (_what, ticked, notes, prefilled, asks) => {
    expect(holdsOwnScores(ticked as Record<string, number>, notes as string[], prefilled as Record<string, number> | null)).toBe(asks);
  });
});
