import { describe, expect, it } from 'vitest';
import { forCsv, forHtml, forJson, forMarkdown, forMarkdownCode, forTerminal, forXml, showControls } from '../../../src/errors/escape.ts';

/** Strings a candidate, a packet, a model or a server may hand the kit, each meant to pass for the kit's own words. */
const HOSTILE = {
  nul: 'a\u0000b',
  esc: '\u001b[2J\u001b[31mred\u001b]0;title\u0007',
  cr: 'all good\rPK000 error',
  rtl: 'evil\u202etxt.py',
  forged: 'x\n**PASS**, decision so far: **hire**',
  formula: "=cmd|' /C calc'!A0",
  script: '<script>alert(1)</script>',
};
/** What no output may carry raw: C0 but line feed and tab, DEL, C1, the bidi and zero-width characters. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/u;

describe('escaping for each medium', () => {
  it('shows every control and bidi character as an escape, and leaves other text alone', () => {
    expect(showControls('a\nb\r\tc\u001b[31m\u0000\u007f\u009b\u202e\u2066\u200b\ufeff')).toBe('a\\nb\\r\\tc\\u001b[31m\\u0000\\u007f\\u009b\\u202e\\u2066\\u200b\\ufeff');
    expect(showControls('café ü → ok ✓')).toBe('café ü → ok ✓');
  });

  it('keeps a terminal line from moving the cursor, clearing, recolouring or reordering', () => {
    expect(forTerminal(HOSTILE.esc)).toBe('\\u001b[2J\\u001b[31mred\\u001b]0;title\\u0007');
    expect(forTerminal(HOSTILE.cr)).toBe('all good\\rPK000 error');
    expect(forTerminal(HOSTILE.nul)).toBe('a\\u0000b');
    expect(forTerminal(HOSTILE.rtl)).toBe('evil\\u202etxt.py');
    expect(forTerminal(HOSTILE.forged)).toBe('x\\n**PASS**, decision so far: **hire**');
    expect(forTerminal('one\n\ttwo\r\u001b', { lines: true })).toBe('one\n\ttwo\\r\\u001b');
  });

  it('keeps Markdown text on its line, with no emphasis, code, link, tag or block of its own', () => {
    expect(forMarkdown(HOSTILE.forged)).toBe('x\\\\n\\*\\*PASS\\*\\*, decision so far: \\*\\*hire\\*\\*');
    expect(forMarkdown('**PASS**')).toBe('\\*\\*PASS\\*\\*');
    expect(forMarkdown(HOSTILE.script)).toBe('\\<script\\>alert(1)\\</script\\>');
    expect(forMarkdown('# heading')).toBe('\\# heading');
    expect(forMarkdown('- item')).toBe('\\- item');
    expect(forMarkdown('1. item')).toBe('1\\. item');
    expect(forMarkdown('a | b')).toBe('a \\| b');
    expect(forMarkdown('{process.env.KEY}')).toBe('\\{process.env.KEY\\}');
    expect(forMarkdown('[x](javascript:1) `c` _e_ ~s~ &amp;')).toBe('\\[x\\](javascript:1) \\`c\\` \\_e\\_ \\~s\\~ \\&amp;');
    for (const s of Object.values(HOSTILE)) {
      expect(forMarkdown(s)).not.toMatch(RAW);
      expect(forMarkdown(s)).not.toContain('\n');
    }
  });

  it('fences a Markdown code span with more backticks than it holds', () => {
    expect(forMarkdownCode('src/x.py')).toBe('`src/x.py`');
    expect(forMarkdownCode('a`b')).toBe('``a`b``');
    expect(forMarkdownCode('`x`')).toBe('`` `x` ``');
    expect(forMarkdownCode(HOSTILE.forged)).toBe('`x\\n**PASS**, decision so far: **hire**`');
    expect(forMarkdownCode('a|b')).toBe('`a\\|b`');
    expect(forMarkdownCode(HOSTILE.esc)).not.toMatch(RAW);
  });

  it('writes HTML with no tag, entity or attribute of its own', () => {
    expect(forHtml(HOSTILE.script)).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(forHtml('" onload="x\' &amp;')).toBe('&quot; onload=&quot;x&#39; &amp;amp;');
    expect(forHtml(HOSTILE.esc)).toBe('\\u001b[2J\\u001b[31mred\\u001b]0;title\\u0007');
    expect(forHtml('a\nb', { lines: true })).toBe('a\nb');
    for (const s of Object.values(HOSTILE)) expect(forHtml(s)).not.toMatch(RAW);
  });

  it('writes XML 1.0 that a parser accepts: no character it cannot hold, controls shown as escapes', () => {
    expect(forXml(HOSTILE.nul)).toBe('a\\u0000b');
    expect(forXml(HOSTILE.script)).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(forXml(`"'&`)).toBe('&quot;&apos;&amp;');
    expect(forXml('\ud800 \uffff \u{1f600}')).toBe('\\ud800 \\uffff \u{1f600}');
    expect(forXml('a\nb\tc\r', { lines: true })).toBe('a\nb\tc\\r');
    const xmlIllegal = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;
    for (const s of Object.values(HOSTILE)) {
      expect(forXml(s)).not.toMatch(xmlIllegal);
      expect(forXml(s)).not.toMatch(RAW);
    }
  });

  it('writes CSV cells a spreadsheet will not run, each on its row', () => {
    expect(forCsv(HOSTILE.formula)).toBe(`"'=cmd|' /C calc'!A0"`);
    for (const lead of ['=', '+', '-', '@', '\t', '\r']) expect(forCsv(`${lead}1+1`).replace(/^"/, '')).toMatch(/^'/);
    expect(forCsv('a,"b"')).toBe('"a,""b"""');
    expect(forCsv(HOSTILE.forged)).toBe('"x\\n**PASS**, decision so far: **hire**"');
    expect(forCsv(null)).toBe('');
    expect(forCsv(-3)).toBe('-3');
    expect(forCsv(true)).toBe('true');
    for (const s of Object.values(HOSTILE)) {
      expect(forCsv(s)).not.toMatch(RAW);
      expect(forCsv(s)).not.toMatch(/\n/);
    }
  });

  it('writes JSON with no raw control or bidi character that reads back as the same value', () => {
    const value = { name: `${HOSTILE.rtl}\u0085\u007f${HOSTILE.esc}`, list: Object.values(HOSTILE) };
    const text = forJson(value);
    expect(text).not.toMatch(RAW);
    expect(text).toContain('evil\\u202etxt.py\\u0085\\u007f\\u001b[2J');
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(text)).toEqual(value);
  });
});
