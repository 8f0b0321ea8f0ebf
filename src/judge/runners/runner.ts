/**
 * A test runner the judge knows, behind one interface: how a packet's test command names it,
 * which files it loads as tests, which tests it must run (read from the files, never from the
 * run), the canary it cannot pass, how its output reads, and the trusted harness that runs it.
 * Python's unittest and pytest are the adapters today (python-unittest.ts, python-pytest.ts);
 * a runner of another language is one more adapter file and its entry in the registry
 * (index.ts).
 */
import type { Canary } from '../canaries.ts';
import type { ExpectedTest } from '../test-ids.ts';
import type { TestSummary } from '../test-summary.ts';

/** A test module the harness loads from the kit's copy (held-out tests and canaries never touch the disk). */
export interface HarnessTestSource {
  /** Path relative to the workspace. */
  file: string;
  /** The text to run: the packet's file, with its canary appended. */
  source: string;
}

/** What the harness is told for one run. */
export interface HarnessPlan {
  /** The runner's name (the registry's key). */
  style: string;
  /** The packet's test command (its `-t`/`-s` for unittest, its arguments for pytest). */
  command: string;
  /** The test modules, in load order, for a runner whose tests come from memory; otherwise empty. */
  tests: readonly HarnessTestSource[];
  /** The packet's protected files and held-out tests: code there is the packet's own. */
  trusted: readonly string[];
  /** The candidate's changed source files, for the screen. */
  screen: readonly string[];
  /** Primitives the packet allows its candidates (`workspace.allowPrimitives`). */
  allow: readonly string[];
}

/** A protected or held-out file of the packet, in the runner's language, as the collection reads it. */
export interface PacketTestSource {
  /** Path relative to the workspace. */
  file: string;
  source: string;
  /** From `hidden/`. */
  hidden: boolean;
}

/** The tests a packet's own files hold, as a runner collects them. */
export interface CollectedTests {
  /** The expected tests: visible ones, and visible plus hidden, each sorted by id. */
  expected: { visible: ExpectedTest[]; all: ExpectedTest[] };
  /** The files the runner loads as test modules (visible and hidden), in the order given. */
  testFiles: string[];
  /** Names defined in each test file (so canaries never shadow one). */
  names: Map<string, Set<string>>;
  /** Test files that hold a test class (their canary is a class too). */
  hasTestCase: Set<string>;
}

/** The trusted harness a runner runs under, in the sandbox. */
export interface HarnessProgram {
  /** The shell command the sandbox runs. */
  command: string;
  /** Environment the harness process gets (the sandbox's own is cleared). */
  env: Readonly<Record<string, string>>;
  /** What goes down the harness's private pipes before the manifest and the key, for a sandbox whose PATH starts with `pathPrepend`. */
  inputs(pathPrepend: readonly string[]): Buffer[];
}

/** One test runner. */
export interface RunnerAdapter {
  /** The registry's key; the harness manifest's `style`; the name error messages use. */
  readonly name: string;
  /** The language its tests are written in. */
  readonly language: string;
  /** The extension of the language's source files (`.py`): the ones collected from and screened. */
  readonly sourceExtension: string;
  /** Whether a packet's test command runs this runner. */
  matches(command: string): boolean;
  /** True for a file the runner would load as a test module. */
  isTestFile(file: string): boolean;
  /** The tests the packet's protected and held-out files hold. Pure. */
  collect(files: readonly PacketTestSource[]): CollectedTests;
  /** A canary for one test file: a test of the kit's own that must fail. */
  canary(file: string, fileHasTestCase: boolean, random: () => number, taken?: ReadonlySet<string>): Canary;
  /** Whether the harness gets the test modules from memory (held-out ones then stay off the disk) rather than reading them from the workspace. */
  readonly testsFromMemory: boolean;
  /** The runner's part of the manifest the harness reads. */
  manifest(plan: HarnessPlan): Record<string, unknown>;
  /** The harness that runs it. */
  readonly harness: HarnessProgram;
  /** The summary the runner prints, read from its output; undefined when the output holds none of this runner's. */
  parseSummary(output: string): TestSummary | undefined;
}
