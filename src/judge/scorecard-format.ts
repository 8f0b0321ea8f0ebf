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

/** The `submission.kind` of a scorecard graded from a lab's answer sheet. */
export const LAB_SHEET_SUBMISSION = 'lab-sheet';
/** The `submission.kind` of a scorecard graded from a drill's answer sheet. */
export const DRILL_SHEET_SUBMISSION = 'drill-sheet';

/**
 * What a scorecard graded from an answer sheet carries beside its rows (`Scorecard.answers`):
 * each answer beside the key, the plan, the final code's tests, and the sheet's timeline, so the
 * lab's or drill's scoring page shows a batch from `packet grade` without the key file.
 */
export interface SheetAnswers {
  kind: 'lab' | 'drill';
  /** The name the sheet gives, or null. */
  candidate: string | null;
  /** When the sheet says it was exported (as written, cut short). */
  exported: string;
  /** One per suggestion (lab) or diff (drill), in the packet's order. */
  items: {
    id: string;
    /** The diff's title for a drill, the ask for a lab. */
    title: string;
    /** The candidate's choice or verdict; `hand edit` for a region edited by hand; null when none. */
    answer: string | null;
    /** The key's choice or verdict. */
    key: string;
    /** The answer is the key's (a hand edit never matches by itself: it is the reviewer's to judge). */
    matches: boolean;
    reason: string;
    /** The key's reason (a drill: the consequence). */
    keyReason: string;
    /** A lab's hand-edited region text. */
    hand?: string;
    /** The key's version of the region (lab), to read a hand edit against. */
    reference?: string;
    /** A drill's accept-with-change: the change asked for. */
    change?: string;
  }[];
  /** A lab's plan (the four fields, as written). */
  plan?: { endState: string; checkpoints: string; invariant: string; byHand: string };
  /** A lab's final code's tests, every visible and held-out one, from the judge's run (empty for a drill). */
  tests: { id: string; hidden: boolean; outcome: string; message?: string }[];
  /** The sheet's timeline (empty when the sheet kept none). */
  timeline: { at: string; action: string; id?: string; detail?: string }[];
}
