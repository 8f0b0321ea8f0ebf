/**
 * Workspaces for judged runs. A packet's files are read once (`loadPacketFiles`); each run lays
 * the starter, then the submission's files, then the protected files and hidden tests from the
 * packet (never from the submission), then one canary per test file, into a fresh folder. What
 * the judge reads about the candidate's files is taken from what was laid out, before anything
 * runs.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { failureModes, type CodePacket } from '../packets/packet.ts';
import { makeCanary, withCanary, type Canary } from './canaries.ts';
import type { JudgeRules, ProtectedEdit } from './judge.ts';
import { readWorkspaceFile } from './safe-read.ts';
import type { Snapshot, UnsafeEntry } from './snapshot.ts';
import { runnerFor, runnerNamed, runnerNamesInWords } from './runners/index.ts';
import type { PacketTestSource } from './runners/runner.ts';
import type { ExpectedTest } from './test-ids.ts';

/** What a submission lays over the starter: files (bytes or text, or refused entries) and deletions. */
export interface Submission {
  files: ReadonlyMap<string, string | Uint8Array | UnsafeEntry>;
  deleted: readonly string[];
}

/** An empty submission: the starter as it is. */
export const EMPTY_SUBMISSION: Submission = { files: new Map(), deleted: [] };

/** A packet's files and rules, read once and shared by every run of it. */
export interface PacketFiles {
  packet: CodePacket;
  packetDir: string;
  /** Every starter file's bytes. */
  starter: ReadonlyMap<string, Buffer>;
  /** Every hidden file's bytes. */
  hidden: ReadonlyMap<string, Buffer>;
  /** The starter's candidate-visible files as text (protected ones excluded). */
  candidateStarter: ReadonlyMap<string, string>;
  /** A path the submission may not write: protected by the prompt, or a hidden file's path. */
  isGuarded(file: string): boolean;
  /** The runner the test command uses (its name in ./runners/), or null when the kit cannot read its tests. */
  style: string | null;
  /** The expected tests: visible ones, and visible plus hidden. */
  expected: { visible: ExpectedTest[]; all: ExpectedTest[] };
  /** Test files the runner loads: visible ones, and visible plus hidden. */
  testFiles: { visible: string[]; all: string[] };
  /** Why the expected tests could not be read, if so. */
  expectedProblem?: string;
  /** Names defined in each test file (so canaries never shadow one). */
  names: ReadonlyMap<string, ReadonlySet<string>>;
  /** Test files that hold a TestCase class (their canary is a TestCase too). */
  hasTestCase: ReadonlySet<string>;
  /** The rules every workspace of this packet is judged by. */
  rules: JudgeRules;
}

async function readTree(packetDir: string, tree: string, files: readonly string[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const f of files) out.set(f, await readFile(path.join(packetDir, tree, f)));
  return out;
}

/** Read a packet's starter and hidden tests, and work out its expected tests and rules. */
export async function loadPacketFiles(packet: CodePacket, packetDir: string): Promise<PacketFiles> {
  const starter = await readTree(packetDir, 'starter', packet.trees.starter);
  const hidden = await readTree(packetDir, 'hidden', packet.trees.hidden);
  const globs = packet.prompt.data.protected;
  const protectedGlob = globs.length ? picomatch(globs, { dot: true }) : () => false;
  const hiddenPaths = new Set(packet.trees.hidden);
  const isGuarded = (file: string) => protectedGlob(file) || hiddenPaths.has(file);
  const candidateStarter = new Map<string, string>();
  for (const [f, bytes] of starter) if (!isGuarded(f)) candidateStarter.set(f, bytes.toString('utf8'));

  const runner = runnerFor(packet.prompt.data.test);
  const style = runner?.name ?? null;
  let names = new Map<string, Set<string>>();
  let hasTestCase = new Set<string>();
  let expected = { visible: [] as ExpectedTest[], all: [] as ExpectedTest[] };
  let testFiles = { visible: [] as string[], all: [] as string[] };
  let expectedProblem: string | undefined;
  if (!runner) {
    expectedProblem = `the test command "${packet.prompt.data.test}" runs ${runnerNamesInWords()}, whose tests the kit can read`;
  } else {
    const ext = runner.sourceExtension;
    const sources: PacketTestSource[] = [
      ...[...starter].filter(([f]) => f.endsWith(ext) && isGuarded(f)).map(([file, b]) => ({ file, source: b.toString('utf8'), hidden: false })),
      ...[...hidden].filter(([f]) => f.endsWith(ext)).map(([file, b]) => ({ file, source: b.toString('utf8'), hidden: true })),
    ];
    const collected = runner.collect(sources);
    ({ expected, names, hasTestCase } = collected);
    const withTests = (list: ExpectedTest[]) => [...new Set(list.map((t) => t.file))].sort();
    testFiles = { visible: withTests(expected.visible), all: withTests(expected.all) };
    if (expected.all.length === 0) expectedProblem = `no test was found in the protected test files (${collected.testFiles.join(', ') || 'none match the runner\'s file pattern'})`;
  }
  const prompt = packet.prompt.data;
  return {
    packet,
    packetDir,
    starter,
    hidden,
    candidateStarter,
    isGuarded,
    style,
    expected,
    testFiles,
    ...(expectedProblem ? { expectedProblem } : {}),
    names,
    hasTestCase,
    rules: {
      contract: { allow: prompt.workspace.allow, forbid: prompt.workspace.forbid },
      deliverables: prompt.deliverables,
      modes: failureModes(packet),
      ...(prompt.receipts ? { receipts: { dir: prompt.receipts.dir, budget: prompt.budget, allow: prompt.workspace.allow } } : {}),
    },
  };
}

/** Why these paths cannot all exist at once (one is a file where another needs a folder), or null. */
export function layoutConflict(paths: Iterable<string>): string | null {
  const all = new Set(paths);
  for (const p of all) {
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (all.has(dir)) return `"${dir}" is both a file and a folder of "${p}"`;
    }
  }
  return null;
}

function isUnsafe(content: string | Uint8Array | UnsafeEntry): content is UnsafeEntry {
  return typeof content === 'object' && !(content instanceof Uint8Array);
}

function toBuffer(content: string | Uint8Array): Buffer {
  return typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * What to bind read-only so no guarded file can be changed, removed or swapped during a run: a
 * guarded file at the workspace root is bound itself (a mount point cannot be renamed or
 * removed); a nested one is covered by binding its top-level folder whole. Binding only the file
 * would not do: its parent folder could be renamed away, a forged copy put in its place for the
 * tests, and the original put back before the run ends. The candidate's own files in such a
 * folder are read-only during the run too (they were laid out before it).
 */
export function readOnlyCover(guarded: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const f of guarded) out.add(f.includes('/') ? f.slice(0, f.indexOf('/')) : f);
  return [...out].sort();
}

/** A workspace laid out for one judged run. */
export interface PreparedWorkspace {
  /** Absolute path. */
  dir: string;
  /** The candidate's files before the run. */
  before: Snapshot;
  protectedEdits: ProtectedEdit[];
  /** Protected files as laid out (with canaries), by path: their sha256. */
  mounted: ReadonlyMap<string, string>;
  /** Paths to bind read-only over the workspace during the run. */
  readOnly: string[];
  expected: readonly ExpectedTest[];
  testFiles: readonly string[];
  canaries: Canary[];
  /** Test modules handed to the harness (see `WorkspacePlan.testSources`). */
  testSources: ReadonlyMap<string, string>;
  dispose(): Promise<void>;
}

/** What laying out a workspace needs. */
export interface LayoutOptions {
  /** Lay the hidden tests too (every judged run but the floor and feedback turns). */
  withHidden: boolean;
  /** Plant canaries (every judged run; feedback turns show a model the tests' output without them). */
  canaries: boolean;
  /** Parent folder for the workspace. */
  parentDir: string;
  /** [0, 1), for canary names and values. */
  random: () => number;
  /** The run is the kit's harness: unittest test modules are handed to it, not laid on the disk. */
  harness?: boolean;
}

/** A workspace as planned, before anything is written: what the judge reads and what goes where. */
export interface WorkspacePlan {
  /** The candidate's files before the run. */
  before: Snapshot;
  protectedEdits: ProtectedEdit[];
  /** The candidate's files to write (refused entries are not written). */
  writable: Map<string, Buffer>;
  /**
   * What goes on the disk from the packet: the protected files, and the held-out files that are
   * not test modules (for pytest, the test modules too, canaries appended).
   */
  guarded: Map<string, Buffer>;
  /**
   * unittest: every test module the harness loads, from the packet, canaries appended; none of it
   * is on the disk, so code under test cannot read the held-out tests or the canaries.
   */
  testSources: Map<string, string>;
  expected: readonly ExpectedTest[];
  testFiles: readonly string[];
  canaries: Canary[];
}

/** Plan a workspace: pure, nothing written. Says why the submission cannot be laid out, when it cannot. */
export function planWorkspace(pf: PacketFiles, submission: Submission, o: Omit<LayoutOptions, 'parentDir'>): WorkspacePlan | { rejected: string } {
  const protectedEdits: ProtectedEdit[] = [];
  const packetCopy = (f: string) => pf.starter.get(f) ?? pf.hidden.get(f);
  for (const [f, content] of submission.files) {
    if (!pf.isGuarded(f)) continue;
    const ours = packetCopy(f);
    if (!ours) protectedEdits.push({ file: f, change: 'added' });
    else if (isUnsafe(content) || !toBuffer(content).equals(ours)) protectedEdits.push({ file: f, change: 'changed' });
  }
  for (const f of submission.deleted) if (pf.isGuarded(f) && packetCopy(f)) protectedEdits.push({ file: f, change: 'deleted' });
  protectedEdits.sort((a, b) => a.file.localeCompare(b.file));

  // The candidate's layer: the starter's visible files, then the submission's, less deletions.
  const deleted = new Set(submission.deleted.filter((f) => !pf.isGuarded(f)));
  const candidate = new Map<string, Buffer | UnsafeEntry>();
  for (const [f, bytes] of pf.starter) if (!pf.isGuarded(f) && !deleted.has(f)) candidate.set(f, bytes);
  for (const [f, content] of submission.files) {
    if (pf.isGuarded(f)) continue;
    candidate.set(f, isUnsafe(content) ? content : toBuffer(content));
  }
  const before = new Map<string, string | UnsafeEntry>();
  for (const [f, c] of [...candidate].sort(([a], [b]) => a.localeCompare(b))) before.set(f, Buffer.isBuffer(c) ? c.toString('utf8') : c);

  const guarded = new Map<string, Buffer>();
  for (const [f, b] of pf.starter) if (pf.isGuarded(f)) guarded.set(f, b);
  if (o.withHidden) for (const [f, b] of pf.hidden) guarded.set(f, b);
  // With the harness and a runner whose tests come from memory (unittest), held-out ones stay off the disk.
  const runner = pf.style ? runnerNamed(pf.style) : null;
  const inMemory = o.harness === true && runner?.testsFromMemory === true;
  const writable = new Map<string, Buffer>();
  for (const [f, c] of candidate) if (Buffer.isBuffer(c)) writable.set(f, c);
  const conflict = layoutConflict([...writable.keys(), ...guarded.keys()]);
  if (conflict) return { rejected: conflict };

  const expected = o.withHidden ? pf.expected.all : pf.expected.visible;
  const testFiles = o.withHidden ? pf.testFiles.all : pf.testFiles.visible;
  const canaries: Canary[] = [];
  const testSources = new Map<string, string>();
  const withTestsSet = new Set(testFiles);
  const modules = runner ? [...guarded.keys()].filter((f) => runner.isTestFile(f)).sort() : [];
  for (const f of modules) {
    let text = guarded.get(f)!.toString('utf8');
    if (o.canaries && runner && withTestsSet.has(f)) {
      const c = runner.canary(f, pf.hasTestCase.has(f), o.random, pf.names.get(f));
      canaries.push(c);
      text = withCanary(text, c);
    }
    if (inMemory) {
      testSources.set(f, text);
      if (pf.hidden.has(f) && !pf.starter.has(f)) guarded.delete(f);
    } else if (text !== guarded.get(f)!.toString('utf8')) guarded.set(f, Buffer.from(text, 'utf8'));
  }
  return { before, protectedEdits, writable, guarded, testSources, expected, testFiles, canaries };
}

/** Lay out a workspace, or say why the submission cannot be laid out. */
export async function prepareWorkspace(pf: PacketFiles, submission: Submission, o: LayoutOptions): Promise<PreparedWorkspace | { rejected: string }> {
  const plan = planWorkspace(pf, submission, o);
  if ('rejected' in plan) return plan;
  const dir = await mkdtemp(path.join(o.parentDir, `${pf.packet.id}-`));
  const place = async (rel: string, bytes: Buffer) => {
    const dest = path.join(dir, rel);
    if (!dest.startsWith(dir + path.sep)) throw new Error(`refusing to write outside the workspace: ${rel}`);
    await mkdir(path.dirname(dest), { recursive: true });
    await writeFile(dest, bytes);
  };
  try {
    for (const [f, b] of plan.writable) await place(f, b);
    for (const [f, b] of plan.guarded) await place(f, b);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    return { rejected: `the files could not be laid out: ${(err as Error).message}` };
  }
  const mounted = new Map([...plan.guarded].map(([f, b]) => [f, sha256(b)] as [string, string]));
  return {
    dir,
    before: plan.before,
    protectedEdits: plan.protectedEdits,
    mounted,
    readOnly: readOnlyCover(plan.guarded.keys()),
    expected: plan.expected,
    testFiles: plan.testFiles,
    canaries: plan.canaries,
    testSources: plan.testSources,
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Re-read the protected files after a run: each must still be the regular file that was laid out. */
export async function protectedAfterRun(ws: Pick<PreparedWorkspace, 'dir' | 'mounted'>): Promise<{ file: string; problem: string }[]> {
  const problems: { file: string; problem: string }[] = [];
  for (const [f, hash] of ws.mounted) {
    const now = await readWorkspaceFile(ws.dir, f, { maxBytes: 16 * 1024 * 1024, timeoutMs: 5_000 });
    if (!Buffer.isBuffer(now)) problems.push({ file: f, problem: now.unsafe === 'missing' ? 'is gone' : `is now ${now.unsafe}` });
    else if (sha256(now) !== hash) problems.push({ file: f, problem: 'has other content than was laid out' });
  }
  return problems;
}
