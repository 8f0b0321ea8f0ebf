import type { LabModel } from './lab-model.ts';
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

/**
 * A loaded, validated packet with code: a take-home (`prompt.data.kind` is `takehome`: the four
 * parts) or a lab (`lab`: prompt, rubric and the assistant's suggestions, resolved in `lab`).
 * Drills run no code and are loaded as a {@link Drill} (see drill.ts).
 */
export interface Packet {
  /** The id, from the folder name. */
  id: string;
  /** The packet folder as shown in diagnostics. */
  dir: string;
  /** sha256 over every file's path and contents: one digest, one version of the packet. */
  digest: string;
  prompt: Part<PartData<'prompt'>>;
  rubric: Part<PartData<'rubric'>>;
  /** A take-home's labeled sample; absent for a lab. */
  sample?: Part<PartData<'sample'>>;
  /** A take-home's failure catalog; absent for a lab. */
  failures?: Part<PartData<'failures'>>;
  /** A lab's scripted assistant (`assistant.mdx`); absent for a take-home. */
  assistant?: Part<PartData<'assistant'>>;
  /** A lab's suggestions resolved against its starter: regions, segments, versions. Absent for a take-home. */
  lab?: LabModel;
  /** Every file of the packet folder. */
  entries: PacketEntry[];
  /** The code trees. */
  trees: PacketTrees;
}

/** A take-home's failure modes; none for a lab. */
export function failureModes(packet: Pick<Packet, 'failures'>): NonNullable<Packet['failures']>['data']['modes'] {
  return packet.failures?.data.modes ?? [];
}
