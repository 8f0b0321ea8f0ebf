import type { LabModel } from './lab-model.ts';
import type { PacketEntry } from './source.ts';
import type { Part, PartData } from './part.ts';
import type { DrillDiff } from './schema/assistant.ts';
import type { DrillPromptFrontmatter } from './schema/drill.ts';

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

/** A take-home: the four parts and the code trees (starter, sample, hidden tests, mutants, replies). Rules in kinds/takehome.ts. */
export interface Takehome extends PacketBase {
  kind: 'takehome';
  prompt: Part<PartData<'prompt'>>;
  rubric: Part<PartData<'rubric'>>;
  /** The labeled sample. */
  sample: Part<PartData<'sample'>>;
  /** The failure catalog. */
  failures: Part<PartData<'failures'>>;
  /** The code trees. */
  trees: PacketTrees;
}

/** A lab: prompt, rubric and the scripted assistant's suggestions over a starter. Rules in kinds/lab.ts. */
export interface Lab extends PacketBase {
  kind: 'lab';
  prompt: Part<PartData<'prompt'>>;
  rubric: Part<PartData<'rubric'>>;
  /** The scripted assistant (`assistant.mdx`). */
  assistant: Part<PartData<'assistant'>>;
  /** The suggestions resolved against the starter: regions, segments, versions. Absent when they do not resolve (the load reports why). */
  lab?: LabModel;
  /** The code trees. */
  trees: PacketTrees;
}

/**
 * A drill: the review round of N diffs. It runs no code and ships no zip: the candidate reviews
 * the diffs on the site and hands in an answer sheet; the key of each diff is reviewer material.
 * Rules in kinds/drill.ts.
 */
export interface Drill extends PacketBase {
  kind: 'drill';
  prompt: Part<DrillPromptFrontmatter>;
  rubric: Part<PartData<'rubric'>>;
  assistant: Part<PartData<'assistant'>>;
  /** The diffs, in order (`assistant.data.diffs`). */
  diffs: DrillDiff[];
}

/** A loaded, validated packet of any kind; narrow it with `kind`. The kinds are listed in kinds/index.ts. */
export type Packet = Takehome | Lab | Drill;

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
export function failureModes(packet: Packet): Takehome['failures']['data']['modes'] {
  return packet.kind === 'takehome' ? packet.failures.data.modes : [];
}
