import type { Heading, List, ListItem, Paragraph, PhrasingContent, Root, RootContent } from 'mdast';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { forMarkdownDocument, showControls } from '../errors/escape.ts';
import { isHiddenNode, parseBody } from '../packets/markdown-tree.ts';

/**
 * Plain Markdown out of MDX bodies, for the files of the zips. The body is parsed with the lint's
 * parser (remark-parse + remark-mdx, plain Markdown when MDX refuses it), the MDX-only nodes are
 * taken out, and remark-stringify writes the rest back as Markdown any viewer reads:
 * - comments (`{/* ... *\/}`, `<!-- -->`), expressions and ESM (`import`/`export`) are removed;
 * - JSX elements are replaced by their children, so the words inside a `<Note>` survive.
 */

type AnyNode = { type: string; children?: AnyNode[]; depth?: number };

const JSX = new Set(['mdxJsxFlowElement', 'mdxJsxTextElement']);

/** Remove hidden nodes and unwrap JSX, depth-first; drop paragraphs left empty. */
function strip(children: AnyNode[]): AnyNode[] {
  const out: AnyNode[] = [];
  for (const node of children) {
    if (isHiddenNode(node as never)) continue;
    if (JSX.has(node.type)) {
      out.push(...strip(node.children ?? []));
      continue;
    }
    if (node.children) {
      node.children = strip(node.children);
      if (node.type === 'paragraph' && node.children.every((c) => c.type === 'text' && !(c as { value?: string }).value?.trim())) continue;
    }
    out.push(node);
  }
  return out;
}

/** Options of {@link renderBody}. */
export interface RenderBodyOptions {
  /** Added to every heading's depth (capped at 6), to nest the body under a section. */
  shiftHeadings?: number;
}

/** An MDX part body as a plain Markdown tree (see the module note). */
export function renderBody(body: string, file: string, options: RenderBodyOptions = {}): Root {
  const { tree } = parseBody({ file, body, bodyLine: 1 });
  const children = strip(tree.children as AnyNode[]);
  const shift = options.shiftHeadings ?? 0;
  if (shift) {
    const walk = (nodes: AnyNode[]) => {
      for (const n of nodes) {
        if (n.type === 'heading') n.depth = Math.min(6, (n.depth ?? 1) + shift);
        if (n.children) walk(n.children);
      }
    };
    walk(children);
  }
  return { type: 'root', children: children as RootContent[] };
}

/** Write a tree as Markdown: `-` bullets, fenced code, `*` emphasis, ATX headings, LF line ends; no control character but LF and tab (see `forMarkdownDocument`). */
export function toMarkdown(root: Root): string {
  return forMarkdownDocument(
    unified()
      .use(remarkStringify, { bullet: '-', fences: true, emphasis: '*', strong: '*', rule: '-', listItemIndent: 'one', incrementListMarker: true })
      .stringify(root),
  );
}

/** A text node, on one line: a field's control characters (a newline too) shown as escapes. */
export function text(value: string): PhrasingContent {
  return { type: 'text', value: showControls(value) };
}

/** An inline code node, on one line (see {@link text}). */
export function code(value: string): PhrasingContent {
  return { type: 'inlineCode', value: showControls(value) };
}

/** A strong node around text. */
export function strong(value: string): PhrasingContent {
  return { type: 'strong', children: [text(value)] };
}

/** A heading. */
export function heading(depth: 1 | 2 | 3 | 4 | 5 | 6, ...children: (PhrasingContent | string)[]): Heading {
  return { type: 'heading', depth, children: children.map((c) => (typeof c === 'string' ? text(c) : c)) };
}

/** A paragraph. */
export function paragraph(...children: (PhrasingContent | string)[]): Paragraph {
  return { type: 'paragraph', children: children.map((c) => (typeof c === 'string' ? text(c) : c)) };
}

/** A bullet list, one paragraph per item. */
export function list(items: (PhrasingContent | string)[][]): List {
  return {
    type: 'list',
    ordered: false,
    spread: false,
    children: items.map((item): ListItem => ({ type: 'listItem', spread: false, children: [paragraph(...item)] })),
  };
}

/** A fenced code block. */
export function codeBlock(value: string, lang: string | null = null): RootContent {
  return { type: 'code', lang, value };
}

/** True when a tree starts with a level-1 heading (before any other visible content). */
export function startsWithTitle(root: Root): boolean {
  const first = root.children[0];
  return first?.type === 'heading' && first.depth === 1;
}
