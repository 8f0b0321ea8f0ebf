import { Composer, isMap, isPair, isScalar, isSeq, Lexer, LineCounter, Parser, visit, YAMLParseError, type CST, type Document, type Node } from 'yaml';
import { NestingMeter, type DepthExcess } from './yaml-depth.ts';

/** Deepest nesting of lists and maps read from a frontmatter; no packet field goes deeper than five. */
export const MAX_YAML_DEPTH = 64;

/**
 * Alias uses allowed when the YAML becomes data (the `yaml` package's `maxAliasCount`: each use of
 * an anchor counts the aliases inside what it repeats, so a "billion laughs" stops early).
 */
export const MAX_YAML_ALIASES = 100;

/** A problem that stops a YAML text from being read: a syntax error, or one of the limits above. */
export interface YamlProblem {
  /** `syntax`: not YAML; `depth`: nested past {@link MAX_YAML_DEPTH}; `aliases`: aliases expand past {@link MAX_YAML_ALIASES}. */
  kind: 'syntax' | 'depth' | 'aliases';
  message: string;
  /** 1-based, inside the YAML text. */
  line: number;
  column: number;
}

/** A YAML document with what is needed to point at any of its nodes. */
export interface LocatedYaml {
  /** The parsed value (plain JS), or undefined when the document has errors. */
  value: unknown;
  /** What stopped the text from being read, with 1-based positions inside the YAML text. */
  errors: YamlProblem[];
  /** Position (1-based, inside the YAML text) of the node at `path`, or of its nearest existing parent. */
  positionOf(path: readonly PropertyKey[], which?: 'value' | 'key'): { line: number; column: number };
}

/** Nothing could be read: every path points at the first line. */
function unreadable(errors: YamlProblem[]): LocatedYaml {
  return { value: undefined, errors, positionOf: () => ({ line: 1, column: 1 }) };
}

/**
 * Parse YAML keeping positions, so a problem in a nested field points at that field's own line.
 * Hostile input ends in a problem at its place, never in an exception: nesting is measured before
 * the parser (which recurses) sees it, and aliases are limited when the document becomes data.
 */
export function parseLocatedYaml(source: string): LocatedYaml {
  const lineCounter = new LineCounter();
  let deep: DepthExcess | undefined;
  let doc: Document | undefined;
  try {
    // parseDocument, with each lexer token measured before the parser (which recurses) gets it.
    const parser = new Parser(lineCounter.addNewLine);
    const meter = new NestingMeter(MAX_YAML_DEPTH);
    function* tokens(): Generator<CST.Token> {
      lineCounter.addNewLine(0);
      for (const lexeme of new Lexer().lex(source)) {
        deep = meter.feed(lexeme);
        if (deep) return;
        yield* parser.next(lexeme);
      }
      yield* parser.end();
    }
    const composer = new Composer({ uniqueKeys: true, version: '1.2' });
    for (const d of composer.compose(tokens(), true, source.length)) {
      if (doc) {
        doc.errors.push(new YAMLParseError([d.range[0], d.range[1]], 'MULTIPLE_DOCS', 'Source contains multiple documents'));
        break;
      }
      doc = d as Document;
    }
  } catch (err) {
    // The meter keeps the parser's recursion shallow; this is the second lock.
    if (err instanceof RangeError) return unreadable([{ kind: 'depth', message: err.message, line: 1, column: 1 }]);
    throw err;
  }
  if (deep) return unreadable([{ kind: 'depth', message: `nested ${deep.depth} levels deep`, line: deep.line, column: deep.column }]);
  if (!doc) return unreadable([{ kind: 'syntax', message: 'no YAML document', line: 1, column: 1 }]);
  const at = (offset: number) => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  const errors: YamlProblem[] = doc.errors.map((e) => ({ kind: 'syntax', message: e.message.split('\n')[0]!, ...at(e.pos[0]) }));
  let value: unknown;
  if (!errors.length) {
    try {
      value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
    } catch (err) {
      if (!(err instanceof ReferenceError)) throw err;
      // yaml names no place; the first alias is where the repetition starts.
      let offset = 0;
      visit(doc, {
        Alias(_, node) {
          offset = node.range?.[0] ?? 0;
          return visit.BREAK;
        },
      });
      errors.push({ kind: 'aliases', message: err.message, ...at(offset) });
    }
  }
  return {
    value: errors.length ? undefined : value,
    errors,
    positionOf(path, which = 'value') {
      let node: unknown = doc.contents;
      let best = node as Node | null;
      let keyNode: Node | null = null;
      for (const segment of path) {
        keyNode = null;
        if (isMap(node)) {
          const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment));
          if (!pair) break;
          keyNode = pair.key as Node;
          node = pair.value;
          best = (node as Node | null) ?? keyNode;
        } else if (isSeq(node) && typeof segment === 'number') {
          const item = node.items[segment];
          if (!item) break;
          node = item;
          best = item as Node;
        } else break;
      }
      const target = which === 'key' && keyNode ? keyNode : best;
      const offset = target?.range?.[0] ?? 0;
      return at(offset);
    },
  };
}
