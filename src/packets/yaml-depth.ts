import { CST, Lexer } from 'yaml';

/**
 * The nesting depth of a YAML text, measured before it is parsed. The `yaml` package's parser
 * and composer recurse once per level of nesting and offer no depth option, so 3,000 levels of
 * indentation throw a RangeError from inside it. Its lexer is a flat state machine, so this
 * walks the lexer's tokens with an explicit stack, and finds the first place the nesting passes
 * a limit without recursing at all.
 *
 * Flow collections (`[`, `{`) count one level each. Block collections count one level for each
 * sequence (`- `), explicit key (`? `) or mapping (`key:`) that starts at a new column, so
 * `- - - x` is three levels and a map's keys at one indentation are one. The measure can be a
 * level or two off from what the parser builds; the limit is far above any real frontmatter.
 */

/** Where the nesting first went past the limit: 1-based line and column in the YAML text. */
export interface DepthExcess {
  line: number;
  column: number;
  /** The depth reached there. */
  depth: number;
}

type Opener = { column: number; kind: 'seq' | 'map' };

/** The first place `source` nests deeper than `max`, or undefined when it never does. */
export function findExcessNesting(source: string, max: number): DepthExcess | undefined {
  const stack: Opener[] = [];
  let flow = 0;
  let line = 1;
  let column = 1;
  let afterScalarMark = false;
  let keyColumn: number | undefined;
  const open = (o: Opener): DepthExcess | undefined => {
    // A mapping key at a sequence's own column closes that sequence (`key:\n- a\nnext:`).
    while (stack.length && (stack.at(-1)!.column > o.column || (stack.at(-1)!.column === o.column && stack.at(-1)!.kind === 'seq' && o.kind === 'map'))) stack.pop();
    const top = stack.at(-1);
    if (!top || top.column !== o.column || top.kind !== o.kind) stack.push(o);
    return stack.length + flow > max ? { line, column: o.column, depth: stack.length + flow } : undefined;
  };
  for (const token of new Lexer().lex(source)) {
    const type = CST.tokenType(token);
    // Control tokens (document start, scalar marker, flow error) take no room in the source.
    if (type === 'doc-mode' || type === 'flow-error-end') continue;
    if (type === 'scalar' && token === '\u001f') {
      afterScalarMark = true;
      continue;
    }
    const start = column;
    if (afterScalarMark) {
      // The scalar's own text: the start of a key, perhaps.
      afterScalarMark = false;
      if (flow === 0) keyColumn = start;
    } else if (type === 'flow-map-start' || type === 'flow-seq-start') {
      flow++;
      if (stack.length + flow > max) return { line, column: start, depth: stack.length + flow };
    } else if (type === 'flow-map-end' || type === 'flow-seq-end') {
      flow = Math.max(0, flow - 1);
    } else if (flow === 0 && type === 'seq-item-ind') {
      const excess = open({ column: start, kind: 'seq' });
      if (excess) return excess;
    } else if (flow === 0 && type === 'explicit-key-ind') {
      const excess = open({ column: start, kind: 'map' });
      if (excess) return excess;
    } else if (flow === 0 && type === 'map-value-ind') {
      const excess = open({ column: keyColumn ?? start, kind: 'map' });
      if (excess) return excess;
    } else if (type === 'double-quoted-scalar' || type === 'single-quoted-scalar' || type === 'alias' || type === 'anchor' || type === 'tag') {
      if (flow === 0 && keyColumn === undefined) keyColumn = start;
    }
    // Advance the position over the token's text.
    for (let i = 0; i < token.length; i++) {
      if (token.charCodeAt(i) === 10) {
        line++;
        column = 1;
        keyColumn = undefined;
      } else column++;
    }
  }
  return undefined;
}
