import { z } from 'astro/zod';
import { field } from './field-doc.ts';

/** What the untouched starter is expected to do under its visible tests. */
export const floorSchema = z.strictObject({
  failing: field(z.array(z.string().min(1)).min(1), {
    description:
      'The ids of the visible tests that must fail on the untouched starter, exactly as the test runner names them: `<module>.<Class>.<test>` for unittest (`tests.test_cache.TestCache.test_one_call`), `<file>::<test>` for pytest (`tests/test_cache.py::test_one_call`). The floor check is red unless exactly these fail.',
    examples: [['tests.test_duration.TestDuration.test_hours_and_minutes', 'tests.test_duration.TestDuration.test_refuses_garbage']],
  }),
});

/** Frontmatter of `sample.mdx`: the labeled sample solution. */
export const sampleSchema = z.strictObject({
  label: field(z.string().min(1), {
    description: 'How the sample is presented to reviewers; it must say it is a sample (lint PK215), so nobody mistakes it for the only answer.',
    examples: ['Sample solution, one acceptable answer among many'],
  }),
  floor: field(floorSchema.optional(), {
    description:
      'What the untouched starter must do under its visible tests. Left out, the floor check only asks that the starter is red for the right reason: failing assertions, not a crash or an import error.',
  }),
});

/** Parsed `sample.mdx` frontmatter. */
export type SampleFrontmatter = z.infer<typeof sampleSchema>;
