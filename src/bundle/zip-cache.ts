import { createHash } from 'node:crypto';
export { kitFingerprint } from '../kit/fingerprint.ts';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CodePacket } from '../packets/packet.ts';
import { zipBaseName } from './candidate-zip.ts';

/**
 * Zips kept between builds, by what they are made of. A candidate zip is a function of the
 * packet's files (its digest), its id and version, and the kit's code: the Markdown it renders,
 * the refusals, the secret scan, the zip writer and their dependencies. A reviewer bundle is that
 * too, plus the candidate zip it names and the rehearsal result it carries. So the key is those
 * inputs, {@link ZIP_CACHE_VERSION}, and a fingerprint of the kit (every file of its `src/` and
 * its lock files): any change to the kit or to an installed package starts a new cache. Only
 * zips that passed the refusals and the secret scan are stored, so a packet that is refused or
 * holds a secret is checked again on every build. A cached zip is used only when its bytes still
 * have the sha256 recorded beside them.
 */

/** Bump when the layout of a cache entry changes. */
export const ZIP_CACHE_VERSION = 1;

/** A zip as the build ships it. */
export interface CachedZip {
  /** The file name, `<id>-<version>.zip`. */
  name: string;
  bytes: Uint8Array;
  /** sha256 of `bytes`, hex. */
  sha256: string;
}

/** What a zip is made of, besides the kit's code. */
export interface ZipKey {
  kind: 'candidate' | 'reviewer';
  packet: Pick<CodePacket, 'id' | 'digest'> & { prompt: { data: { version: string } } };
  /** Any other input, as JSON: the same JSON, the same bytes (the reviewer bundle's candidate zip and rehearsal). */
  inputs?: unknown;
}

/** Built zips by what they are made of. */
export interface ZipCache {
  /** The zip from an earlier build, if there is one and its bytes check out. */
  get(key: ZipKey): Promise<CachedZip | undefined>;
  /** Keep a zip that passed every check. */
  set(key: ZipKey, zip: CachedZip): Promise<void>;
}

/** The sidecar of a cached zip. */
interface Entry {
  schemaVersion: typeof ZIP_CACHE_VERSION;
  /** The hash of what the zip is made of. */
  key: string;
  name: string;
  size: number;
  sha256: string;
}

/**
 * A zip cache in a folder: one slot per kind and packet id, `<kind>/<id>.zip` and `<id>.json`
 * (the key, name, size, sha256), each written atomically. A new version of a packet, or a new
 * rehearsal result in a reviewer bundle, takes its slot: the folder never holds more than two
 * zips per packet.
 */
export function directoryZipCache(dir: string, fingerprint: string): ZipCache {
  const keyOf = ({ kind, packet, inputs }: ZipKey) =>
    createHash('sha256')
      .update(JSON.stringify({ v: ZIP_CACHE_VERSION, kit: fingerprint, kind, id: packet.id, version: packet.prompt.data.version, digest: packet.digest, inputs }))
      .digest('hex');
  const slot = (key: ZipKey) => path.join(dir, key.kind, key.packet.id);
  const write = (file: string, data: string | Uint8Array) => {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  };
  return {
    async get(key) {
      const base = slot(key);
      try {
        // Synchronous reads, as for packet files: small files, where a thread-pool round trip costs more than the read.
        const entry = JSON.parse(readFileSync(`${base}.json`, 'utf8')) as Entry;
        if (entry.schemaVersion !== ZIP_CACHE_VERSION || entry.key !== keyOf(key) || entry.name !== `${zipBaseName(key.packet)}.zip`) return undefined;
        const b = readFileSync(`${base}.zip`);
        const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
        if (bytes.byteLength !== entry.size || createHash('sha256').update(bytes).digest('hex') !== entry.sha256) return undefined;
        return { name: entry.name, bytes, sha256: entry.sha256 };
      } catch {
        return undefined;
      }
    },
    async set(key, zip) {
      const base = slot(key);
      const entry: Entry = { schemaVersion: ZIP_CACHE_VERSION, key: keyOf(key), name: zip.name, size: zip.bytes.byteLength, sha256: zip.sha256 };
      try {
        // Synchronous, as the reads: small files. Two builds at once may fill the same slot: a
        // sidecar that goes with the other zip fails the sha256 check, a miss.
        mkdirSync(path.dirname(base), { recursive: true });
        write(`${base}.zip`, zip.bytes);
        write(`${base}.json`, JSON.stringify(entry) + '\n');
      } catch {
        // A cache that cannot be written (a read-only node_modules) is no cache; the build goes on.
      }
    },
  };
}
