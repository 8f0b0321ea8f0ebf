/**
 * What names a `scorecard.json` and a scored sheet: their format versions and kinds. Apart from
 * the card itself, so the rubric page can recognise a scorecard without loading the judge, and
 * the commands that read exported sheets share the page's names for them.
 */

/** Version of `scorecard.json`. */
export const SCORECARD_SCHEMA_VERSION = 1;

/** The `kind` of a `scorecard.json`, so a stray JSON file is not read as one. */
export const SCORECARD_KIND = 'packet-kit/scorecard';

/** Version of a scored sheet (the rubric page's export); bump it on an incompatible change. */
export const SCORED_SHEET_SCHEMA_VERSION = 1;

/** The `kind` of a scored sheet, so a stray file is not read as one. */
export const SCORED_SHEET_KIND = 'packet-kit/scored-sheet';

/** The `kind` of the `summary.json` of `packet grade`, so the rubric page reads it as a queue of scorecards. */
export const GRADE_SUMMARY_KIND = 'packet-kit/grade-summary';
