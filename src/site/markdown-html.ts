import type { Nodes, Root } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

/**
 * A plain Markdown file (a codebase's README.md) as HTML, at build time: headings, paragraphs,
 * lists, quotes, code, emphasis and links; every text escaped, raw HTML shown as text, and only
 * http(s), mailto and relative links kept. Headings move down `shift` levels (never past `<h6>`),
 * to nest under the page's own.
 */
export function markdownHtml(markdown: string, shift = 0): string {
  const tree = unified().use(remarkParse).parse(markdown) as Root;
  return render(tree, shift);
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const safeUrl = (url: string) => (/^(https?:|mailto:|[#./]|[^:]*$)/i.test(url) ? url : '#');

function render(node: Nodes, shift: number): string {
  const inner = () => ('children' in node ? (node.children as Nodes[]).map((c) => render(c, shift)).join('') : '');
  switch (node.type) {
    case 'root':
      return inner();
    case 'heading': {
      const level = Math.min(6, node.depth + shift);
      return `<h${level}>${inner()}</h${level}>\n`;
    }
    case 'paragraph':
      return `<p>${inner()}</p>\n`;
    case 'list': {
      const tag = node.ordered ? 'ol' : 'ul';
      const start = node.ordered && node.start !== null && node.start !== undefined && node.start !== 1 ? ` start="${node.start}"` : '';
      return `<${tag}${start}>\n${inner()}</${tag}>\n`;
    }
    case 'listItem': {
      // A tight list's items hold bare text, not paragraphs.
      const body = node.spread ? inner() : node.children.map((c) => (c.type === 'paragraph' ? c.children.map((x) => render(x, shift)).join('') : render(c, shift))).join('');
      return `<li>${body}</li>\n`;
    }
    case 'blockquote':
      return `<blockquote>\n${inner()}</blockquote>\n`;
    case 'code':
      return `<pre><code>${escape(node.value)}</code></pre>\n`;
    case 'inlineCode':
      return `<code>${escape(node.value)}</code>`;
    case 'emphasis':
      return `<em>${inner()}</em>`;
    case 'strong':
      return `<strong>${inner()}</strong>`;
    case 'delete':
      return `<del>${inner()}</del>`;
    case 'link':
      return `<a href="${escape(safeUrl(node.url))}">${inner()}</a>`;
    case 'break':
      return '<br>';
    case 'thematicBreak':
      return '<hr>\n';
    case 'text':
    case 'html':
      return escape(node.value);
    default:
      return inner();
  }
}
