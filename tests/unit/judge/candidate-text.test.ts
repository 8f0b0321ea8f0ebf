import { describe, expect, it } from 'vitest';
import { capLine, capList, csvCell, markdownCandidate, markdownText, showControls } from '../../../src/judge/candidate-text.ts';

/** What a submission wrote, on its way into a report: cut, escaped for the medium. */
describe('candidate text', () => {
  it('cuts a line at 200 characters and says how many were left off, once', () => {
    expect(capLine('a'.repeat(200))).toBe('a'.repeat(200));
    const cut = capLine('a'.repeat(100_000));
    expect(cut).toBe(`${'a'.repeat(200)}… (99800 more characters)`);
    expect(capLine(cut)).toBe(cut);
    expect(capLine('😀'.repeat(201))).toBe(`${'😀'.repeat(200)}… (1 more characters)`);
    expect(capLine('abcdef', 3)).toBe('abc… (3 more characters)');
  });

  it('keeps 50 items of a list, each cut, and counts the rest', () => {
    const ids = Array.from({ length: 60 }, (_, i) => `t${i}`);
    expect(capList(ids)).toEqual([...ids.slice(0, 50), '… 10 more']);
    expect(capList(['x'.repeat(300)])).toEqual([`${'x'.repeat(200)}… (100 more characters)`]);
    expect(capList(ids.slice(0, 3))).toEqual(['t0', 't1', 't2']);
  });

  it('shows controls and the characters that hide or reorder text as escapes', () => {
    expect(showControls('a\nb\r\tc\x1b[31m\x00\x7f\x9b\u202e\u200b\ufeff')).toBe('a\\nb\\r\\tc\\u001b[31m\\u0000\\u007f\\u009b\\u202e\\u200b\\ufeff');
    expect(showControls('café ü → ok')).toBe('café ü → ok');
  });

  it('escapes Markdown so the text reads as itself, on one line', () => {
    expect(markdownText('**PASS**, decision so far: **hire**')).toBe('\\*\\*PASS\\*\\*, decision so far: \\*\\*hire\\*\\*');
    expect(markdownText('`code` _em_ [link](x) <img src=x> a|b ~~s~~ &amp; \\')).toBe('\\`code\\` \\_em\\_ \\[link\\](x) \\<img src=x\\> a\\|b \\~\\~s\\~\\~ \\&amp; \\\\');
    expect(markdownText('# heading')).toBe('\\# heading');
    expect(markdownText('> quote')).toBe('\\> quote');
    expect(markdownText('- item')).toBe('\\- item');
    expect(markdownText('+ item')).toBe('\\+ item');
    expect(markdownText('1. item')).toBe('1\\. item');
    expect(markdownText('1.2.0')).toBe('1.2.0');
    expect(markdownText('ok\n# Decision: hire\n| row |')).toBe('ok\\\\n# Decision: hire\\\\n\\| row \\|');
    expect(markdownText('\x1b[2J')).toBe('\\\\u001b\\[2J');
    expect(markdownCandidate('x'.repeat(300))).toBe(`${'x'.repeat(200)}… (100 more characters)`);
  });

  it('neutralises CSV formulas with a quote and keeps a cell on its row', () => {
    expect(csvCell('=HYPERLINK("http://evil.test","hire")')).toBe('"\'=HYPERLINK(""http://evil.test"",""hire"")"');
    for (const lead of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${lead}1+1`)).toMatch(/^"'/);
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines\x1b')).toBe('two\\nlines\\u001b');
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(-1)).toBe('-1');
    expect(csvCell(null)).toBe('');
    expect(csvCell(true)).toBe('true');
  });
});
