import { createHash } from 'node:crypto';
import { seededRandom } from '../kit/seeded-random.ts';
import type { VariantParam, VariantsSpec, VariantValue } from './schema/prompt-variants.ts';

/**
 * Variants of a packet: the draw of each variant's parameter values and the placeholders that
 * write them into the packet's files. A variant is a pure function of the packet (its files and
 * its `variants` field), its `seed` and its number k (1..count): the same values, the same
 * rendered files and the same digest on every machine. Rendering a whole packet is in
 * variants-render.ts; docs/variants.md is the author's guide.
 */

export type { VariantParam, VariantsSpec, VariantValue } from './schema/prompt-variants.ts';

/** The values of one variant, by parameter name, in name order. */
export type VariantValues = Readonly<Record<string, VariantValue>>;

/** The built-in placeholder every variant has: its id (`v3`). A parameter may not take its name. */
export const RESERVED_PARAMS = ['id'] as const;

/**
 * A placeholder: `[[variant.NAME]]`, spaces allowed inside the brackets. Double square brackets
 * are plain text in Markdown and MDX (braces would be an MDX expression) and no common code
 * form; the `variant.` prefix keeps every other `[[...]]` (a TOML table array, a nested list) out.
 * The name is captured loosely so a misspelt one is reported, not left silently in the text.
 */
const PLACEHOLDER = /\[\[[ \t]*variant\.([^\s[\]]*)[ \t]*\]\]/g;

/** One placeholder found in a text. */
export interface PlaceholderUse {
  /** The name after `variant.`, as written. */
  name: string;
  /** Offset of the opening `[[` in the text. */
  index: number;
  /** 1-based line and column (UTF-16 code units) of the opening `[[`. */
  line: number;
  column: number;
}

/** Every placeholder in a text, in order. */
export function placeholdersIn(text: string): PlaceholderUse[] {
  const out: PlaceholderUse[] = [];
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    for (let i = text.indexOf('\n', scanned); i !== -1 && i < m.index; i = text.indexOf('\n', i + 1)) {
      line++;
      lineStart = i + 1;
    }
    scanned = m.index;
    out.push({ name: m[1]!, index: m.index, line, column: m.index - lineStart + 1 });
  }
  return out;
}

/** True when a text holds a placeholder (cheaper than listing them). */
export function hasPlaceholder(text: string): boolean {
  PLACEHOLDER.lastIndex = 0;
  return new RegExp(PLACEHOLDER.source).test(text);
}

/** A value as it is written into a file: text as it is, a number in its shortest JavaScript form. */
export function valueText(value: VariantValue): string {
  return typeof value === 'number' ? String(value) : value;
}

/**
 * Write the values into a text: every placeholder whose name has a value is replaced by it, in
 * one pass, so a value that looks like a placeholder is never expanded again. A placeholder
 * without a value is left as written (the check reports it, PK150).
 */
export function renderTemplate(text: string, values: VariantValues): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? valueText(values[name]!) : whole));
}

/** The id of variant k: `v1`, `v2`, ... */
export function variantId(k: number): string {
  return `v${k}`;
}

/** The number of a variant id (`v3` -> 3), or undefined when it is not one. */
export function variantNumber(id: string): number | undefined {
  const m = /^v([1-9][0-9]{0,5})$/.exec(id);
  return m ? Number(m[1]) : undefined;
}

/** How many variants a build makes: the flag's count, else the field's, else 1. */
export function variantCount(spec: VariantsSpec, override?: number): number {
  return override ?? spec.count ?? 1;
}

/** The parameter names of a spec, sorted: the order of the draw, whatever the YAML's order. */
export function paramNames(spec: VariantsSpec): string[] {
  return Object.keys(spec.params).sort();
}

/** How many values a parameter can take. */
export function choices(param: VariantParam): number {
  if (param.pick) return param.pick.length;
  if (param.int) return param.int[1] - param.int[0] + 1;
  return 1;
}

/** How many distinct combinations of values a spec has (Infinity past 2^53). */
export function combinationCount(spec: VariantsSpec): number {
  let n = 1;
  for (const name of paramNames(spec)) {
    n *= choices(spec.params[name]!);
    if (!Number.isSafeInteger(n)) return Infinity;
  }
  return n;
}

/** The 32-bit seed of one draw: sha256 of the packet's seed, the variant's number and the attempt. */
function drawSeed(seed: string, k: number, attempt: number): number {
  const h = createHash('sha256').update(`packet-kit/variant\0${seed}\0${k}\0${attempt}`).digest();
  return h.readUInt32BE(0);
}

/** One draw of every parameter, with a generator. */
function drawOnce(spec: VariantsSpec, random: () => number): Record<string, VariantValue> {
  const out: Record<string, VariantValue> = {};
  for (const name of paramNames(spec)) {
    const p = spec.params[name]!;
    if (p.pick) out[name] = p.pick[Math.floor(random() * p.pick.length)]!;
    else if (p.int) out[name] = p.int[0] + Math.floor(random() * (p.int[1] - p.int[0] + 1));
    else out[name] = p.value!;
  }
  return out;
}

/** The combination of a given index (mixed radix over the sorted names), for the fallback of a crowded draw. */
function combinationAt(spec: VariantsSpec, index: number): Record<string, VariantValue> {
  const out: Record<string, VariantValue> = {};
  let rest = index;
  for (const name of paramNames(spec)) {
    const p = spec.params[name]!;
    const n = choices(p);
    const i = rest % n;
    rest = Math.floor(rest / n);
    out[name] = p.pick ? p.pick[i]! : p.int ? p.int[0] + i : p.value!;
  }
  return out;
}

/** Draws tried for a variant before it takes the first combination no earlier variant has. */
const ATTEMPTS = 64;

/** The canonical text of a variant's values, to compare two variants. */
export function valuesKey(values: VariantValues): string {
  return JSON.stringify(Object.keys(values).sort().map((k) => [k, values[k]]));
}

/**
 * The values of variants 1..count, all distinct while the spec has enough combinations. Variant k
 * draws with the kit's seeded generator, seeded from (seed, k, attempt); a draw equal to an
 * earlier variant's is drawn again (attempt + 1), and after {@link ATTEMPTS} tries the variant
 * takes the first combination, in index order, that no earlier variant has. So variant k depends
 * only on the seed, the spec and k (through the variants before it), never on the count asked
 * for: a build of 20 variants starts with the 3 of a build of 3. When count exceeds the
 * combinations, the later variants repeat earlier ones (the check refuses it, PK153).
 */
export function drawVariants(seed: string, spec: VariantsSpec, count: number): VariantValues[] {
  const out: VariantValues[] = [];
  const seen = new Set<string>();
  const total = combinationCount(spec);
  for (let k = 1; k <= count; k++) {
    let values: Record<string, VariantValue> | undefined;
    for (let attempt = 0; attempt < ATTEMPTS && !values; attempt++) {
      const v = drawOnce(spec, seededRandom(drawSeed(seed, k, attempt)));
      if (!seen.has(valuesKey(v)) || seen.size >= total) values = v;
    }
    if (!values) {
      for (let i = 0; i < total && !values; i++) {
        const v = combinationAt(spec, i);
        if (!seen.has(valuesKey(v))) values = v;
      }
    }
    values ??= drawOnce(spec, seededRandom(drawSeed(seed, k, 0)));
    seen.add(valuesKey(values));
    out.push(Object.freeze(values));
  }
  return out;
}

/** The values of variant k alone (1-based). */
export function variantValues(seed: string, spec: VariantsSpec, k: number): VariantValues {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`variant number ${k} is not 1 or more`);
  return drawVariants(seed, spec, k)[k - 1]!;
}

/** The values a variant's files see: its parameters and the built-in `id`. */
export function placeholderValues(k: number, values: VariantValues): VariantValues {
  return { ...values, id: variantId(k) };
}
