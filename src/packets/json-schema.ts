import { z } from 'astro/zod';
import { PART_SCHEMAS, PARTS, type PartName } from './schema/index.ts';

/** The JSON Schema (draft 2020-12) of one part's frontmatter, for editors. */
export function partJsonSchema(part: PartName): Record<string, unknown> {
  const schema = z.toJSONSchema(PART_SCHEMAS[part], {
    io: 'input',
    unrepresentable: 'any',
    // zod leaves out the examples of a field whose value is transformed (a date read as text), as
    // they describe the output; the examples written here are input, what an author types.
    override: (ctx) => {
      const examples = z.globalRegistry.get(ctx.zodSchema as unknown as z.ZodType)?.examples;
      if (examples && ctx.jsonSchema.examples === undefined) ctx.jsonSchema.examples = examples as unknown[];
    },
  }) as Record<string, unknown>;
  return {
    $id: `https://packet-kit.local/schemas/${part}.schema.json`,
    title: `packet-kit ${part}.mdx frontmatter`,
    ...schema,
  };
}

/** Every part's JSON Schema, by file name under public/schemas/. */
export function allJsonSchemas(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of PARTS) out[`${part}.schema.json`] = JSON.stringify(partJsonSchema(part), null, 2) + '\n';
  return out;
}
