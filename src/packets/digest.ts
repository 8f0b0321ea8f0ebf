import { createHash } from 'node:crypto';
import type { PacketEntry } from './source.ts';

/** The packet's content digest: sha256 over the sorted list of (path, file sha256). */
export function packetDigest(entries: readonly PacketEntry[]): string {
  const h = createHash('sha256');
  for (const e of [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    h.update(`${e.kind}\0${e.path}\0${e.sha256}\n`);
  }
  return h.digest('hex');
}
