import { diagnose } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { VariantErrors } from '../errors/variants-catalog.ts';
import { hasCode, type CodePacket, type Packet } from './packet.ts';
import { placeOf } from './place.ts';
import { memoReader, packetVariants, textOfBytes, type PacketBytesReader } from './variants-render.ts';
import { combinationCount, paramNames, placeholdersIn, RESERVED_PARAMS, valueText, variantCount, type PlaceholderUse, type VariantValues } from './variants.ts';

/**
 * The checks of a packet's variants, run by `packet check` and the build's check step: every
 * placeholder names a parameter (PK150) and every parameter is used (PK151), no parameter takes a
 * built-in name (PK152), the parameters have as many combinations as variants are asked for
 * (PK153), every variant parses once rendered (PK154) and no two render the same (PK156); a
 * placeholder in a packet without `variants` is PK155. A packet without `variants` and without
 * placeholders gets no diagnostic.
 */

/** Placeholders reported per packet, at most (a pasted file full of them says enough with these). */
const MAX_REPORTED = 20;

/** Every placeholder of every text file of a packet, with its file. */
export async function packetPlaceholders(packet: Packet, read: PacketBytesReader): Promise<{ path: string; use: PlaceholderUse }[]> {
  const out: { path: string; use: PlaceholderUse }[] = [];
  for (const e of packet.entries) {
    if (e.kind !== 'file') continue;
    const bytes = await read(e.path);
    const text = bytes && textOfBytes(bytes);
    if (!text) continue;
    for (const use of placeholdersIn(text)) out.push({ path: e.path, use });
  }
  return out;
}

/** The values of a variant in words: `limit=4, verb=load`. */
export function valuesText(values: VariantValues): string {
  return Object.keys(values)
    .sort()
    .map((k) => `${k}=${valueText(values[k]!)}`)
    .join(', ');
}

/** The checks of one packet's variants; `count` is the build's `--variants`, when given. */
export async function checkVariants(packet: Packet, readFile: PacketBytesReader, count?: number): Promise<Diagnostic[]> {
  if (!hasCode(packet)) return [];
  const read = memoReader(readFile);
  const spec = packet.prompt.data.variants;
  const uses = await packetPlaceholders(packet, read);
  const at = (u: { path: string; use: PlaceholderUse }) => ({ file: `${packet.dir}/${u.path}`, line: u.use.line, column: u.use.column });
  if (!spec) return uses.slice(0, MAX_REPORTED).map((u) => diagnose(VariantErrors.VariantPlaceholderUndeclared, at(u), { name: u.use.name }));
  const out: Diagnostic[] = [];
  const names = paramNames(spec);
  const reserved = new Set<string>(RESERVED_PARAMS);
  for (const name of names.filter((n) => reserved.has(n))) out.push(diagnose(VariantErrors.VariantParamReserved, placeOf(packet.prompt, ['variants', 'params', name], 'key'), { name }));
  const known = new Set([...names, ...RESERVED_PARAMS]);
  const knownText = [...names.filter((n) => !reserved.has(n)), ...RESERVED_PARAMS].join(', ');
  const unknown = uses.filter((u) => !known.has(u.use.name));
  for (const u of unknown.slice(0, MAX_REPORTED)) out.push(diagnose(VariantErrors.VariantPlaceholderUnknown, at(u), { name: u.use.name, known: knownText }));
  const used = new Set(uses.map((u) => u.use.name));
  for (const name of names.filter((n) => !used.has(n) && !reserved.has(n))) out.push(diagnose(VariantErrors.VariantParamUnused, placeOf(packet.prompt, ['variants', 'params', name], 'key'), { name }));
  const n = variantCount(spec, count);
  const combinations = combinationCount(spec);
  if (n > combinations) {
    out.push(diagnose(VariantErrors.VariantCountTooLarge, placeOf(packet.prompt, spec.count !== undefined && count === undefined ? ['variants', 'count'] : ['variants'], spec.count !== undefined && count === undefined ? 'value' : 'key'), { count: n, combinations }));
    return out;
  }
  if (out.some((d) => d.severity === 'error')) return out;
  out.push(...(await renderedProblems(packet, read, count)));
  return out;
}

/** The problems of the rendered variants: one that does not parse (PK154), two that render the same (PK156). */
async function renderedProblems(packet: CodePacket, read: PacketBytesReader, count?: number): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const byDigest = new Map<string, string>();
  for (const r of await packetVariants(packet, read, count)) {
    if (!r.variant) {
      const first = r.diagnostics.find((d) => d.severity === 'error');
      const reason = first ? `${first.code} ${first.message}` : 'it is not a packet with code';
      out.push(diagnose(VariantErrors.VariantDoesNotParse, first ? { file: first.file, ...(first.line !== undefined ? { line: first.line } : {}), ...(first.column !== undefined ? { column: first.column } : {}) } : { file: packet.prompt.file }, { variant: r.id, values: valuesText(r.values), reason }));
      continue;
    }
    const other = byDigest.get(r.variant.digest);
    if (other) out.push(diagnose(VariantErrors.VariantsIdentical, placeOf(packet.prompt, ['variants'], 'key'), { variant: r.id, other }));
    else byDigest.set(r.variant.digest, r.id);
  }
  return out;
}
