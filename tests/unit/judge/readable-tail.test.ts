import { describe, expect, it } from 'vitest';
import { readableTail, TAIL_LINE_LIMIT } from '../../../src/judge/run-tests.ts';

describe('the output tail a report keeps', () => {
  it('keeps the last lines, shows control characters as escapes, and cuts a long line', () => {
    const text = ['first', ...Array.from({ length: 20 }, (_, i) => `line ${i}`), `\x1b[2Jclear\ttab\rcr\u0085`, 'x'.repeat(TAIL_LINE_LIMIT + 42)].join('\n');
    const kept = readableTail(text, 3).split('\n');
    expect(kept).toEqual(['line 19', '\\u001b[2Jclear\ttab\\rcr\\u0085', `${'x'.repeat(TAIL_LINE_LIMIT)} [... 42 more characters cut]`]);
    expect(readableTail('short\n', 15)).toBe('short');
  });
});
