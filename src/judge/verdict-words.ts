import type { Finding } from './findings.ts';

/**
 * How a decision so far names the grader's verdict when it is not a PASS: one phrase, written
 * once, for scorecard.md, scorecard.json and the rubric page, so the page says what the card
 * says. Pure, and small enough for the browser.
 */

/** What the words need of the grader: its verdict and its findings' codes and severities. */
export interface GraderWord {
  verdict: string;
  /** A finding's message, when given, words a veto's reason (`graderVeto`). */
  findings: readonly (Pick<Finding, 'code' | 'severity'> & { message?: string })[];
}

/** "the grader's verdict is CAUGHT (PK416, PK424, PK429)", or '' for a PASS or no grader. */
export function verdictWords(w: GraderWord | undefined): string {
  if (!w || w.verdict === 'PASS') return '';
  const codes = [...new Set(w.findings.filter((f) => f.severity === 'error').map((f) => f.code))];
  return `the grader's verdict is ${w.verdict}${codes.length ? ` (${codes.join(', ')})` : ''}`;
}

/**
 * Findings that veto a hire whatever the reviewer scores: a submission that passes another
 * variant's hidden tests and not its own (PK584, src/errors/grade-catalog.ts AnswersOtherVariant),
 * or names another variant than the roster says was sent (PK585, VariantNotSent); a unit test
 * holds these equal to the catalog's. Written here as codes, so the browser loads no catalog.
 */
export const GRADER_VETO_CODES: readonly string[] = ['PK584', 'PK585'];

/** What a veto code means, in the decision's words, when its finding's own words are not at hand (a code without either is named alone). */
const VETO_WORDS: Readonly<Record<string, string>> = {
  PK584: "the submission passes another variant's tests, not its own",
  PK585: 'the submission names another variant than the one it was sent',
};

/** The most of a finding's first sentence a veto's reason quotes. */
const VETO_QUOTE_MAX = 200;

/** A finding's first sentence (up to its first `: ` or `. `), as a veto's reason quotes it: "This submission passes variant v1's tests, not its own variant v2". */
function firstSentence(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  const end = line.search(/[:.](\s|$)/);
  const s = end < 0 ? line : line.slice(0, end);
  return s.length > VETO_QUOTE_MAX ? `${s.slice(0, VETO_QUOTE_MAX - 1)}…` : s;
}

/**
 * The one rule of a grader's veto: a card with a finding of {@link GRADER_VETO_CODES} is no hire,
 * whatever its rows and the reviewer's scores. "the grader vetoes a hire: PK584 (...)", or ''
 * when no finding of the card vetoes it. The scorecard (scorecard.json, scorecard.md, the
 * summary and the terminal line of `packet grade`, through `withGraderVeto` in scorecard.ts)
 * and the rubric page (src/site/decision-so-far.ts) decide by it.
 */
export function graderVeto(w: GraderWord | undefined): string {
  const words = new Map<string, string>();
  for (const f of w?.findings ?? []) {
    if (!GRADER_VETO_CODES.includes(f.code) || words.has(f.code)) continue;
    words.set(f.code, (typeof f.message === 'string' && f.message.trim() ? firstSentence(f.message) : '') || VETO_WORDS[f.code] || '');
  }
  return words.size ? `the grader vetoes a hire: ${[...words].map(([c, said]) => (said ? `${c} (${said})` : c)).join(', ')}` : '';
}

/** The reason of a no-hire by a fired veto: the veto's row, score and note, then the verdict's words. */
export function vetoReason(fired: readonly { row: string; score: number; atMost: number; note: string }[], caught: string): string {
  return `veto on ${fired.map((v) => `${v.row} (${v.score} <= ${v.atMost}): ${v.note}`).join('; ')}${caught ? `; ${caught}` : ''}`;
}

/** The reason of a no-hire that no open row can reach: the best total, said as the grader's verdict leaves it. */
export function shortReason(best: number, hireBar: number, caught: string, by = 'its automatic rows'): string {
  const short = `at most ${best} of the hire bar's ${hireBar}, whatever the reviewer scores`;
  return caught ? `${caught}: ${by} leave ${short}` : short;
}
