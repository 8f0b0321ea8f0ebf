import type { BuildManifest, RehearsalStatus } from '../packets/build-status.ts';
import { comparePaths } from './zip-writer.ts';

/**
 * The build manifest `dist/packets.json`: one entry per packet version in the site. The site
 * reads it (src/packets/build-status.ts is the read side) and `packet check` compares against
 * the last one to catch content that changed without a version bump.
 */

/** Version of the manifest document. */
export const MANIFEST_SCHEMA_VERSION = 1;

/** The folder of the candidate zips in the site folder. */
export const ZIPS_DIR = 'zips';

/** One packet version of the manifest. */
export type ManifestPacket = {
  /** The packet id. */
  id: string;
  /** The packet's version (prompt frontmatter). */
  version: string;
  /** The packet's content digest: the zip and the rehearsal belong to it. */
  digest: string;
  /** The candidate zip's file name under `zips/`, `<id>-<version>.zip`. */
  zip: string;
  /** The zip's size in bytes. */
  size: number;
  /** sha256 of the zip, lowercase hex. */
  sha256: string;
  /** How the offline rehearsal of this digest ended; `not-rehearsed` with `--skip-rehearse`. */
  rehearsal: RehearsalStatus;
  /** How many variants the build made of a packet with parameters (its zip is the first one's); absent for a packet without. */
  variants?: number;
};

/** The site's search index, when the build makes one. */
export type ManifestSearch = {
  /** The library that made it. */
  engine: 'pagefind';
  /** Its folder in the site, `pagefind/`. */
  path: string;
};

/** The folder of the search index in the site folder. */
export const SEARCH_DIR = 'pagefind';

/** The manifest document. */
export type Manifest = {
  schemaVersion: typeof MANIFEST_SCHEMA_VERSION;
  /** The search index every packet of this manifest is in; absent when the build makes none. */
  search?: ManifestSearch;
  /** Sorted by id. */
  packets: ManifestPacket[];
};

/** The manifest of a build: entries sorted by id, keys in a fixed order. */
export function buildManifest(packets: readonly ManifestPacket[], search?: ManifestSearch): Manifest {
  return {
    schemaVersion: MANIFEST_SCHEMA_VERSION,
    ...(search ? { search: { engine: search.engine, path: search.path } } : {}),
    packets: [...packets]
      .sort((a, b) => comparePaths(a.id, b.id))
      .map((p) => ({ id: p.id, version: p.version, digest: p.digest, zip: p.zip, size: p.size, sha256: p.sha256, rehearsal: p.rehearsal, ...(p.variants ? { variants: p.variants } : {}) })),
  };
}

/** The manifest as written: two-space JSON and a final newline, the same bytes for the same build. */
export function manifestJson(manifest: Manifest): string {
  return JSON.stringify(manifest satisfies BuildManifest, null, 2) + '\n';
}
