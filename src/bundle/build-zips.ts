import { writeFileSync } from 'node:fs';
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
import { buildCandidateZip, type PacketFileReader } from './candidate-zip.ts';
import { ZIPS_DIR, type ManifestPacket } from './manifest.ts';
import { buildDrillReviewerBundle, buildReviewerBundle, mutationEvidence, rehearsalEvidence, type MutationEvidence } from './reviewer-bundle.ts';
import type { LabTable } from '../labs/table.ts';
import type { Drill } from '../packets/packet.ts';
import type { CachedZip, ZipCache, ZipKey } from './zip-cache.ts';

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
}

/**
 * The candidate zip of every packet, from the cache when nothing it is made of changed, written
 * into `zipsDir` when none was refused.
 */
export async function buildCandidateZips(packets: readonly CodePacket[], reader: (p: CodePacket) => PacketFileReader, zipsDir: string, cache?: ZipCache): Promise<CandidateZips> {
  const zips = new Map<string, CachedZip>();
  const refused: Diagnostic[] = [];
  const toCache: { key: ZipKey; zip: CachedZip }[] = [];
  for (const packet of packets) {
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
  if (refused.length) return { zips, refused, toCache };
  // Synchronous: hundreds of small files, where a thread-pool round trip costs more than the write.
  for (const zip of zips.values()) writeFileAt(path.join(zipsDir, ZIPS_DIR, zip.name), zip.bytes);
  return { zips, refused, toCache };
}

/** The error of a candidate zip over its packet's limit (`limits.zipMb`, or the default), at the packet's prompt. */
export function zipSizeProblem(packet: CodePacket, zip: Pick<CachedZip, 'name' | 'bytes'>): Diagnostic | undefined {
  const limits = packetLimits(packet.prompt.data.limits);
  if (zip.bytes.byteLength <= limits.zipBytes) return undefined;
  const place = limits.zipOverride ? placeOf(packet.prompt, ['limits', 'zipMb']) : { file: packet.prompt.file };
  return diagnose(BundleErrors.CandidateZipTooLarge, place, { zip: zip.name, size: sizeText(zip.bytes.byteLength), limit: sizeText(limits.zipBytes), override: limits.zipOverride });
}

/** The manifest's entry of each packet, with the zip built for it and the rehearsal status the site shows. */
export function manifestEntries(packets: readonly CodePacket[], zips: ReadonlyMap<string, CachedZip>, rehearsal: RehearsalStatus): ManifestPacket[] {
  return packets.map((p) => {
    const zip = zips.get(p.id)!;
    return { id: p.id, version: p.prompt.data.version, digest: p.digest, zip: zip.name, size: zip.bytes.byteLength, sha256: zip.sha256, rehearsal };
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
  /** Each lab's test table, by id. */
  tables: ReadonlyMap<string, LabTable>;
  reader: (p: Pick<Packet, 'id' | 'dir'>) => PacketFileReader;
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
    const inputs = {
      candidate: { name: zip.name, sha256: zip.sha256, size: zip.bytes.byteLength },
      ...(rehearsal ? { rehearsal } : {}),
      ...(mutation ? { mutation } : {}),
      ...(table ? { labTable: table } : {}),
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
