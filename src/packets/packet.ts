import type { KINDS } from './kinds/index.ts';
import type { KindDescriptor } from './kinds/kind.ts';
import type { LabModel } from './lab-model.ts';
import type { PacketEntry } from './source.ts';

export type { Drill } from './kinds/drill.ts';
export type { Lab } from './kinds/lab.ts';
export type { Takehome } from './kinds/takehome.ts';

/** The code trees of a packet, each a sorted list of paths relative to the tree's root. */
export interface PacketTrees {
  /** PUBLIC: the deliberately broken code and the visible tests. */
  starter: string[];
  /** SECRET: overlay on the starter that makes the sample solution. */
  sample: string[];
  /** SECRET: held-out tests. */
  hidden: string[];
  /** SECRET: one overlay per failure mode, by the mutant folder's name. */
  mutants: Record<string, string[]>;
  /** SECRET: scripted replies, relative to `replies/`. */
  replies: string[];
}

/**
 * The scripted reply `packet mutate` serves offline (`replies/mutants.md`, model
 * `scripted:<id>/mutants`): a JSON array of mutants, not a failure mode's reply, so the
 * rehearsal never runs it as one.
 */
export const MUTANTS_REPLY = 'mutants.md';

/** What every kind of packet has: its id, its folder, its digest and its files. */
export interface PacketBase {
  /** The id, from the folder name. */
  id: string;
  /** The packet folder as shown in diagnostics. */
  dir: string;
  /** sha256 over every file's path and contents: one digest, one version of the packet. */
  digest: string;
  /** Every file of the packet folder. */
  entries: PacketEntry[];
}

/** The packet type a kind descriptor describes. */
export type PacketOfDescriptor<D> = D extends KindDescriptor<infer P> ? P : never;

/**
 * A loaded, validated packet of any kind (`Takehome | Lab | Drill`); narrow it with `kind`. The
 * union is the list of kinds in kinds/index.ts: each kind's type sits in its own file there.
 */
export type Packet = PacketOfDescriptor<(typeof KINDS)[number]>;

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
