/** Run a packet's test command in a workspace, in the sandbox, and keep what the sandbox saw. */
import { capsToRunSpec, type SandboxCaps } from '../sandbox/caps.ts';
import type { RunResult, Sandbox, SandboxMounts } from '../sandbox/types.ts';
import type { RunEvidence } from './judge.ts';
import { forTerminal } from '../errors/escape.ts';

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

/** Run the test command in `workdir` with `readOnly` paths bound read-only. Never throws: a sandbox failure is `error`. */
export async function runTests(runner: TestRunner, workdir: string, command: string, readOnly: readonly string[] = []): Promise<RunEvidence> {
  const result = await runner.sandbox.run({
    workdir,
    command,
    timeoutMs: runner.timeoutMs,
    pathPrepend: runner.mounts.pathPrepend,
    readOnlyPaths: runner.mounts.readOnlyPaths,
    readOnlyInWorkdir: readOnly,
    env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1', PYTHONUNBUFFERED: '1' },
    ...capsToRunSpec(runner.caps),
  });
  return runEvidence(result, runner.timeoutMs);
}

/** What the judge keeps of a sandbox run: how it ended, and stdout then stderr as one text. */
export function runEvidence(result: RunResult, timeoutMs: number): RunEvidence {
  const output = `${result.stdout}${result.stdout && result.stderr ? '\n' : ''}${result.stderr}`;
  return {
    ...(result.error ? { error: result.error } : {}),
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
    outputFlooded: result.outputFlooded,
    output,
    outputTruncated: result.stdoutTruncated || result.stderrTruncated,
    durationMs: result.durationMs,
    timeoutMs,
    ...(result.capHit ? { capHit: result.capHit, capDetail: result.capDetail ?? result.capHit } : {}),
    ...(result.capReported ? { capReported: true } : {}),
  };
}

/** The last `lines` lines of the output. */
export function tail(text: string, lines = 15): string {
  const all = text.trimEnd().split('\n');
  return all.slice(-lines).join('\n');
}

/** Longest line of an output tail a report keeps; the rest of the line is cut. */
export const TAIL_LINE_LIMIT = 500;

/**
 * The tail of a run's output as reports keep it: the code under test wrote it, so each line is cut
 * at `TAIL_LINE_LIMIT` characters and control and bidi characters other than tab are shown as
 * escapes (`\u001b`, `\r`, `\u202e`; see escape.ts), never passed on to a terminal, an XML file or a page.
 */
export function readableTail(text: string, lines = 15): string {
  return tail(text, lines)
    .split('\n')
    .map((line) => {
      const shown = forTerminal(line, { lines: true });
      return shown.length > TAIL_LINE_LIMIT ? `${shown.slice(0, TAIL_LINE_LIMIT)} [... ${shown.length - TAIL_LINE_LIMIT} more characters cut]` : shown;
    })
    .join('\n');
}
