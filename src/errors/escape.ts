/**
 * Text from outside the kit (a candidate's file names and output, a packet's text, a model's
 * reply, a server's error) on its way into one of the kit's outputs, escaped for that medium:
 * the terminal, Markdown, HTML, CSV, XML and JSON. Every writer of a report goes through here, so
 * such a text reads as exactly its characters and never as the kit's own words: it cannot move
 * the cursor or clear the screen, add a line, a heading, a bold "**PASS**" or a table row, open
 * a tag, or run as a spreadsheet formula. Control characters are shown as escapes (`\n`,
 * `\u001b`, `\u202e`), never dropped, so a reader sees that they were there. Pure.
 */

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/**
 * C0 and C1 controls, DEL, and the format characters that hide or reorder text: zero-width
 * characters, the line and paragraph separators, the bidi embeddings, overrides and isolates
 * (U+202A-U+202E, U+2066-U+2069, the Trojan Source characters), the word joiners and the BOM.
 */
const CONTROLS = /[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
/** The same but the line feed and the tab, for a text that may span lines. */
const CONTROLS_BUT_LINES = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

const unicodeEscape = (ch: string): string => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
/** `\n`, `\r`, `\t`, `\b`, `\f` by name, any other as `\u` and four hex digits (as JSON and JavaScript write them). */
const escapeOf = (ch: string): string => NAMED[ch] ?? unicodeEscape(ch);

/** Control characters and the ones that hide or reorder text, shown as escapes: `\n`, `\u001b`, `\u202e`. The text stays on one line. */
export function showControls(s: string): string {
  return s.replace(CONTROLS, escapeOf);
}

/** Options of {@link forTerminal} and {@link forXml}. */
export interface LinesOption {
  /** Keep line feeds and tabs (a message of several lines); every other control is still shown as an escape. */
  lines?: boolean;
}

/**
 * Text for a terminal: escape sequences, carriage returns, backspaces, bidi overrides shown as
 * escapes, so a name cannot recolour, rewrite or clear what the kit printed. On one line unless
 * `lines` keeps its line feeds and tabs.
 */
export function forTerminal(s: string, options: LinesOption = {}): string {
  return s.replace(options.lines ? CONTROLS_BUT_LINES : CONTROLS, escapeOf);
}

/**
 * Inline Markdown text that reads as exactly these characters: on one line (newlines and other
 * controls shown as escapes), with nothing that Markdown or the HTML in it would act on
 * (emphasis, code, links, tags, entities, table cells, a heading, quote, list or rule at the start;
 * in MDX, an expression or JSX).
 */
export function forMarkdown(s: string): string {
  return showControls(s)
    .replace(/[\\`*_[\]<>|~&{}]/g, '\\$&')
    .replace(/^([#+=-])/, '\\$1')
    .replace(/^(\d+)([.)])(?=\s|$)/, '$1\\$2');
}

/**
 * A Markdown code span holding exactly these characters (controls shown as escapes, on one
 * line): fenced with one backtick more than the longest run inside, padded when it starts or
 * ends with a backtick. A `|` is escaped, which a table cell needs and a code span shows as `|`.
 */
export function forMarkdownCode(s: string): string {
  const text = showControls(s).replace(/\|/g, '\\|');
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^[`\s]|[`\s]$/.test(text) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * A whole Markdown document whose structure its writer already built (a tree written by
 * remark-stringify, which escapes Markdown but passes control characters through): every
 * control but the line feed and the tab shown as an escape, so a NUL or an escape sequence in a
 * packet's title or body never reaches a file a candidate opens.
 */
export function forMarkdownDocument(markdown: string): string {
  return forTerminal(markdown, { lines: true });
}

/** Text for HTML content or a quoted attribute: the five special characters as entities, controls shown as escapes (on one line unless `lines`). */
export function forHtml(s: string, options: LinesOption = {}): string {
  return forTerminal(s, options)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * Text for XML 1.0 content or a quoted attribute. XML cannot hold most control characters at all
 * (not even as a character reference), so they are shown as escapes, as are a lone surrogate,
 * U+FFFE and U+FFFF; then the five special characters as entities. A carriage return is shown
 * too (a parser would fold it into a line feed); line feeds and tabs are kept with `lines`.
 */
export function forXml(s: string, options: LinesOption = {}): string {
  return forTerminal(s, options)
    .replace(/[\ud800-\udfff\ufffe\uffff]/gu, unicodeEscape)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * One cell of a CSV file that a spreadsheet may open: controls shown as escapes (a cell stays on
 * its row), a leading `=`, `+`, `-`, `@`, tab or CR neutralised with a `'` so it is not read as a
 * formula (OWASP's advice on CSV injection), quoted when it holds a quote or a comma, quotes doubled.
 */
export function forCsv(v: string | number | boolean | null): string {
  if (v === null) return '';
  if (typeof v !== 'string') return String(v);
  const formula = /^[=+\-@\t\r]/.test(v);
  const s = `${formula ? "'" : ''}${showControls(v)}`;
  return /[",]/.test(s) || formula ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The characters JSON.stringify leaves raw that a terminal or an editor would act on: DEL, C1, the bidi and zero-width characters. */
const JSON_RAW = /[\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/**
 * A JSON text (as JSON.stringify or a stable serialiser wrote it) with DEL, C1 and the bidi and
 * zero-width characters written as `\u` escapes: JSON.stringify escapes C0 but leaves these raw.
 * Any JSON reader gets the same value back.
 */
export function inertJson(text: string): string {
  return text.replace(JSON_RAW, unicodeEscape);
}

/**
 * A JSON document of `value` (indented by two, ending with a newline) in which no control
 * character is raw (see {@link inertJson}), so `cat` of the file shows them as escapes.
 */
export function forJson(value: unknown): string {
  return `${inertJson(JSON.stringify(value, null, 2))}\n`;
}
