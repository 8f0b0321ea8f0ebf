/**
 * The automatic rows of a lab's or a drill's rubric: `choices` from the choices against the key,
 * `tests`, `visible-tests` and `hidden-tests` from the final combination's tests. A row whose
 * evidence is unknown (a hand edit no run has checked) is left to the reviewer. Pure: the
 * rehearsal's calibration and the scoring pages in the browser use the same function.
 */

/** What the automatic rows are scored from. `null`: not known (left to the reviewer). */
export interface LabEvidence {
  /** Choices that match the key. */
  matches: number;
  /** Suggestions or diffs in all. */
  total: number;
  /** Every visible and held-out test of the final combination passes. */
  testsGreen: boolean | null;
  /** Every visible test passes. */
  visibleGreen: boolean | null;
  /** Every held-out test passes. */
  hiddenGreen: boolean | null;
}

/** A rubric row as the automatic scoring needs it. */
export interface ScoredRow {
  id: string;
  max: number;
  auto?: string | undefined;
}

/** The `choices` row: its maximum times the share of matching choices, rounded down. */
export function choicesScore(max: number, matches: number, total: number): number {
  return total > 0 ? Math.floor((max * matches) / total) : 0;
}

/** The score of each automatic row a lab or a drill can fill; rows left out are the reviewer's. */
export function autoScores(rubric: { rows: readonly ScoredRow[] }, e: LabEvidence): Record<string, number> {
  const out: Record<string, number> = {};
  for (const row of rubric.rows) {
    const green = row.auto === 'tests' ? e.testsGreen : row.auto === 'visible-tests' ? e.visibleGreen : row.auto === 'hidden-tests' ? e.hiddenGreen : undefined;
    if (row.auto === 'choices') out[row.id] = choicesScore(row.max, e.matches, e.total);
    else if (green !== undefined && green !== null) out[row.id] = green ? row.max : 0;
  }
  return out;
}

/** A full card: the automatic rows from evidence, every other row at its maximum (the rehearsal's calibration). */
export function calibratedScores(rubric: { rows: readonly ScoredRow[] }, e: LabEvidence): Record<string, number> {
  const auto = autoScores(rubric, e);
  return Object.fromEntries(rubric.rows.map((row) => [row.id, auto[row.id] ?? (row.auto ? 0 : row.max)]));
}

/** One answer of a sheet as scoring needs it: the choice or verdict, and whether the region was edited by hand (a lab). */
export interface SheetAnswerInput {
  answer: string | null;
  hand?: boolean;
}

/** The tests of the final code, as some run gave them; null when nothing ran (a drill, or a page with no table). */
export interface SheetTestResults {
  testsGreen: boolean | null;
  visibleGreen: boolean | null;
  hiddenGreen: boolean | null;
}

/** A sheet scored against its key: which answers match, the evidence, and the automatic rows' scores. */
export interface SheetScoring {
  /** Per answer, in order: it is the key's (a hand edit never is). */
  matches: boolean[];
  /** Indexes of the answers edited by hand. */
  handEdited: number[];
  evidence: LabEvidence;
  /** The automatic rows' scores; the `choices` row is left out (the reviewer's) when any answer is a hand edit, unless even every hand edit judged right leaves it under a veto. */
  scores: Record<string, number>;
}

/**
 * Sheet, key and test results in, evidence and automatic scores out: the one rule `packet grade`
 * and the scoring pages share. An answer matches when it is the key's and is not a hand edit; a
 * hand edit leaves the `choices` row to the reviewer (whether it is the right change is a
 * judgement), unless even every hand edit judged right leaves the row under one of the rubric's
 * vetoes (then the row is scored at that best, and the veto holds); test rows come from the results, left open when a result is unknown. Pure.
 */
export function scoreSheet(rubric: { rows: readonly ScoredRow[]; vetoes?: readonly RowVeto[] }, answers: readonly SheetAnswerInput[], key: readonly string[], results: SheetTestResults | null): SheetScoring {
  if (answers.length !== key.length) throw new Error(`scoreSheet: ${answers.length} answers for ${key.length} keys`);
  const matches = answers.map((a, i) => !a.hand && a.answer !== null && a.answer === key[i]);
  const handEdited = answers.flatMap((a, i) => (a.hand ? [i] : []));
  const evidence: LabEvidence = {
    matches: matches.filter(Boolean).length,
    total: answers.length,
    testsGreen: results?.testsGreen ?? null,
    visibleGreen: results?.visibleGreen ?? null,
    hiddenGreen: results?.hiddenGreen ?? null,
  };
  const scores = autoScores(rubric, evidence);
  for (const row of rubric.rows) {
    if (row.auto !== 'choices' || !handEdited.length) continue;
    // Even with every hand edit judged right, the row reaches at most this: when a veto catches that too, no judgement can lift it.
    const best = choicesScore(row.max, evidence.matches + handEdited.length, evidence.total);
    if ((rubric.vetoes ?? []).some((v) => v.row === row.id && best <= v.atMost)) scores[row.id] = best;
    else delete scores[row.id];
  }
  return { matches, handEdited, evidence, scores };
}

/** A rubric's veto as scoring needs it: a row scored at most `atMost` vetoes the hire. */
export interface RowVeto {
  row: string;
  atMost: number;
}

/** A region's text with its line ends as "\n" and no blank lines at its end: how a typed-out version meets the scripted ones. */
const regionText = (t: string) => t.replace(/\r\n?/g, '\n').replace(/\n+$/, '');

/**
 * The scripted version a hand edit types out word for word (line ends aside), or null when it is
 * a change of its own: such a hand edit is that choice (the page would have exported it so). The
 * versions are tried in order, so give the key's first.
 */
export function typedVersion<S extends string>(hand: string, versions: readonly (readonly [S, string])[]): S | null {
  const typed = regionText(hand);
  return versions.find(([, text]) => regionText(text) === typed)?.[0] ?? null;
}
