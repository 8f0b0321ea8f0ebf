/**
 * The Markdown parser of a packet part's body (remark with MDX): the tree the lint rules walk and
 * the bundle renders from, the nodes no reader sees (comments, expressions), and the text in it.
 */
import type { Code, InlineCode, Nodes, Root, Text } from 'mdast';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { SKIP, visit } from 'unist-util-visit';
import type { Place } from '../errors/diagnostic.ts';

/** What the parser needs of a part: its file, its body and where the body starts. */
export interface BodySource {
  file: string;
  body: string;
  /** 1-based file line of the body's first line. */
  bodyLine: number;
}

/** A node that carries text a reader sees. */
export type TextNode = Text | InlineCode | Code;

/** A part body parsed into a Markdown tree, with file positions. */
export interface ParsedBody {
  /** The file, as shown in diagnostics. */
  file: string;
  /** The body text (positions in the tree are offsets into it). */
  source: string;
  /** The tree (mdast). Positions are relative to the body. */
  tree: Root;
  /** True when the body parsed as MDX; false when it fell back to plain Markdown. */
  mdx: boolean;
  /** Why MDX parsing failed, and where, when it did. */
  mdxError?: { reason: string; place: Place };
  /** The file position of an offset into the body. */
  placeAt(offset: number): Place;
  /** The file position where a node starts. */
  placeOfNode(node: Nodes): Place;
  /**
   * The file position of a match in a text node's value: `text` found at `index` of `node.value`.
   * Escapes, backticks and fences make the source differ from the value, so the match is found
   * again in the node's source (the same occurrence); the node's start when that fails.
   */
  placeInValue(node: TextNode, index: number, text: string): Place;
  /** The file position of the body's first content (its first node), for findings about something missing. */
  start: Place;
}

const MDX_ONLY = new Set(['mdxFlowExpression', 'mdxTextExpression', 'mdxjsEsm']);

/** A `{/* ... *\/}` comment written as text, as it reads once MDX parsing failed. */
const COMMENT_TEXT = /^\s*\{\s*\/\*[\s\S]*?\*\/\s*\}\s*$/;

/** True for a node that is a comment or an expression, never text a reader sees. */
export function isHiddenNode(node: Nodes): boolean {
  const type = (node as { type: string }).type;
  if (MDX_ONLY.has(type)) return true;
  if (node.type === 'html') return /^\s*<!--/.test(node.value);
  if (node.type === 'paragraph' && node.children.length === 1 && node.children[0]!.type === 'text') {
    return COMMENT_TEXT.test(node.children[0]!.value);
  }
  return false;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/**
 * Parse a part body. MDX first, since parts are .mdx files; MDX refuses some plain Markdown
 * (a bare `{`, `<!-- -->`), so on failure the body is parsed again as plain Markdown and the
 * failure is kept, for the `mdx-syntax` rule to report. Never throws.
 */
export function parseBody(part: BodySource): ParsedBody {
  const source = part.body;
  let tree: Root;
  let mdx = true;
  let mdxError: ParsedBody['mdxError'];
  const toFileLine = (line: number) => line + part.bodyLine - 1;
  try {
    tree = unified().use(remarkParse).use(remarkMdx).parse(source);
  } catch (err) {
    mdx = false;
    const e = err as { reason?: string; message?: string; line?: number; column?: number };
    mdxError = {
      reason: (e.reason ?? e.message ?? String(err)).replace(/\s+/g, ' ').trim(),
      place: { file: part.file, line: toFileLine(e.line ?? 1), column: e.column ?? 1 },
    };
    tree = unified().use(remarkParse).parse(source);
  }
  const starts = lineStarts(source);
  const placeAt = (offset: number): Place => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { file: part.file, line: toFileLine(lo + 1), column: offset - starts[lo]! + 1 };
  };
  const placeOfNode = (node: Nodes): Place => placeAt(node.position?.start.offset ?? 0);
  const placeInValue = (node: TextNode, index: number, text: string): Place => {
    let start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined || !text) return placeOfNode(node);
    if (node.type === 'code' && /^\s*(`{3,}|~{3,})/.test(source.slice(start, end))) {
      const eol = source.indexOf('\n', start);
      if (eol !== -1 && eol < end) start = eol + 1;
    }
    let occurrence = 0;
    for (let i = node.value.indexOf(text); i !== -1 && i < index; i = node.value.indexOf(text, i + 1)) occurrence++;
    const slice = source.slice(start, end);
    let at = slice.indexOf(text);
    for (let n = 0; n < occurrence && at !== -1; n++) at = slice.indexOf(text, at + 1);
    return at === -1 ? placeOfNode(node) : placeAt(start + at);
  };
  const first = tree.children.find((n) => !isHiddenNode(n));
  const start = first ? placeOfNode(first) : { file: part.file, line: part.bodyLine, column: 1 };
  return { file: part.file, source, tree, mdx, ...(mdxError ? { mdxError } : {}), placeAt, placeOfNode, placeInValue, start };
}

/** Visit, in document order, every node carrying text a reader sees: text, inline code and code blocks. Comments and expressions are skipped. */
export function visitText(tree: Root, fn: (node: TextNode) => void, options: { code?: boolean } = {}): void {
  const withCode = options.code ?? true;
  visit(tree, (node: Nodes) => {
    if (isHiddenNode(node)) return SKIP;
    if (node.type === 'text' || node.type === 'inlineCode' || (withCode && node.type === 'code')) fn(node);
    return undefined;
  });
}

/** The plain text of a node (headings, paragraphs, list items), comments and expressions left out. */
export function plainText(node: Nodes): string {
  if (isHiddenNode(node)) return '';
  if (node.type === 'text' || node.type === 'inlineCode' || node.type === 'code') return node.value;
  if (node.type === 'break') return '\n';
  if ('children' in node) return (node.children as Nodes[]).map(plainText).join('');
  return '';
}
