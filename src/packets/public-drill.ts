import { z } from 'astro/zod';
import type { Part } from './part.ts';
import type { DrillDiff } from './schema/assistant.ts';
import type { DrillPromptFrontmatter } from './schema/drill.ts';
import type { RubricFrontmatter } from './schema/rubric.ts';
import { drillPromptSchema } from './schema/drill.ts';
import { rubricSchema } from './schema/rubric.ts';

/** A drill's diff as the candidate sees it: never its key. */
export const publicDiffSchema = z.strictObject({
  /** The diff's id. */
  id: z.string(),
  /** Its title. */
  title: z.string(),
  /** The file it changes. */
  file: z.string(),
  /** What a reviewer needs to know about the code around it. */
  context: z.string(),
  /** The diff itself. */
  diff: z.string(),
});

/** The public view of a drill: the prompt, the rubric and the diffs without their key. */
export const publicDrillSchema = z.strictObject({
  /** The drill id. */
  id: z.string(),
  /** The drill's content digest. */
  digest: z.string(),
  /** The prompt's frontmatter. */
  prompt: drillPromptSchema,
  /** The prompt body (the instructions). */
  promptBody: z.string(),
  /** The rubric's frontmatter. */
  rubric: rubricSchema,
  /** The diffs, in order. */
  diffs: z.array(publicDiffSchema),
});

/** The public view of a drill. */
export type PublicDrill = z.infer<typeof publicDrillSchema>;

/** Project a drill onto its public view. */
export function publicDrill(drill: { id: string; digest: string; prompt: Part<DrillPromptFrontmatter>; rubric: Part<RubricFrontmatter>; diffs: readonly DrillDiff[] }): PublicDrill {
  return {
    id: drill.id,
    digest: drill.digest,
    prompt: drill.prompt.data,
    promptBody: drill.prompt.body,
    rubric: drill.rubric.data,
    diffs: drill.diffs.map((d) => ({ id: d.id, title: d.title, file: d.file, context: d.context, diff: d.diff })),
  };
}
