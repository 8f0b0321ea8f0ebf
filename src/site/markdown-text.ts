/**
 * Drop a leading `<h1>` whose text is `text` (case and spacing aside), for a body that repeats
 * the heading the page already gives it ("# Notes on scoring" under the page's "Notes on scoring").
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

/**
 * A rendered prompt nested under the page's "The prompt" (or "The brief", an `<h2>`): its own title
 * heading is left out when it repeats the page's title, and its sections then move up one level,
 * so the outline has no gap.
 */
export function nestedPrompt(html: string, title: string): string {
  const body = dropLeadingHeading(html, title);
  return shiftHeadings(body, body === html ? 2 : 1);
}
