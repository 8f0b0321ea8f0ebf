import type { DrillDiff } from './schema/assistant.ts';
import type { DrillPromptFrontmatter } from './schema/drill.ts';
import type { RubricFrontmatter } from './schema/rubric.ts';
import type { AssistantFrontmatter } from './schema/assistant.ts';
import type { Part } from './part.ts';
import type { PacketEntry } from './source.ts';

/**
 * A loaded, validated drill: the review round of N diffs. It runs no code and ships no zip: the
 * candidate reviews the diffs on the site and hands in an answer sheet; the key of each diff is
 * reviewer material.
 */
export interface Drill {
  /** The id, from the folder name (the same id function as packets). */
  id: string;
  /** The folder as shown in diagnostics. */
  dir: string;
  /** sha256 over every file's path and contents. */
  digest: string;
  prompt: Part<DrillPromptFrontmatter>;
  rubric: Part<RubricFrontmatter>;
  assistant: Part<AssistantFrontmatter>;
  /** The diffs, in order (`assistant.data.diffs`). */
  diffs: DrillDiff[];
  /** Every file of the folder. */
  entries: PacketEntry[];
}
