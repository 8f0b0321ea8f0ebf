import { z } from 'astro/zod';

/**
 * What the site knows about a packet's build: its candidate zip and its rehearsal status, read
 * from the manifest `packet build` writes (`<dist>/packets.json`). This is the read side of that
 * contract; the build writes more fields, which the site ignores.
 */

/** The manifest's file name in the site folder. */
export const MANIFEST_FILE = 'packets.json';

/** The manifest versions this reader understands. */
export const BUILD_MANIFEST_SCHEMA_VERSION = 1;

/** How the offline rehearsal of one packet version ended. */
export const REHEARSAL_STATUSES = ['fails-closed', 'defect', 'inconclusive', 'not-rehearsed'] as const;

/** How the offline rehearsal of one packet version ended. */
export const rehearsalStatusSchema = z.enum(REHEARSAL_STATUSES);

/** How the offline rehearsal of one packet version ended. */
export type RehearsalStatus = z.infer<typeof rehearsalStatusSchema>;

/** The candidate zip of one packet version, as the site links it. */
export const downloadSchema = z.strictObject({
  /** The zip's file name under the site's `zips/` folder, `<id>-<version>.zip`. */
  zip: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*\.zip$/, 'must be a plain file name ending in .zip'),
  /** Size in bytes. */
  size: z.int().nonnegative(),
  /** sha256 of the zip, lowercase hex. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits'),
});

/** The candidate zip of one packet version. */
export type Download = z.infer<typeof downloadSchema>;

/** One packet version in the build manifest. Fields the site does not read are allowed and ignored. */
export const manifestPacketSchema = z.looseObject({
  /** The packet id. */
  id: z.string().min(1),
  /** The packet version the zip was built from. */
  version: z.string().min(1),
  /** The content digest the zip and the rehearsal belong to. */
  digest: z.string().min(1),
  /** The zip's file name under `zips/`. */
  zip: downloadSchema.shape.zip,
  /** The zip's size in bytes. */
  size: downloadSchema.shape.size,
  /** The zip's sha256. */
  sha256: downloadSchema.shape.sha256,
  /** How the rehearsal of this digest ended. */
  rehearsal: rehearsalStatusSchema,
  /** How many variants the build made of a packet with parameters (the zip is the first one's). */
  variants: z.int().positive().optional(),
});

/** The build manifest, `packets.json`. */
export const buildManifestSchema = z.looseObject({
  /** The manifest format; this reader understands {@link BUILD_MANIFEST_SCHEMA_VERSION}. */
  schemaVersion: z.literal(BUILD_MANIFEST_SCHEMA_VERSION),
  /** The site's search index, holding every packet of the manifest; absent when the build made none. */
  search: z.looseObject({ engine: z.literal('pagefind'), path: z.string().min(1) }).optional(),
  /** One entry per packet built. */
  packets: z.array(manifestPacketSchema),
});

/** The build manifest, `packets.json`. */
export type BuildManifest = z.infer<typeof buildManifestSchema>;

/** A packet's build as the site shows it. */
export interface BuildStatus {
  /** The zip of this exact digest; absent when the site was built without one. */
  download?: Download;
  /** The rehearsal status of this exact digest. */
  rehearsal: RehearsalStatus;
  /** True when this digest is in the site's search index. */
  indexed?: true;
  /** How many variants the build made of the packet; absent for a packet without parameters. */
  variants?: number;
}

/** Parse the text of `packets.json`; throws an error naming the file and the first problems. */
export function parseBuildManifest(text: string, file: string): BuildManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`the build manifest ${file} is not JSON: ${(err as Error).message}`);
  }
  const result = buildManifestSchema.safeParse(json);
  if (!result.success) {
    const problems = result.error.issues.slice(0, 5).map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`the build manifest ${file} is not a packet-kit manifest (schemaVersion ${BUILD_MANIFEST_SCHEMA_VERSION}):\n${problems.join('\n')}`);
  }
  return result.data;
}

/**
 * The build status of one packet version. A manifest entry counts only when both its id and its
 * digest match: an entry for another digest describes another version, so this one is neither
 * built nor rehearsed. No manifest at all (a plain `astro build`) means the same.
 */
export function buildStatus(manifest: BuildManifest | undefined, id: string, digest: string): BuildStatus {
  const entry = manifest?.packets.find((p) => p.id === id && p.digest === digest);
  if (!entry) return { rehearsal: 'not-rehearsed' };
  return {
    download: { zip: entry.zip, size: entry.size, sha256: entry.sha256 },
    rehearsal: entry.rehearsal,
    ...(manifest?.search ? { indexed: true as const } : {}),
    ...(entry.variants ? { variants: entry.variants } : {}),
  };
}
