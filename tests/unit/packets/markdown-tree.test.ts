import { describe, expect, it } from 'vitest';
import { findDirectives } from '../../../src/lint/directives.ts';
import { parseBody, plainText, visitText } from '../../../src/packets/markdown-tree.ts';

const part = (body: string) => ({ file: 'x/prompt.mdx', body, bodyLine: 10 });

describe('parseBody', () => {
  it('parses MDX and gives file positions: body line + bodyLine - 1', () => {
    const parsed = parseBody(part('\n# Title\n\nSome `code` here.\n'));
    expect(parsed.mdx).toBe(true);
    expect(parsed.start).toEqual({ file: 'x/prompt.mdx', line: 11, column: 1 });
    const para = parsed.tree.children[1]!;
    expect(parsed.placeOfNode(para)).toEqual({ file: 'x/prompt.mdx', line: 13, column: 1 });
    expect(plainText(para)).toBe('Some code here.');
  });

  it('falls back to plain Markdown when MDX refuses the body, keeping where MDX gave up', () => {
    const parsed = parseBody(part('\nA set {like this\n\nand more.\n'));
    expect(parsed.mdx).toBe(false);
    // MDX reports where the expression should have closed: the end of its line.
    expect(parsed.mdxError?.place).toEqual({ file: 'x/prompt.mdx', line: 11, column: 17 });
    expect(parsed.mdxError?.reason).toMatch(/closing brace/);
    expect(parsed.tree.children.map((n) => plainText(n))).toEqual(['A set {like this', 'and more.']);
  });

  it('never counts comments as text', () => {
    const parsed = parseBody(part('Hello {/* hidden words */} world.\n\n{/* a flow comment */}\n'));
    const seen: string[] = [];
    visitText(parsed.tree, (n) => seen.push(n.value));
    expect(seen.join('|')).toBe('Hello | world.');
  });

  it('places a match in a node value at its source position, past escapes and fences', () => {
    const parsed = parseBody(part('\\*a\\* GPT and GPT\n\n```text\nsay GPT\n```\n'));
    const hits: string[] = [];
    visitText(parsed.tree, (n) => {
      for (const m of n.value.matchAll(/GPT/g)) {
        const p = parsed.placeInValue(n, m.index, 'GPT');
        hits.push(`${p.line}:${p.column}`);
      }
    });
    expect(hits).toEqual(['10:7', '10:15', '13:5']);
  });
});

describe('findDirectives', () => {
  it('reads whole-file and next-line directives in both comment forms', () => {
    const mdx = parseBody(part('{/* packet-lint-disable prompt-length, no-model-names -- long on purpose */}\n\n{/* packet-lint-disable-next-line */}\n\n\nText.\n'));
    expect(findDirectives(mdx)).toEqual([
      { kind: 'disable', rules: ['prompt-length', 'no-model-names'], place: { file: 'x/prompt.mdx', line: 10, column: 1 } },
      { kind: 'disable-next-line', rules: [], place: { file: 'x/prompt.mdx', line: 12, column: 1 }, targetLine: 15 },
    ]);
    const md = parseBody(part('<!-- packet-lint-disable-next-line code-fence-lang -->\n```\nx\n```\n'));
    expect(findDirectives(md)).toEqual([
      { kind: 'disable-next-line', rules: ['code-fence-lang'], place: { file: 'x/prompt.mdx', line: 10, column: 1 }, targetLine: 11 },
    ]);
  });

  it('reads {/* */} directives as text once the body fell back to plain Markdown', () => {
    const parsed = parseBody(part('An {unclosed brace.\n\n{/* packet-lint-disable sample-label */}\n'));
    expect(parsed.mdx).toBe(false);
    expect(findDirectives(parsed).map((d) => [d.kind, d.rules, d.place.line])).toEqual([['disable', ['sample-label'], 12]]);
  });

  it('ignores comments that are not directives', () => {
    expect(findDirectives(parseBody(part('{/* packet-lint-disabled x */}\n\n{/* just a note */}\n')))).toEqual([]);
  });
});
