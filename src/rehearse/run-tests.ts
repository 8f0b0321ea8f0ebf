import { diagnose, Errors } from '../errors/catalog.ts';
import { capFix, capsToRunSpec, type SandboxCaps } from '../sandbox/caps.ts';
import type { RunResult, Sandbox, SandboxMounts } from '../sandbox/types.ts';
import type { TestCounts } from './report.ts';
import { parseTestSummary, type TestSummary } from './test-summary.ts';

/** One run of a packet's test command. */
export interface TestRun {
  result: RunResult;
  summary: TestSummary;
  /** stdout then stderr. */
  output: string;
}

/** How to run a packet's tests. */
export interface TestRunner {
  sandbox: Sandbox;
  /** Interpreter mounts (PATH shim and read-only library paths). */
  mounts: SandboxMounts;
  /** Wall-clock limit per run. */
  timeoutMs: number;
  /** The packet's sandbox caps (prompt.mdx `sandbox:`); the kit's defaults where missing. */
  caps?: SandboxCaps;
}

/** Run the test command in a workspace, in the sandbox. Never throws. */
export async function runTests(runner: TestRunner, workdir: string, command: string): Promise<TestRun> {
  const result = await runner.sandbox.run({
    workdir,
    command,
    timeoutMs: runner.timeoutMs,
    pathPrepend: runner.mounts.pathPrepend,
    readOnlyPaths: runner.mounts.readOnlyPaths,
    env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1', PYTHONUNBUFFERED: '1' },
    ...capsToRunSpec(runner.caps),
  });
  const output = `${result.stdout}${result.stdout && result.stderr ? '\n' : ''}${result.stderr}`;
  return { result, summary: parseTestSummary(output), output };
}

/**
 * Green means the expected tests ran and passed: exit 0, a summary that counts at least
 * `expectedRan` tests, no failures, no errors, no crash. A forged "OK" line with a failing exit
 * is red; a run that executed fewer tests than expected is red whatever it printed.
 */
export function isGreen(run: TestRun, expectedRan: number): boolean {
  const { result, summary } = run;
  return (
    !result.error &&
    !result.timedOut &&
    !result.outputFlooded &&
    result.exitCode === 0 &&
    summary.ran !== null &&
    summary.ran > 0 &&
    summary.ran >= expectedRan &&
    summary.failed === 0 &&
    summary.errors === 0 &&
    !summary.crash
  );
}

/** The counts kept in the report. */
export function countsOf(run: TestRun): TestCounts {
  return {
    ran: run.summary.ran,
    failed: run.summary.failed,
    errors: run.summary.errors,
    failing: run.summary.failing,
    exitCode: run.result.exitCode,
    timedOut: run.result.timedOut,
  };
}

/** The last `lines` lines of the output. */
export function tail(text: string, lines = 15): string {
  const all = text.trimEnd().split('\n');
  return all.slice(-lines).join('\n');
}

/** A run in words: "3 ran, 2 failed (exit 1)". */
export function describeRun(run: TestRun): string {
  const { result, summary } = run;
  if (result.error) return `the sandbox could not run it: ${result.error}${result.capHit ? `. ${capFix(result.capHit)}` : ''}`;
  if (result.timedOut) return `killed at the time limit after ${Math.round(result.durationMs)} ms`;
  if (result.outputFlooded) return 'killed for flooding its output';
  const counts =
    summary.ran === null
      ? 'no test summary'
      : `${summary.ran} ran, ${summary.failed} failed${summary.errors ? `, ${summary.errors} errors` : ''}`;
  const cap = result.capHit ? `; ${capSentence(result)}` : '';
  return `${counts} (exit ${result.exitCode ?? result.signal})${summary.crash ? `; ${summary.crash}` : ''}${cap}`;
}

/** A cap the run hit, as the catalog words it (PK402): what, and how to raise it if the packet may. */
function capSentence(result: RunResult): string {
  const d = diagnose(Errors.SandboxCapHit, { file: 'sandbox' }, { detail: result.capDetail ?? String(result.capHit), fix: capFix(result.capHit!) });
  return `${d.code} ${d.message} ${d.hint}`;
}
