import { z } from 'astro/zod';

/** Frontmatter of `sample.mdx`: the labeled sample solution. */
export const sampleSchema = z.strictObject({
  /** How the sample is presented; it must say it is a sample. */
  label: z.string().min(1),
  /** What the untouched starter is expected to do under its visible tests. */
  floor: z
    .strictObject({
      /** Test ids expected to fail on the starter (e.g. `tests.test_cache.TestCache.test_one_call`). */
      failing: z.array(z.string().min(1)).min(1),
    })
    .optional(),
});

/** Parsed `sample.mdx` frontmatter. */
export type SampleFrontmatter = z.infer<typeof sampleSchema>;
