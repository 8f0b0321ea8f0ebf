import type { VariantValues } from './variants.ts';

/**
 * VARIANTS.json, the reviewer key of a packet's variants: which variant a candidate got (its id,
 * the digest its README states, its zip) and the values drawn for it. The build writes it into
 * the reviewer bundle and beside the variants' zips; never on the public site. Grading reads it
 * to lay the hidden tests of a submission's own variant.
 */

/** The file name, in the reviewer bundle. */
export const VARIANTS_KEY_FILE = 'VARIANTS.json';

/** The `kind` of the document. */
export const VARIANTS_KEY_KIND = 'packet-kit/variants-key';

/** One variant of the key. */
export interface VariantsKeyEntry {
  /** `v<number>`. */
  id: string;
  number: number;
  /** The digest of the rendered variant: the `Digest:` line of its zip's README. */
  digest: string;
  /** The values drawn for it, by parameter name. */
  values: VariantValues;
  /** Its candidate zip. */
  zip: { name: string; size: number; sha256: string };
  /**
   * A lab's variant: its page on the packet site (`/labs/<id>/` for v1, `/labs/<id>/v<k>/`
   * after it), the address the candidate who gets it is sent, and its key (the LAB-KEY.json the
   * scoring page imports with that candidate's answer sheet), relative to this file's folder (absent when the build computed no table).
   */
  lab?: { page: string; key?: string };
}

/** The key of one packet's variants. */
export interface VariantsKey {
  kind: typeof VARIANTS_KEY_KIND;
  schemaVersion: 1;
  packet: string;
  version: string;
  /** The digest of the packet's own files, placeholders unwritten. */
  digest: string;
  /** The seed the values were drawn from. */
  seed: string;
  variants: VariantsKeyEntry[];
}

/** The key as written: keys in a fixed order, two-space JSON, a final newline; the same bytes for the same build. */
export function variantsKeyJson(key: VariantsKey): string {
  const doc = {
    kind: VARIANTS_KEY_KIND,
    schemaVersion: 1,
    packet: key.packet,
    version: key.version,
    digest: key.digest,
    seed: key.seed,
    variants: key.variants.map((v) => ({
      id: v.id,
      number: v.number,
      digest: v.digest,
      values: Object.fromEntries(Object.keys(v.values).sort().map((k) => [k, v.values[k]])),
      zip: { name: v.zip.name, size: v.zip.size, sha256: v.zip.sha256 },
      ...(v.lab ? { lab: { page: v.lab.page, ...(v.lab.key ? { key: v.lab.key } : {}) } } : {}),
    })),
  };
  return JSON.stringify(doc, null, 2) + '\n';
}

/** The variant of a key a stated digest names, if any. */
export function variantOfDigest(key: Pick<VariantsKey, 'variants'>, digest: string): VariantsKeyEntry | undefined {
  return key.variants.find((v) => v.digest === digest);
}
