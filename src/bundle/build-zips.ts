import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BundleErrors } from '../errors/bundle-catalog.ts';
import { diagnose } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { atPath } from '../errors/fs-fault.ts';
import { packetLimits, sizeText } from '../packets/file-limits.ts';
import { placeOf } from '../packets/place.ts';
import type { RehearsalStatus } from '../packets/build-status.ts';
import type { CodePacket, Packet } from '../packets/packet.ts';
import type { RehearsalReport } from '../rehearse/report.ts';
import { buildCandidateZip, zipBaseName, type PacketFileReader } from './candidate-zip.ts';
import { ZIPS_DIR, type ManifestPacket } from './manifest.ts';
import { buildDrillReviewerBundle, buildReviewerBundle, mutationEvidence, rehearsalEvidence, type MutationEvidence } from './reviewer-bundle.ts';
import { labPagePath, type LabTable } from '../labs/table.ts';
import type { VariantTable } from './lab-variant-tables.ts';
import { LAB_KEY_FILE, labReviewerKey } from './lab-key.ts';
import type { Drill } from '../packets/packet.ts';
import type { CachedZip, ZipCache, ZipKey } from './zip-cache.ts';
import { VariantErrors } from '../errors/variants-catalog.ts';
import type { VariantValues } from '../packets/variants.ts';
import { valuesText } from '../packets/variants-check.ts';
import { VARIANTS_KEY_FILE, VARIANTS_KEY_KIND, variantsKeyJson, type VariantsKey } from '../packets/variants-key.ts';
import { packetVariants } from '../packets/variants-render.ts';

/** Write a zip into a staging folder, its path on the error (a full disk's names none). */
function writeFileAt(file: string, bytes: Uint8Array): void {
  try {
    writeFileSync(file, bytes);
  } catch (err) {
    throw atPath(err, file);
  }
}

/** The candidate zips of a build, and what it refused. */
export interface CandidateZips {
  /** Each packet's zip, by id (missing for a refused packet). */
  zips: Map<string, CachedZip>;
  /** Why packets were refused; empty when every zip was built. */
  refused: Diagnostic[];
  /** Zips built now, for the cache, kept once the site has started (they are not on its way). */
  toCache: { key: ZipKey; zip: CachedZip }[];
  /** The zip of every variant of each packet with parameters, by id; the packet's zip in `zips` is its first variant's. */
  variants: Map<string, VariantZip[]>;
}

/**
 * The candidate zip of every packet, from the cache when nothing it is made of changed, written
 * into `zipsDir` when none was refused. A packet with parameters has a zip per variant
 * (`variants` overriding its count): the site's zip is its first variant's, and every one is in
 * `variants` for the reviewer folder.
 */
export async function buildCandidateZips(packets: readonly CodePacket[], reader: (p: CodePacket) => PacketFileReader, zipsDir: string, cache?: ZipCache, variantCount?: number): Promise<CandidateZips> {
  const zips = new Map<string, CachedZip>();
  const refused: Diagnostic[] = [];
  const toCache: { key: ZipKey; zip: CachedZip }[] = [];
  const variants = new Map<string, VariantZip[]>();
  for (const packet of packets) {
    if (packet.prompt.data.variants) {
      const built = await buildVariantZips(packet, reader(packet), variantCount);
      refused.push(...built.refused);
      if (!built.refused.length && built.zips.length) {
        zips.set(packet.id, built.zips[0]!.zip);
        variants.set(packet.id, built.zips);
      }
      continue;
    }
    const key = { kind: 'candidate' as const, packet };
    const cached = await cache?.get(key);
    const built = cached ? { zip: cached, diagnostics: [] } : await buildCandidateZip(packet, reader(packet));
    const tooLarge = built.zip && zipSizeProblem(packet, built.zip);
    if (tooLarge) refused.push(tooLarge);
    else if (built.zip) {
      zips.set(packet.id, built.zip);
      if (!cached) toCache.push({ key, zip: built.zip });
    } else refused.push(...built.diagnostics);
  }
  if (refused.length) return { zips, refused, toCache, variants };
  // Synchronous: hundreds of small files, where a thread-pool round trip costs more than the write.
  for (const zip of zips.values()) writeFileAt(path.join(zipsDir, ZIPS_DIR, zip.name), zip.bytes);
  return { zips, refused, toCache, variants };
}

/** The error of a candidate zip over its packet's limit (`limits.zipMb`, or the default), at the packet's prompt. */
export function zipSizeProblem(packet: CodePacket, zip: Pick<CachedZip, 'name' | 'bytes'>): Diagnostic | undefined {
  const limits = packetLimits(packet.prompt.data.limits);
  if (zip.bytes.byteLength <= limits.zipBytes) return undefined;
  const place = limits.zipOverride ? placeOf(packet.prompt, ['limits', 'zipMb']) : { file: packet.prompt.file };
  return diagnose(BundleErrors.CandidateZipTooLarge, place, { zip: zip.name, size: sizeText(zip.bytes.byteLength), limit: sizeText(limits.zipBytes), override: limits.zipOverride });
}

/** The manifest's entry of each packet, with the zip built for it and the rehearsal status the site shows. */
export function manifestEntries(packets: readonly CodePacket[], zips: ReadonlyMap<string, CachedZip>, rehearsal: RehearsalStatus, variants?: ReadonlyMap<string, readonly VariantZip[]>): ManifestPacket[] {
  return packets.map((p) => {
    const zip = zips.get(p.id)!;
    const n = variants?.get(p.id)?.length;
    return { id: p.id, version: p.prompt.data.version, digest: p.digest, zip: zip.name, size: zip.bytes.byteLength, sha256: zip.sha256, rehearsal, ...(n ? { variants: n } : {}) };
  });
}

/** The reviewer bundles of a build, and what it refused. */
export interface ReviewerBundles {
  bundles: Map<string, CachedZip>;
  refused: Diagnostic[];
}

/** What the reviewer bundles are made of. */
export interface ReviewerBundleInputs {
  packets: readonly CodePacket[];
  /** Drills get a bundle of their own key (no zip, no rehearsal). */
  drills: readonly Drill[];
  zips: ReadonlyMap<string, CachedZip>;
  report: RehearsalReport | undefined;
  /** A packet's last `packet mutate` run, if any. */
  mutation(packet: CodePacket): Promise<Omit<MutationEvidence, 'stale'> | undefined>;
  /** Each lab's test table, by id (a lab with variants: its v1's). */
  tables: ReadonlyMap<string, LabTable>;
  /** Each variant's table of a lab with variants, by id: each variant's key is written beside its zip. */
  labVariants?: ReadonlyMap<string, readonly VariantTable[]>;
  reader: (p: Pick<Packet, 'id' | 'dir'>) => PacketFileReader;
  /** The variant zips of each packet with parameters, by id: written into `variants/` with their key, the key also in the bundle. */
  variants?: ReadonlyMap<string, readonly VariantZip[]>;
  /** The staging folder the bundles are written into. */
  dir: string;
  cache?: ZipCache;
}

/** The reviewer bundle of every packet (from the cache when unchanged) and drill, written into `dir`. */
export async function buildReviewerBundles(o: ReviewerBundleInputs): Promise<ReviewerBundles> {
  const bundles = new Map<string, CachedZip>();
  const refused: Diagnostic[] = [];
  for (const packet of o.packets) {
    const zip = o.zips.get(packet.id)!;
    const rehearsal = rehearsalEvidence(o.report, packet);
    const mutation = mutationEvidence(await o.mutation(packet), packet);
    const table = o.tables.get(packet.id);
    const variantZips = o.variants?.get(packet.id);
    const labTables = o.labVariants?.get(packet.id);
    const variants = variantZips ? variantsKeyOf(packet, variantZips, labTables) : undefined;
    const inputs = {
      candidate: { name: zip.name, sha256: zip.sha256, size: zip.bytes.byteLength },
      ...(rehearsal ? { rehearsal } : {}),
      ...(mutation ? { mutation } : {}),
      ...(table ? { labTable: table } : {}),
      ...(variants ? { variants } : {}),
    };
    const key = { kind: 'reviewer' as const, packet, inputs };
    let bundle = await o.cache?.get(key);
    if (!bundle) {
      const built = await buildReviewerBundle(packet, o.reader(packet), inputs);
      if (!built.zip) {
        refused.push(...built.diagnostics);
        continue;
      }
      bundle = built.zip;
      await o.cache?.set(key, bundle);
    }
    bundles.set(packet.id, bundle);
    writeFileAt(path.join(o.dir, bundle.name), bundle.bytes);
    if (variantZips && variants) writeVariantZips(o.dir, packet, variantZips, variants, labTables);
  }
  for (const drill of o.drills) {
    const built = await buildDrillReviewerBundle(drill, o.reader(drill));
    if (!built.zip) {
      refused.push(...built.diagnostics);
      continue;
    }
    bundles.set(drill.id, built.zip);
    writeFileAt(path.join(o.dir, built.zip.name), built.zip.bytes);
  }
  return { bundles, refused };
}

/** The folder of the reviewer folder holding each packet's variant zips and their key. */
export const VARIANTS_DIR = 'variants';

/** A packet's variant zips and VARIANTS.json, in `<reviewer>/variants/<id>-<version>/`: what a hiring lead sends out, one zip per candidate. */
function writeVariantZips(dir: string, packet: CodePacket, zips: readonly VariantZip[], key: VariantsKey, labTables?: readonly VariantTable[]): void {
  const folder = path.join(dir, VARIANTS_DIR, zipBaseName(packet));
  try {
    mkdirSync(folder, { recursive: true });
  } catch (err) {
    throw atPath(err, folder);
  }
  for (const z of zips) writeFileAt(path.join(folder, z.zip.name), z.zip.bytes);
  // A lab's variants: each one's key, as the scoring page imports it with that variant's answer sheets.
  for (const v of labTables ?? []) {
    const entry = key.variants.find((e) => e.id === v.id);
    if (!entry?.lab?.key || !v.lab.lab) continue;
    const file = path.join(folder, ...entry.lab.key.split('/'));
    try {
      mkdirSync(path.dirname(file), { recursive: true });
    } catch (err) {
      throw atPath(err, path.dirname(file));
    }
    writeFileAt(file, new TextEncoder().encode(`${JSON.stringify(labReviewerKey(v.lab.lab, v.table), null, 2)}\n`));
  }
  writeFileAt(path.join(folder, VARIANTS_KEY_FILE), new TextEncoder().encode(variantsKeyJson(key)));
}

/** Where a lab variant's key is, relative to the variants folder of its packet: `v<k>/LAB-KEY.json`. */
export function variantLabKeyPath(variant: string): string {
  return `${variant}/${LAB_KEY_FILE}`;
}

/** One variant's candidate zip, with what the reviewer key says of it. */
export interface VariantZip {
  id: string;
  number: number;
  /** The rendered variant's digest, the `Digest:` line of its README. */
  digest: string;
  values: VariantValues;
  zip: CachedZip;
  /** The rendered variant and a reader of its files, for the canary scan of the zip the site ships. */
  rendered: { packet: CodePacket; read: PacketFileReader };
}

/**
 * The candidate zip of every variant of a packet with parameters, `<id>-<version>-v<k>.zip`,
 * from its rendered files (`count` overriding the field's). Built every time, never cached (the
 * cache keeps one zip per packet); each is deterministic, the same bytes for the same packet.
 */
export async function buildVariantZips(packet: CodePacket, read: PacketFileReader, count?: number): Promise<{ zips: VariantZip[]; refused: Diagnostic[] }> {
  const zips: VariantZip[] = [];
  const refused: Diagnostic[] = [];
  for (const r of await packetVariants(packet, read, count)) {
    if (!r.variant) {
      const first = r.diagnostics.find((d) => d.severity === 'error');
      refused.push(diagnose(VariantErrors.VariantDoesNotParse, first ? { file: first.file } : { file: packet.prompt.file }, { variant: r.id, values: valuesText(r.values), reason: first ? `${first.code} ${first.message}` : 'it is not a packet with code' }));
      continue;
    }
    const v = r.variant;
    const built = await buildCandidateZip(v.packet, v.read, v.id);
    const tooLarge = built.zip && zipSizeProblem(v.packet, built.zip);
    if (tooLarge) refused.push(tooLarge);
    else if (built.zip) zips.push({ id: v.id, number: v.number, digest: v.digest, values: v.values, zip: { name: built.zip.name, bytes: built.zip.bytes, sha256: built.zip.sha256 }, rendered: { packet: v.packet, read: v.read } });
    else refused.push(...built.diagnostics);
  }
  return { zips, refused };
}

/** The reviewer key of a packet's variant zips (VARIANTS.json). */
export function variantsKeyOf(packet: CodePacket, zips: readonly VariantZip[], labTables?: readonly VariantTable[]): VariantsKey {
  const hasKey = new Set((labTables ?? []).filter((v) => v.lab.lab).map((v) => v.id));
  return {
    kind: VARIANTS_KEY_KIND,
    schemaVersion: 1,
    packet: packet.id,
    version: packet.prompt.data.version,
    digest: packet.digest,
    seed: packet.prompt.data.seed,
    variants: zips.map((z) => ({
      id: z.id,
      number: z.number,
      digest: z.digest,
      values: z.values,
      zip: { name: z.zip.name, size: z.zip.bytes.byteLength, sha256: z.zip.sha256 },
      ...(packet.kind === 'lab' ? { lab: { page: labPagePath(packet.id, z.number), ...(hasKey.has(z.id) ? { key: variantLabKeyPath(z.id) } : {}) } } : {}),
    })),
  };
}
