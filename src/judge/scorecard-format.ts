/**
 * What names a `scorecard.json`: its format version and its kind. Apart from the card itself, so
 * the rubric page can recognise a scorecard without loading the judge.
 */

/** Version of `scorecard.json`. */
export const SCORECARD_SCHEMA_VERSION = 1;

/** The `kind` of a `scorecard.json`, so a stray JSON file is not read as one. */
export const SCORECARD_KIND = 'packet-kit/scorecard';
