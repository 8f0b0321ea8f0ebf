/** What the packets of every kind share, below the kinds (kinds/) and the union of them (packet.ts). */
import type { Part, PartData } from './part.ts';
import type { PacketEntry } from './source.ts';

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

/** What every kind of packet with code has besides: a prompt with its code fields, a rubric and the code trees. */
export interface CodePacketBase extends PacketBase {
  prompt: Part<PartData<'prompt'>>;
  rubric: Part<PartData<'rubric'>>;
  /** The code trees. */
  trees: PacketTrees;
}
