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
    // Read only to be refused by name (PK589): a drill runs no code, so no test tells one variant's answers from another's.
    variants: field(z.unknown().optional(), {
      description: 'Not for a drill: `packet check` refuses it (PK589). A drill runs no code, so no hidden test could tell one variant\'s answers from another\'s; a lab or a take-home has variants (docs/variants.md).',
    }),
  });

/** Parsed drill `prompt.mdx` frontmatter. */
export type DrillPromptFrontmatter = z.infer<typeof drillPromptSchema>;
