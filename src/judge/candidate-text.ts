/**
 * Text that comes from a submission on its way into a report: the test ids its runner printed,
 * its file names, lines quoted from its files, whatever its run printed. A candidate writes all
 * of it, so before it lands in a scorecard or a summary it is capped (one line cannot swell a
 * card to megabytes), escaped for the medium (it cannot pass for the kit's own words: a forged
 * "**PASS**" line, a heading, a table row, a terminal escape, a spreadsheet formula) and, where
 * the medium allows, labelled as the submission's. Every scorecard and summary writer goes
 * through here. Pure.
 */

/** How much of a submission's text a report keeps. */
export const CANDIDATE_TEXT_LIMITS = {
  /** Characters of one id, name or quoted line. */
  line: 200,
  /** Characters of one of the kit's sentences that quotes the submission (a finding's message). */
  sentence: 2000,
  /** Items of one list (failing tests, set-aside paths). */
  items: 50,
} as const;

/** The label a report puts on what it quotes from a submission. */
export const CANDIDATE_LABEL = 'from the submission, not verified';

const CUT = /… \((\d+) more characters\)$/;

/**
 * Cut `s` after `max` characters (code points, so no pair is split), saying how many were left
 * off. A text already cut to `max` is left as it is, so a card's ids pass through a writer whole.
 */
export function capLine(s: string, max: number = CANDIDATE_TEXT_LIMITS.line): string {
  if (s.length <= max) return s;
  const chars = [...s];
  if (chars.length <= max) return s;
  const cut = CUT.exec(s);
  if (cut && [...s.slice(0, cut.index)].length <= max) return s;
  return `${chars.slice(0, max).join('')}… (${chars.length - max} more characters)`;
}

/** The first `items` entries, each cut at `line` characters, and "… N more" for the rest. */
export function capList(list: readonly string[], items: number = CANDIDATE_TEXT_LIMITS.items, line: number = CANDIDATE_TEXT_LIMITS.line): string[] {
  const kept = list.slice(0, items).map((s) => capLine(s, line));
  return list.length > items ? [...kept, `… ${list.length - items} more`] : kept;
}

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
/** C0 and C1 controls, DEL, and the format characters that hide or reorder text (zero-width, bidi overrides, BOM). */
const CONTROLS = /[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** Control characters and the ones that hide or reorder text, shown as escapes: `\n`, `\x1b`, `\u202e`. */
export function showControls(s: string): string {
  return s.replace(CONTROLS, (ch) => {
    const code = ch.charCodeAt(0);
    return NAMED[ch] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
  });
}

/**
 * `s` as Markdown text that reads as exactly these characters: on one line (newlines and other
 * controls shown as escapes), with nothing that Markdown or the HTML in it would act on
 * (emphasis, code, links, tags, table cells, a heading, quote or list at the start).
 */
export function markdownText(s: string): string {
  return showControls(s)
    .replace(/[\\`*_[\]<>|~&]/g, '\\$&')
    .replace(/^([#+=-])/, '\\$1')
    .replace(/^(\d+)([.)])(?=\s|$)/, '$1\\$2');
}

/** A submission's id, path or name in Markdown: cut, then escaped. */
export function markdownCandidate(s: string, max: number = CANDIDATE_TEXT_LIMITS.line): string {
  return markdownText(capLine(s, max));
}

/**
 * One cell of a CSV file that a spreadsheet may open: controls shown as escapes (a cell stays on
 * its row), a leading `=`, `+`, `-`, `@`, tab or CR neutralised with a `'` so it is not read as a
 * formula (OWASP's advice on CSV injection), quoted when it holds a quote or a comma, quotes doubled.
 */
export function csvCell(v: string | number | boolean | null): string {
  if (v === null) return '';
  if (typeof v !== 'string') return String(v);
  const formula = /^[=+\-@\t\r]/.test(v);
  const s = `${formula ? "'" : ''}${showControls(capLine(v, CANDIDATE_TEXT_LIMITS.sentence))}`;
  return /[",]/.test(s) || formula ? `"${s.replace(/"/g, '""')}"` : s;
}
