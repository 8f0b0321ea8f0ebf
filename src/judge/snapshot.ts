/**
 * The candidate's files as the judge sees them: read (or laid out) before the run, so nothing
 * the code under test does while it runs changes what signals and the contract read.
 */

/** A file the kit would not read, and why. */
export interface UnsafeEntry {
  /** `a symlink`, `a FIFO`, `a device`, `larger than 1 MiB`, ... */
  unsafe: string;
}

/** Candidate files by path (relative to the workspace root): their text, or why they were not read. */
export type Snapshot = ReadonlyMap<string, string | UnsafeEntry>;
