import { z } from 'astro/zod';
import { kebabId, relativePath } from './common.ts';

/**
 * `assistant.mdx`: the scripted assistant of a lab (its suggestions) or of a drill (its diffs).
 * The candidate sees what the assistant says and offers; the `key` of each entry is reviewer
 * material and never reaches the public site.
 */

/** What a candidate does with a lab suggestion: take it as offered, take the assistant's revision, or keep the code as it was. */
export const LAB_CHOICES = ['accept', 'revise', 'reject'] as const;

/** A choice on a lab suggestion. */
export type LabChoice = (typeof LAB_CHOICES)[number];

/** What a reviewer does with a drill's diff. */
export const DRILL_VERDICTS = ['accept', 'accept-with-change', 'reject'] as const;

/** A verdict on a drill's diff. */
export type DrillVerdict = (typeof DRILL_VERDICTS)[number];

/** Lines of a starter file, 1-based and inclusive. */
export const lineRangeSchema = z.strictObject({
  /** The first line of the region. */
  from: z.int().positive(),
  /** The last line of the region (at least `from`). */
  to: z.int().positive(),
});

/** The right choice on a lab suggestion, and why. Reviewer material. */
export const labKeySchema = z.strictObject({
  /** The choice a careful engineer makes. */
  choice: z.enum(LAB_CHOICES),
  /** Why: the consequence a good reason names. Shown to the reviewer beside the candidate's reason. */
  reason: z.string().min(1),
  /**
   * Set when no test can tell the wrong versions of this suggestion from the right one: why only
   * review catches it. The rehearsal then does not ask the tests to catch them.
   */
  reviewOnly: z.string().min(1).optional(),
});

/** One suggestion of a lab's scripted assistant: it replaces one region of one starter file. */
export const suggestionSchema = z.strictObject({
  /** A stable kebab-case id; answer sheets and the test table name the suggestion by it. */
  id: kebabId,
  /** The starter file the suggestion changes, relative to `starter/`. */
  file: relativePath,
  /**
   * The region it replaces, as text that occurs exactly once in the file and covers whole lines
   * (a YAML block scalar, `anchor: |`, keeps the final newline). Give `anchor` or `lines`.
   */
  anchor: z.string().min(1).optional(),
  /** The region it replaces, as a line range of the file. Give `anchor` or `lines`. */
  lines: lineRangeSchema.optional(),
  /** What the candidate asked the assistant, in the candidate's words. */
  ask: z.string().min(1),
  /** What the assistant says with its change. */
  message: z.string().min(1),
  /** The region's new text as the assistant first offers it (whole lines). */
  offered: z.string(),
  /** The region's text after the candidate pushes back and the assistant revises (whole lines). */
  revised: z.string(),
  /** The right choice and why. Reviewer material. */
  key: labKeySchema,
});

/** The verdict a careful reviewer gives a drill's diff, and what a good reason names. Reviewer material. */
export const drillKeySchema = z.strictObject({
  /** Accept, accept with a change, or reject. */
  verdict: z.enum(DRILL_VERDICTS),
  /** The consequence a good reason names, e.g. "blocks the event loop for the whole backoff". */
  consequence: z.string().min(1),
  /** For `accept-with-change`: the change to ask for. */
  change: z.string().min(1).optional(),
});

/** One diff of a drill, with enough context to judge it. */
export const drillDiffSchema = z.strictObject({
  /** A stable kebab-case id; answer sheets name the diff by it. */
  id: kebabId,
  /** A short title for the diff, as a reviewer would name the change. */
  title: z.string().min(1).max(100),
  /** The file the diff changes, as in the codebase it comes from. */
  file: relativePath,
  /** What a reviewer needs to know about the code around the diff, in a few sentences. */
  context: z.string().min(1),
  /**
   * The diff: lines that start with a space (context), `+` (added) or `-` (removed); `@@` lines
   * separate hunks.
   */
  diff: z.string().min(1),
  /** The verdict and the consequence a good reason names. Reviewer material. */
  key: drillKeySchema,
});

/** Frontmatter of `assistant.mdx`: a lab's suggestions or a drill's diffs. */
export const assistantSchema = z.strictObject({
  /** A lab's suggestions, 3 to 6; each replaces its own region of a starter file. */
  suggestions: z.array(suggestionSchema).min(3).max(6).optional(),
  /** A drill's diffs, 3 to 8. */
  diffs: z.array(drillDiffSchema).min(3).max(8).optional(),
});

/** Parsed `assistant.mdx` frontmatter. */
export type AssistantFrontmatter = z.infer<typeof assistantSchema>;
/** One parsed lab suggestion. */
export type Suggestion = z.infer<typeof suggestionSchema>;
/** One parsed drill diff. */
export type DrillDiff = z.infer<typeof drillDiffSchema>;
/** The key of a lab suggestion. */
export type LabKey = z.infer<typeof labKeySchema>;
/** The key of a drill diff. */
export type DrillKey = z.infer<typeof drillKeySchema>;
