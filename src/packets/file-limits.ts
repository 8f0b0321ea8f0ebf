/**
 * The sizes and depths a packet's files are held to. The reader never reads past the hard
 * maxima (a part file, a tree file, a path); the defaults of a tree file and of the candidate zip
 * are errors a packet may raise in its prompt's `limits`, with a reason, up to the maxima.
 */

export const MIB = 1024 * 1024;

/** A tree file (starter, sample, hidden, mutants, replies) may be this many MiB unless the packet raises it. */
export const FILE_LIMIT_MB = 10;
/** The most a packet may raise its file limit to, in MiB; the reader never hashes a larger file. */
export const FILE_LIMIT_MAX_MB = 256;
/** The candidate zip may be this many MiB unless the packet raises it. */
export const ZIP_LIMIT_MB = 50;
/** The most a packet may raise its zip limit to, in MiB. */
export const ZIP_LIMIT_MAX_MB = 1024;
/** A part file (prompt.mdx, rubric.mdx, ...) over this many bytes is not read: it is text a person reads. */
export const PART_MAX_BYTES = MIB;
/** Folders below a packet folder the reader descends into. */
export const MAX_TREE_DEPTH = 32;
/** The longest path, in UTF-8 bytes and relative to the packet folder, the reader takes. */
export const MAX_PATH_BYTES = 1024;

/** A byte count as the diagnostics show it: `12.5 MiB`, `3.0 GiB`. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * MIB) return `${(bytes / 1024 / MIB).toFixed(1)} GiB`;
  if (bytes >= MIB) return `${(bytes / MIB).toFixed(1)} MiB`;
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** What a packet's prompt says of its limits (`limits`), when it says anything. */
export interface LimitsOverride {
  fileMb?: number | undefined;
  zipMb?: number | undefined;
}

/** A packet's limits in bytes, and whether the packet set them itself. */
export interface PacketLimits {
  fileBytes: number;
  zipBytes: number;
  fileOverride: boolean;
  zipOverride: boolean;
}

/** The limits of a packet whose prompt holds `limits` (or none). */
export function packetLimits(limits: LimitsOverride | undefined): PacketLimits {
  return {
    fileBytes: (limits?.fileMb ?? FILE_LIMIT_MB) * MIB,
    zipBytes: (limits?.zipMb ?? ZIP_LIMIT_MB) * MIB,
    fileOverride: limits?.fileMb !== undefined,
    zipOverride: limits?.zipMb !== undefined,
  };
}
