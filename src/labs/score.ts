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
