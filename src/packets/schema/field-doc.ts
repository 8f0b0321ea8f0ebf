import type { z } from 'astro/zod';

/**
 * The documentation of one frontmatter field, written once, on the field's schema. It flows into
 * the JSON Schemas in public/schemas/ (editor hover and completion), the packet format reference
 * (docs/format.md) and `packet explain <field>`, all generated from the schema (format-reference.ts).
 */
export interface FieldDoc {
  /** What the field holds and what the kit does with it, in sentences. */
  description: string;
  /** Example values of the field (JSON Schema `examples`). */
  examples?: readonly unknown[];
  /** For a field with a fixed set of values: what each value means, every value once, in the schema's order. */
  values?: Readonly<Record<string, string>>;
}

/** The values of an enum schema, looking through optional, default and nullable wrappers. */
export function enumValues(schema: z.core.$ZodType): string[] | undefined {
  let s: z.core.$ZodType | undefined = schema;
  for (let i = 0; s && i < 10; i++) {
    const def = s._zod.def as unknown as { type: string; entries?: Record<string, string>; innerType?: z.core.$ZodType };
    if (def.type === 'enum') return Object.values(def.entries ?? {});
    s = def.innerType;
  }
  return undefined;
}

/**
 * Attach a field's documentation to its schema (zod's `.meta()`, which `z.toJSONSchema` copies
 * into the JSON Schema). Per-value words go out as `enumDescriptions` and
 * `markdownEnumDescriptions`, the keys editors read for enum hovers, in the enum's own order.
 */
export function field<S extends z.ZodType>(schema: S, doc: FieldDoc): S {
  const values = enumValues(schema);
  if (doc.values && (!values || values.join('\n') !== Object.keys(doc.values).join('\n'))) {
    throw new Error(`field(): the value docs (${Object.keys(doc.values).join(', ')}) do not match the enum (${values?.join(', ') ?? 'not an enum'})`);
  }
  const perValue = doc.values ? values!.map((v) => doc.values![v]!) : undefined;
  return schema.meta({
    description: doc.description,
    ...(doc.examples ? { examples: [...doc.examples] } : {}),
    ...(perValue ? { enumDescriptions: perValue, markdownEnumDescriptions: perValue } : {}),
  });
}
