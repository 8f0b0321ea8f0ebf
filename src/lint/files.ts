import path from 'node:path';
import { readBytesCapped } from '../packets/capped-read.ts';
import { FILE_LIMIT_MAX_MB, MIB } from '../packets/file-limits.ts';
import type { Packet } from '../packets/packet.ts';

/** How the lint reads a packet's files; tests pass one over memory. */
export interface PacketFiles {
  /** The bytes of a file, by its path relative to the packet folder; undefined when it cannot be read. */
  read(packet: Pick<Packet, 'id' | 'dir'>, relPath: string): Promise<Uint8Array | undefined>;
}

/** Read packet files from disk; `packet.dir` is relative to `cwd` (or absolute). */
export function fsPacketFiles(cwd: string): PacketFiles {
  return {
    read: (packet, relPath) => readBytesCapped(path.resolve(cwd, packet.dir, relPath), FILE_LIMIT_MAX_MB * MIB),
  };
}

/** Files held in memory, by packet id and relative path. */
export function memoryPacketFiles(files: Record<string, Record<string, string | Uint8Array>>): PacketFiles {
  return {
    async read(packet, relPath) {
      const content = files[packet.id]?.[relPath];
      if (content === undefined) return undefined;
      return typeof content === 'string' ? new TextEncoder().encode(content) : content;
    },
  };
}
