import { z } from 'astro/zod';
import { kebabId, relativeGlob, relativePath } from './common.ts';

/** Where a failure signal greps. */
export const SIGNAL_SOURCES = ['files', 'diff', 'output', 'ledger'] as const;

/** A greppable signal that a submission died this way. */
export const signalSchema = z.strictObject({
  /** A regular expression (JavaScript syntax). */
  pattern: z.string().min(1),
  /** Regular expression flags, a subset of `imsu`. */
  flags: z.string().regex(/^[imsu]*$/, 'use only the flags i, m, s and u').default(''),
  /** What to grep: the submitted files, the added lines of the diff, the test output, or the ledger. */
  in: z.enum(SIGNAL_SOURCES),
  /** Globs restricting a `files` or `diff` grep; defaults to every file. */
  files: z.array(relativeGlob).optional(),
});

/** The rubric row a failure caps, and the cap. */
export const capSchema = z.strictObject({
  /** The id of the rubric row. */
  row: kebabId,
  /** The most that row can score when this failure is present. */
  max: z.int().nonnegative(),
});

/** One named way the task dies. */
export const failureModeSchema = z.strictObject({
  /** A stable kebab-case id; `mutants/<id>/` reproduces it. */
  id: kebabId,
  /** A short human title, used as the body's heading. */
  title: z.string().min(1),
  /** How to detect it. */
  signal: signalSchema,
  /** The overlay (relative to the packet) that turns the sample into this failure, e.g. `mutants/raw-line-cache`. */
  mutant: relativePath,
  /** A scripted model reply (relative to the packet) that commits this failure, e.g. `replies/raw-line-cache.md`. */
  reply: relativePath.optional(),
  /** The rubric row this failure caps. */
  caps: capSchema,
});

/** Frontmatter of `failures.mdx`: the failure catalog. */
export const failuresSchema = z.strictObject({
  /** The named failure modes. */
  modes: z.array(failureModeSchema).min(1),
});

/** Parsed `failures.mdx` frontmatter. */
export type FailuresFrontmatter = z.infer<typeof failuresSchema>;
/** One parsed failure mode. */
export type FailureMode = z.infer<typeof failureModeSchema>;
