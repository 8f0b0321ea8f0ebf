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

/**
 * Measures nesting one lexer token at a time, so the parser can be fed the same tokens and never
 * sees the token that goes too deep.
 */
export class NestingMeter {
  private readonly stack: Opener[] = [];
  private flow = 0;
  private line = 1;
  private column = 1;
  private afterScalarMark = false;
  private keyColumn: number | undefined;
  private readonly max: number;

  /** `max`: the deepest nesting allowed. */
  constructor(max: number) {
    this.max = max;
  }

  /** Take the next token; the place the nesting passes the limit, when this token makes it. */
  feed(token: string): DepthExcess | undefined {
    const type = CST.tokenType(token);
    // Control tokens (document start, scalar marker, flow error) take no room in the source.
    if (type === 'doc-mode' || type === 'flow-error-end') return undefined;
    if (type === 'scalar' && token === '\u001f') {
      this.afterScalarMark = true;
      return undefined;
    }
    const start = this.column;
    let excess: DepthExcess | undefined;
    if (this.afterScalarMark) {
      // The scalar's own text: the start of a key, perhaps.
      this.afterScalarMark = false;
      if (this.flow === 0) this.keyColumn = start;
    } else if (type === 'flow-map-start' || type === 'flow-seq-start') {
      this.flow++;
      if (this.stack.length + this.flow > this.max) excess = { line: this.line, column: start, depth: this.stack.length + this.flow };
    } else if (type === 'flow-map-end' || type === 'flow-seq-end') {
      this.flow = Math.max(0, this.flow - 1);
    } else if (this.flow === 0 && type === 'seq-item-ind') {
      excess = this.open({ column: start, kind: 'seq' });
    } else if (this.flow === 0 && type === 'explicit-key-ind') {
      excess = this.open({ column: start, kind: 'map' });
    } else if (this.flow === 0 && type === 'map-value-ind') {
      excess = this.open({ column: this.keyColumn ?? start, kind: 'map' });
    } else if (type === 'double-quoted-scalar' || type === 'single-quoted-scalar' || type === 'alias' || type === 'anchor' || type === 'tag') {
      if (this.flow === 0 && this.keyColumn === undefined) this.keyColumn = start;
    }
    // Advance the position over the token's text.
    for (let i = 0; i < token.length; i++) {
      if (token.charCodeAt(i) === 10) {
        this.line++;
        this.column = 1;
        this.keyColumn = undefined;
      } else this.column++;
    }
    return excess;
  }

  private open(o: Opener): DepthExcess | undefined {
    const stack = this.stack;
    // A mapping key at a sequence's own column closes that sequence (`key:\n- a\nnext:`).
    while (stack.length && (stack.at(-1)!.column > o.column || (stack.at(-1)!.column === o.column && stack.at(-1)!.kind === 'seq' && o.kind === 'map'))) stack.pop();
    const top = stack.at(-1);
    if (!top || top.column !== o.column || top.kind !== o.kind) stack.push(o);
    return stack.length + this.flow > this.max ? { line: this.line, column: o.column, depth: stack.length + this.flow } : undefined;
  }
}

/** The first place `source` nests deeper than `max`, or undefined when it never does. */
export function findExcessNesting(source: string, max: number): DepthExcess | undefined {
  const meter = new NestingMeter(max);
  for (const token of new Lexer().lex(source)) {
    const excess = meter.feed(token);
    if (excess) return excess;
  }
  return undefined;
}
