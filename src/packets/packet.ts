import type { Packet } from './kinds/index.ts';
import type { PacketTrees } from './packet-base.ts';
import type { LabModel } from './lab-model.ts';

/**
 * The packet model: `Packet`, the union of the kinds listed in kinds/index.ts (`Takehome | Lab |
 * Drill`, each defined in its kind's file), narrowed by `kind`, and the helpers that narrow it.
 */
export type { Drill, Lab, Packet, PacketOfDescriptor, Takehome } from './kinds/index.ts';
export { MUTANTS_REPLY, type CodePacketBase, type PacketBase, type PacketTrees } from './packet-base.ts';

/** A packet of the given kind. */
export type PacketOf<K extends Packet['kind']> = Extract<Packet, { kind: K }>;

/** A packet that carries code trees, so it has a zip, a rehearsal and a grade: a take-home or a lab. */
export type CodePacket = Extract<Packet, { trees: PacketTrees }>;

/** True for a packet that carries code trees (a take-home or a lab). */
export function hasCode(packet: Packet): packet is CodePacket {
  return 'trees' in packet;
}

/** The packets that carry code, in order. */
export function codePackets(packets: readonly Packet[]): CodePacket[] {
  return packets.filter(hasCode);
}

/** The packets of one kind, in order. */
export function packetsOfKind<K extends Packet['kind']>(packets: readonly Packet[], kind: K): PacketOf<K>[] {
  return packets.filter((p): p is PacketOf<K> => p.kind === kind);
}

/** A lab's suggestions resolved against its starter; none for another kind, or for a lab whose suggestions do not resolve. */
export function labModelOf(packet: Packet): LabModel | undefined {
  return packet.kind === 'lab' ? packet.lab : undefined;
}

/** A take-home's failure modes; none for another kind. */
export function failureModes(packet: Packet): PacketOf<'takehome'>['failures']['data']['modes'] {
  return packet.kind === 'takehome' ? packet.failures.data.modes : [];
}
