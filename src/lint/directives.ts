import type { Nodes } from 'mdast';
import { SKIP, visit } from 'unist-util-visit';
import type { Place } from '../errors/diagnostic.ts';
import type { ParsedBody } from '../packets/markdown-tree.ts';

/**
 * An inline lint directive, written as a comment in a part body:
 *
 * - `{/* packet-lint-disable prompt-length *\/}`: the rule is off for the whole file (every
 *   diagnostic of that file, frontmatter included). Several ids: separate them with spaces or
 *   commas. No id: every rule.
 * - `{/* packet-lint-disable-next-line code-fence-lang *\/}`: off for the next non-blank line.
 *
 * `<!-- ... -->` works the same in a body that is plain Markdown, but MDX refuses HTML comments
 * (the `mdx-syntax` rule reports them), so write the `{/* *\/}` form in `.mdx` files.
 * A reason may follow two dashes: `{/* packet-lint-disable prompt-length -- a long table *\/}`.
 */
export interface Directive {
  kind: 'disable' | 'disable-next-line';
  /** The rule ids named; empty means every rule. */
  rules: string[];
  /** Where the directive is written. */
  place: Place;
  /** For `disable-next-line`: the file line it covers. */
  targetLine?: number;
}

const DIRECTIVE = /^\s*(?:\/\*|<!--)\s*packet-lint-(disable-next-line|disable)(?=\s|\*\/|-->)([\s\S]*?)(?:\*\/|-->)\s*$/;
/** `{/* packet-lint-... *\/}` inside text, as it reads once MDX parsing fell back to plain Markdown. */
const DIRECTIVE_IN_TEXT = /\{\s*(\/\*\s*packet-lint-[\s\S]*?\*\/)\s*\}/g;

function parseComment(comment: string): { kind: Directive['kind']; rules: string[] } | undefined {
  const m = DIRECTIVE.exec(comment);
  if (!m) return undefined;
  const list = m[2]!.split(/\s--\s|^--\s/)[0]!;
  return { kind: m[1] as Directive['kind'], rules: list.split(/[\s,]+/).filter(Boolean) };
}

/** Every lint directive of a body, with the line each `disable-next-line` covers. */
export function findDirectives(parsed: ParsedBody): Directive[] {
  const out: Directive[] = [];
  const lines = parsed.source.split('\n');
  /** The file line of the body's first line: body line index i is file line i + firstLine. */
  const firstLine = parsed.placeAt(0).line!;
  const add = (comment: string, startOffset: number, endOffset: number) => {
    const d = parseComment(comment);
    if (!d) return;
    const place = parsed.placeAt(startOffset);
    const directive: Directive = { ...d, place };
    if (d.kind === 'disable-next-line') {
      const endLine = parsed.placeAt(Math.max(startOffset, endOffset - 1)).line!;
      let index = endLine - firstLine + 1;
      while (index < lines.length && lines[index]!.trim() === '') index++;
      directive.targetLine = index + firstLine;
    }
    out.push(directive);
  };
  visit(parsed.tree, (node: Nodes) => {
    const type = (node as { type: string }).type;
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) return undefined;
    if (type === 'mdxFlowExpression' || type === 'mdxTextExpression') add((node as unknown as { value: string }).value, start, end);
    else if (node.type === 'html') add(node.value, start, end);
    else if (node.type === 'paragraph' && !parsed.mdx) {
      const raw = parsed.source.slice(start, end);
      for (const m of raw.matchAll(DIRECTIVE_IN_TEXT)) add(m[1]!, start + m.index, start + m.index + m[0].length);
      return SKIP;
    }
    return undefined;
  });
  return out;
}
