import type { PacketFileReader } from '../../../src/bundle/candidate-zip.ts';
import type { Takehome } from '../../../src/packets/packet.ts';
import { memoryPacket } from '../lint/helpers.ts';

/** A scaffold packet in memory with some files replaced, added or removed, and a reader over its files. */
export function memPacket(
  change: (files: Record<string, string>) => Record<string, string | null> = () => ({}),
  id = 'mem',
): { packet: Takehome; read: PacketFileReader } {
  const { packet, files } = memoryPacket(change, id);
  return { packet, read: (rel) => files.read(packet, rel) };
}
