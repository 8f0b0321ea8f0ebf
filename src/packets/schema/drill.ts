import { z } from 'astro/zod';
import { field } from './field-doc.ts';
import { promptSchema } from './prompt.ts';

/**
 * Frontmatter of a drill's `prompt.mdx`. A drill runs no code: the candidate reviews diffs on the
 * site and hands in an answer sheet, so it has the prompt's catalog fields and none of its code
 * fields (test command, workspace, budget). The body is the drill's instructions.
 */
export const drillPromptSchema = promptSchema
  .pick({ title: true, summary: true, level: true, language: true, minutes: true, version: true, seed: true, tags: true, handIn: true, changelog: true })
  .extend({
    kind: field(z.literal('drill'), { description: 'Always `drill`: a review of an assistant\'s diffs, with no code to run.', examples: ['drill'] }),
  });

/** Parsed drill `prompt.mdx` frontmatter. */
export type DrillPromptFrontmatter = z.infer<typeof drillPromptSchema>;
