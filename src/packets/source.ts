import type { Diagnostic } from '../errors/diagnostic.ts';
import type { TakehomePartName } from './schema/index.ts';

/** What a file in a packet folder is. Links are recorded, never followed. */
export type EntryKind = 'file' | 'symlink' | 'other';

/** One entry of a packet folder, with a path relative to the packet folder (forward slashes). */
export interface PacketEntry {
  path: string;
  kind: EntryKind;
  /** Size in bytes (0 for links). */
  size: number;
  /** sha256 of the contents, hex (empty for links). */
  sha256: string;
}

/**
 * A packet as read from storage, before parsing: the raw part texts and the list of its files.
 * Adapters produce it; the pure `parsePacket` consumes it.
 */
export interface PacketSource {
  /** The id, from the shared id function. */
  id: string;
  /** The folder's own name. */
  folder: string;
  /** The folder as shown in diagnostics, e.g. `packets/retry-ticket`. */
  dir: string;
  /** Raw text of each part file, or undefined when missing (`assistant.mdx` only in labs and drills). */
  parts: Record<TakehomePartName, string | undefined> & { assistant?: string | undefined };
  /**
   * The text of the starter's text files, by path relative to `starter/`, read when the folder has
   * an `assistant.mdx` (a lab's suggestions are resolved against them). Absent otherwise.
   */
  starterText?: Readonly<Record<string, string>>;
  /** Every file below the folder, sorted by path (caches and bytecode skipped). */
  entries: PacketEntry[];
  /** Problems the adapter met while reading (unreadable files, say). */
  problems: Diagnostic[];
}

/** Names skipped everywhere in a packet: tool caches and bytecode, never part of a packet. */
export const IGNORED_NAMES = new Set(['__pycache__', '.pytest_cache', '.mypy_cache', '.ruff_cache', '.DS_Store', 'node_modules']);

/** True when a file or folder name is never part of a packet. */
export function isIgnoredName(name: string): boolean {
  return IGNORED_NAMES.has(name) || name.endsWith('.pyc');
}
