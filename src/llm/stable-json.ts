/** JSON with object keys sorted at every depth, so artifacts are byte-stable and diffable. */

/** A copy of `value` with every object's keys in sorted order (arrays keep their order). */
export function sortKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => sortKeys(v)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out as T;
  }
  return value;
}

/** `JSON.stringify` with sorted keys; `indent` as in JSON.stringify. */
export function stableJson(value: unknown, indent?: number): string {
  return JSON.stringify(sortKeys(value), null, indent);
}

/** Replace every occurrence of each secret (API keys) with a marker. Secrets shorter than 4 characters are ignored. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}
