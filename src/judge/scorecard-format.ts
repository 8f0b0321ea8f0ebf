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

/** The `kind` of `summary.json` of `packet grade`: the rubric page imports one as a queue of its scorecards. */
export const GRADE_SUMMARY_KIND = 'packet-kit/grade-summary';

/** The `kind` of a calibration key (`packet calibrate`'s lead/calibration-key.json), read by `packet agreement --key`. */
export const CALIBRATION_KEY_KIND = 'packet-kit/calibration-key';
