import { assistantSchema } from './assistant.ts';
import { failuresSchema } from './failures.ts';
import { promptSchema, type PromptFrontmatter } from './prompt.ts';
import { rubricSchema } from './rubric.ts';
import { sampleSchema } from './sample.ts';

export * from './prompt.ts';
export * from './rubric.ts';
export * from './sample.ts';
export * from './failures.ts';
export * from './assistant.ts';
export * from './drill.ts';

/** The four part files of a take-home, in reading order. */
export const PARTS = ['prompt', 'rubric', 'sample', 'failures'] as const;
/** Every part file a packet folder may hold: a take-home's four, and a lab's or drill's `assistant.mdx`. */
export const PART_FILES = [...PARTS, 'assistant'] as const;
/** One of the part files. */
export type PartName = (typeof PART_FILES)[number];
/** One of a take-home's four parts. */
export type TakehomePartName = (typeof PARTS)[number];

/** The kinds of packet, as the prompt's `kind` field names them; each is described once, in packets/kinds/ (its parts, schema, checks, public view). */
export type PacketKind = PromptFrontmatter['kind'];

/** The frontmatter schema of each part. */
export const PART_SCHEMAS = {
  prompt: promptSchema,
  rubric: rubricSchema,
  sample: sampleSchema,
  failures: failuresSchema,
  assistant: assistantSchema,
} as const;
