import { z } from 'astro/zod';
import { drillPromptSchema, PART_FILES, PART_SCHEMAS, type PartName } from './schema/index.ts';

/** The JSON Schema (draft 2020-12) of one part's frontmatter, for editors. */
export function partJsonSchema(part: PartName): Record<string, unknown> {
  return withId(part, `packet-kit ${part}.mdx frontmatter`, PART_SCHEMAS[part]);
}

function withId(name: string, title: string, schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    // zod leaves out the examples of a field whose value is transformed (a date read as text), as
    // they describe the output; the examples written here are input, what an author types.
    override: (ctx) => {
      const examples = z.globalRegistry.get(ctx.zodSchema as unknown as z.ZodType)?.examples;
      if (examples && ctx.jsonSchema.examples === undefined) ctx.jsonSchema.examples = examples as unknown[];
    },
  }) as Record<string, unknown>;
  return { $id: `https://packet-kit.local/schemas/${name}.schema.json`, title, ...json };
}

/** The JSON Schema of a drill's `prompt.mdx` frontmatter: the prompt's catalog fields only. */
export function drillPromptJsonSchema(): Record<string, unknown> {
  return withId('drill-prompt', 'packet-kit prompt.mdx frontmatter of a drill', drillPromptSchema);
}

/** Every part's JSON Schema, by file name under public/schemas/; a drill's prompt has its own. */
export function allJsonSchemas(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of PART_FILES) out[`${part}.schema.json`] = JSON.stringify(partJsonSchema(part), null, 2) + '\n';
  out['drill-prompt.schema.json'] = JSON.stringify(drillPromptJsonSchema(), null, 2) + '\n';
  return out;
}
