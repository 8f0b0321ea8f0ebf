import { z } from 'astro/zod';
import { kebabId } from './common.ts';

/** The automatic checks that can pre-fill a rubric row. */
export const AUTO_CHECKS = ['tests', 'hidden-tests', 'visible-tests', 'protected', 'workspace', 'receipts', 'choices'] as const;

/** One row of the rubric card. */
export const rubricRowSchema = z.strictObject({
  /** A stable kebab-case id; vetoes and failure caps name rows by it. */
  id: kebabId,
  /** What the reviewer judges, in one sentence. */
  criterion: z.string().min(1),
  /** The row's top score (the lint asks for at most 3). */
  max: z.int().positive(),
  /** Reviewer minutes for this row; defaults to 2.5. */
  minutes: z.number().positive().optional(),
  /** Descriptors keyed by score: at least the lowest (0) and the highest (`max`). */
  levels: z.record(z.string().regex(/^\d+$/, 'level keys are scores: 0, 1, 2, 3'), z.string().min(1)),
  /**
   * An automatic check that pre-fills the row: full marks when it passes, 0 when it fails. `choices`
   * (labs and drills) scores the share of choices that match the key: the row's maximum times
   * the matches over the suggestions or diffs, rounded down.
   */
  auto: z.enum(AUTO_CHECKS).optional(),
});

/** A row score that ends the decision whatever the total. */
export const vetoSchema = z.strictObject({
  /** The id of the rubric row this veto watches. */
  row: kebabId,
  /** A score at or below this is a no. */
  atMost: z.int().nonnegative(),
  /** The rule in words, e.g. "a 3 on token shape with a 0 on failure handling is a no". */
  note: z.string().min(1),
});

/** Frontmatter of `rubric.mdx`: what a human scores in fifteen minutes. */
export const rubricSchema = z.strictObject({
  /** Minutes a reviewer spends on the whole card (at most 15). */
  minutes: z.number().positive(),
  /** The rows of the card. */
  rows: z.array(rubricRowSchema).min(1),
  /** The total a submission needs to be a hire. */
  hireBar: z.number().nonnegative(),
  /** Row scores that are a no whatever the total. */
  vetoes: z.array(vetoSchema).default([]),
});

/** Parsed `rubric.mdx` frontmatter. */
export type RubricFrontmatter = z.infer<typeof rubricSchema>;
/** One parsed rubric row. */
export type RubricRow = z.infer<typeof rubricRowSchema>;
