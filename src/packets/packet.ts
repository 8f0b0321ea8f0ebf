import type { PacketEntry } from './source.ts';
import type { Part, PartData } from './part.ts';

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

/** A loaded, validated packet. */
export interface Packet {
  /** The id, from the folder name. */
  id: string;
  /** The packet folder as shown in diagnostics. */
  dir: string;
  /** sha256 over every file's path and contents: one digest, one version of the packet. */
  digest: string;
  prompt: Part<PartData<'prompt'>>;
  rubric: Part<PartData<'rubric'>>;
  sample: Part<PartData<'sample'>>;
  failures: Part<PartData<'failures'>>;
  /** Every file of the packet folder. */
  entries: PacketEntry[];
  /** The code trees. */
  trees: PacketTrees;
}
