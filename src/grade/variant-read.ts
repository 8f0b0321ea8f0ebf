/**
 * Which variant a submission is, read from its README: the `Variant:` line names it and the
 * `Digest:` line proves it (the digest of that variant's rendered files, as the build wrote it).
 * The two must agree; a submission that names no variant, one the packet does not have, or a
 * digest that is not its variant's is not graded against any variant (the reviewer is told what
 * to do). And which other variants the leak check tries: those whose values the submission's
 * code carries, first. Pure.
 */
import { GradeErrors } from '../errors/grade-catalog.ts';
import { shownName } from '../errors/safe-name.ts';
import { finding, type Finding } from '../judge/findings.ts';
import { variantId, variantNumber, type VariantValues } from '../packets/variants.ts';
import { VARIANTS_MAX } from '../packets/schema/prompt-variants.ts';

/** The other variants the leak check judges a submission against, at most. */
export const LEAK_CHECK_MAX = 3;

/**
 * The most bytes of the submission's text the leak check's ranking reads: all of it, since intake
 * holds a submission to 32 MiB (DEFAULT_INTAKE_LIMITS). A smaller budget read in file order would
 * let a large file placed first hide the copied values that come after it.
 */
export const LEAK_SCAN_BYTES = 32 * 1024 * 1024;

/** The variant id a README's `Variant:` line names (cut at 40 characters), or null. */
export function statedVariantId(readme: string | undefined): string | null {
  if (!readme) return null;
  return /Variant: `([^`\r\n]{1,40})`/.exec(readme)?.[1] ?? null;
}

/** A variant as the reader knows it: its number, id and the digest its README states. */
export interface KnownVariant {
  number: number;
  id: string;
  digest: string;
}

/** How to look a variant up: the one of a number (undefined when it cannot be rendered), and every variant sent out (1..count). */
export interface VariantLookup {
  /** How many variants were sent out (`--variants`, else the packet's `variants.count`). */
  count: number;
  byNumber(k: number): Promise<KnownVariant | undefined>;
}

/** What reading gave: the submission's variant, or the finding that keeps it from being graded. */
export type VariantReading = { variant: KnownVariant } | { refusal: Finding };

/** Read a submission's variant from its stated id and digest (the README's), checked against the packet's variants. */
export async function readVariant(stated: { variant: string | null; digest: string | null }, lookup: VariantLookup, packetId: string): Promise<VariantReading> {
  const place = { file: 'README.md' };
  const sentOut = `v1..v${lookup.count}`;
  if (stated.variant === null) {
    const byDigest = stated.digest ? await digestOwner(stated.digest, lookup) : undefined;
    return { refusal: finding('intake', GradeErrors.VariantUnstated, { id: packetId, owner: byDigest?.id ?? null }, place) };
  }
  const k = variantNumber(stated.variant);
  // Only a variant that was sent out (1..count) is known: a larger one needs --variants N.
  const own = k !== undefined && k <= Math.min(lookup.count, VARIANTS_MAX) ? await lookup.byNumber(k) : undefined;
  // The stated id is the candidate's text: shown with its controls, bidi and zero-width characters escaped.
  if (!own) return { refusal: finding('intake', GradeErrors.VariantUnknown, { stated: shownName(stated.variant), id: packetId, range: sentOut }, place) };
  if (stated.digest === own.digest) return { variant: own };
  const owner = stated.digest ? await digestOwner(stated.digest, lookup) : undefined;
  if (owner) return { refusal: finding('intake', GradeErrors.VariantDigestOther, { stated: own.id, owner: owner.id, digest: stated.digest!.slice(0, 12) }, place) };
  return { refusal: finding('intake', GradeErrors.VariantDigestUnknown, { stated: own.id, digest: stated.digest ? stated.digest.slice(0, 12) : null, range: sentOut }, place) };
}

/** The variant sent out (1..count) whose digest this is, if any. */
export async function digestOwner(digest: string, lookup: VariantLookup): Promise<KnownVariant | undefined> {
  for (let k = 1; k <= lookup.count; k++) {
    const v = await lookup.byNumber(k);
    if (v?.digest === digest) return v;
  }
  return undefined;
}

/** An integer literal as Python, JavaScript and most languages write it (`0x1F7`, `0o17`, `0b101`, `1_000`, `007`), as its decimal digits; undefined for any other word. */
export function integerWord(word: string): string | undefined {
  const m = /^(?:0[xX]([0-9a-fA-F](?:_?[0-9a-fA-F])*)|0[oO]([0-7](?:_?[0-7])*)|0[bB]([01](?:_?[01])*)|([0-9](?:_?[0-9])*))$/.exec(word);
  if (!m) return undefined;
  const [, hex, oct, bin, dec] = m;
  const digits = (hex ?? oct ?? bin ?? dec)!.replace(/_/g, '');
  const base = hex ? 16n : oct ? 8n : bin ? 2n : 10n;
  let n = 0n;
  for (const ch of digits.toLowerCase()) n = n * base + BigInt(parseInt(ch, 16));
  return n.toString();
}

/** The words and numbers of a text, for the leak check's ranking: each integer literal also as its decimal digits. */
function tokensOf(texts: readonly string[]): { tokens: Set<string>; all: string } {
  let budget = LEAK_SCAN_BYTES;
  const kept: string[] = [];
  for (const t of texts) {
    if (budget <= 0) break;
    const part = t.slice(0, budget);
    budget -= part.length;
    kept.push(part);
  }
  const all = kept.join('\n');
  const tokens = new Set<string>();
  for (const [word] of all.matchAll(/[A-Za-z0-9_]+/g)) {
    tokens.add(word);
    const n = integerWord(word);
    if (n !== undefined) tokens.add(n);
  }
  return { tokens, all };
}

/**
 * The other variants the leak check tries, at most `max`: ranked by how many of their values
 * that differ from the submission's own variant the submission's text carries (a value of one
 * word must be a whole word, an integer literal in any base counting as its decimal value; any
 * other a substring), then by number. A value the text does not spell out (computed at run time,
 * read from a binary file) is not seen, and the copy can then be among the variants not tried. Deterministic: the same
 * submission and packet always give the same list.
 */
export function leakCandidates(own: { number: number; values: VariantValues }, others: readonly { number: number; values: VariantValues }[], texts: readonly string[], max = LEAK_CHECK_MAX): number[] {
  const { tokens, all } = tokensOf(texts);
  const carries = (value: string) => (/^[A-Za-z0-9_]+$/.test(value) ? tokens.has(value) : all.includes(value));
  const scored = others
    .filter((o) => o.number !== own.number)
    .map((o) => {
      const differing = Object.keys(o.values).filter((name) => String(o.values[name]) !== String(own.values[name]));
      return { number: o.number, hits: differing.filter((name) => carries(String(o.values[name]))).length };
    });
  scored.sort((a, b) => b.hits - a.hits || a.number - b.number);
  return scored.slice(0, Math.max(0, max)).map((s) => s.number);
}

/** The variant field of a scorecard: which variant was graded, its values and digest. */
export function variantOnCard(v: { number: number; values: VariantValues; digest: string }): { id: string; number: number; values: VariantValues; digest: string } {
  return { id: variantId(v.number), number: v.number, values: { ...v.values }, digest: v.digest };
}
