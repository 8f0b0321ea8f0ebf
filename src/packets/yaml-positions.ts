import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';

/** A YAML document with what is needed to point at any of its nodes. */
export interface LocatedYaml {
  /** The parsed value (plain JS), or undefined when the document has errors. */
  value: unknown;
  /** Syntax errors with their 1-based positions inside the YAML text. */
  errors: { message: string; line: number; column: number }[];
  /** Position (1-based, inside the YAML text) of the node at `path`, or of its nearest existing parent. */
  positionOf(path: readonly PropertyKey[], which?: 'value' | 'key'): { line: number; column: number };
}

/** Parse YAML keeping positions, so a problem in a nested field points at that field's own line. */
export function parseLocatedYaml(source: string): LocatedYaml {
  const lineCounter = new LineCounter();
  const doc: Document = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: true, version: '1.2' });
  const errors = doc.errors.map((e) => {
    const pos = lineCounter.linePos(e.pos[0]);
    return { message: e.message.split('\n')[0]!, line: pos.line, column: pos.col };
  });
  const at = (offset: number) => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  return {
    value: errors.length ? undefined : doc.toJS({ maxAliasCount: 100 }),
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
