import { failuresSchema } from './failures.ts';
import { promptSchema } from './prompt.ts';
import { rubricSchema } from './rubric.ts';
import { sampleSchema } from './sample.ts';

export * from './prompt.ts';
export * from './rubric.ts';
export * from './sample.ts';
export * from './failures.ts';

/** The four part files of a packet, in reading order. */
export const PARTS = ['prompt', 'rubric', 'sample', 'failures'] as const;
/** One of the four parts. */
export type PartName = (typeof PARTS)[number];

/** The frontmatter schema of each part. */
export const PART_SCHEMAS = {
  prompt: promptSchema,
  rubric: rubricSchema,
  sample: sampleSchema,
  failures: failuresSchema,
} as const;
