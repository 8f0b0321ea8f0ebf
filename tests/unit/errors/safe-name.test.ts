import { describe, expect, it } from 'vitest';
import { shownPath } from '../../../src/errors/diagnostic.ts';
import { isSafeName, nameHazard, nameHazardReason, shownName } from '../../../src/errors/safe-name.ts';

describe('safe names', () => {
  it('names the first unsafe character and its kind', () => {
    expect(nameHazard('src/a.py')).toBeNull();
    expect(nameHazard('a\u202Eb\u200B')).toEqual({ kind: 'bidi control', char: '\u202E', index: 1, codePoint: 'U+202E' });
    expect(nameHazardReason('a\u200Db')).toBe('holds a zero-width character (U+200D)');
    expect(nameHazardReason('a\tb')).toBe('holds a control character (U+0009)');
    expect(nameHazardReason('a\u009Bb')).toBe('holds a control character (U+009B)');
    expect(isSafeName('données/日本/◙ ☺.txt')).toBe(true);
    expect(isSafeName('a\uFEFF')).toBe(false);
  });

  it('shows every unsafe character as an escape, and the rest as it is', () => {
    expect(shownName('a\nb\t\u001b[31m\u007f\u0085\u202E\u2066\u200B\uFEFFé')).toBe('a\\nb\\t\\u001b[31m\\u007f\\u0085\\u202e\\u2066\\u200b\\ufeffé');
    expect(shownPath('x\u202Ey')).toBe('x\\u202ey');
  });
});
