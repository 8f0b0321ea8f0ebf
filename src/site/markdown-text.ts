/**
 * Keep text that Markdown would reinterpret as written, outside code spans: a `<` starts raw HTML
 * (`"<field>" is not a field` would lose its placeholder) and smart punctuation turns the `--`
 * of a flag into a dash. Code spans are found the CommonMark way, within one paragraph: a run of
 * backticks closes at the next run of the same length, and an unclosed run is plain text.
 */
export function literalText(markdown: string): string {
  return markdown.split(/(\n[ \t]*\n)/).map(literalParagraph).join('');
}

function literalParagraph(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === '`') {
      const open = runAt(text, i);
      let close = -1;
      for (let j = text.indexOf('`', i + open); j >= 0; j = text.indexOf('`', j + runAt(text, j))) {
        if (runAt(text, j) === open) {
          close = j;
          break;
        }
      }
      const end = close >= 0 ? close + open : i + open;
      out += text.slice(i, end);
      i = end;
      continue;
    }
    if (text.startsWith('--', i)) {
      out += '-\\-';
      i += 2;
      continue;
    }
    out += text[i] === '<' ? '&lt;' : text[i];
    i += 1;
  }
  return out;
}

/** The length of the run of backticks at `i`. */
function runAt(text: string, i: number): number {
  let n = 0;
  while (text[i + n] === '`') n += 1;
  return n;
}

/**
 * Drop a leading `<h1>` whose text is `text` (case and spacing aside), for a body that repeats
 * the heading the page already gives it ("# Reviewer notes" under the page's "Reviewer notes").
 */
export function dropLeadingHeading(html: string, text: string): string {
  const match = /^\s*<h1[^>]*>([\s\S]*?)<\/h1>\s*/.exec(html);
  const plain = (s: string) => s.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
  return match && plain(match[1] ?? '') === plain(text) ? html.slice(match[0].length) : html;
}

/**
 * Move the headings of rendered Markdown down the outline so they nest under the page's own
 * (`# Title` in a prompt becomes an `<h3>` under the page's `<h2>The prompt</h2>`); never past `<h6>`.
 * The HTML comes from the Markdown renderer, which escapes `<` inside code, so only real tags match.
 */
export function shiftHeadings(html: string, by: number): string {
  return html.replace(/<(\/?)h([1-6])(?=[\s>])/g, (_, slash: string, level: string) => `<${slash}h${Math.min(6, Number(level) + by)}`);
}
