import type { z } from 'astro/zod';

type AnySchema = z.core.$ZodType;

/** Step through wrappers (optional, default, pipe...) to the schema that holds the shape. */
function unwrap(schema: AnySchema): AnySchema {
  let s: AnySchema = schema;
  for (let i = 0; i < 20; i++) {
    const def = s._zod.def as unknown as Record<string, unknown>;
    const inner = (def.innerType ?? (def.type === 'pipe' ? def.in : undefined)) as AnySchema | undefined;
    if (!inner) return s;
    s = inner;
  }
  return s;
}

/** The schema found at a data path (object keys and array indexes), or undefined. */
export function schemaAt(root: AnySchema, path: readonly PropertyKey[]): AnySchema | undefined {
  let s: AnySchema | undefined = unwrap(root);
  for (const segment of path) {
    if (!s) return undefined;
    const def = s._zod.def as unknown as Record<string, unknown>;
    if (def.type === 'object') s = (def.shape as Record<string, AnySchema>)[String(segment)];
    else if (def.type === 'array') s = def.element as AnySchema;
    else if (def.type === 'record') s = def.valueType as AnySchema;
    else return undefined;
    if (s) s = unwrap(s);
  }
  return s;
}

/** The field names an object schema at `path` accepts. */
export function knownKeysAt(root: AnySchema, path: readonly PropertyKey[]): string[] {
  const s = schemaAt(root, path);
  if (!s) return [];
  const def = s._zod.def as unknown as Record<string, unknown>;
  return def.type === 'object' ? Object.keys(def.shape as Record<string, unknown>) : [];
}
