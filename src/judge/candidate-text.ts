/**
 * Text that comes from a submission on its way into a report: the test ids its runner printed,
 * its file names, lines quoted from its files, whatever its run printed. A candidate writes all
 * of it, so before it lands in a scorecard or a summary it is capped (one line cannot swell a
 * card to megabytes), escaped for the medium (it cannot pass for the kit's own words: a forged
 * "**PASS**" line, a heading, a table row, a terminal escape, a spreadsheet formula) and, where
 * the medium allows, labelled as the submission's. Every scorecard and summary writer goes
 * through here. Pure.
 */
import { forCsv, forMarkdown } from '../errors/escape.ts';

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

/** Controls shown as escapes, Markdown text: the kit's one escaping module (src/errors/escape.ts). */
export { showControls, forMarkdown as markdownText } from '../errors/escape.ts';

/** A submission's id, path or name in Markdown: cut, then escaped. */
export function markdownCandidate(s: string, max: number = CANDIDATE_TEXT_LIMITS.line): string {
  return forMarkdown(capLine(s, max));
}

/** One cell of a CSV file (see `forCsv`), a submission's text in it cut at a sentence's length. */
export function csvCell(v: string | number | boolean | null): string {
  return forCsv(typeof v === 'string' ? capLine(v, CANDIDATE_TEXT_LIMITS.sentence) : v);
}
