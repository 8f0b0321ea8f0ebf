/**
 * The test runners the judge knows, by name. A packet's test command picks its runner (the
 * first adapter that claims the command); a run's output is read by the first adapter that
 * finds its own summary in it. A runner of another language is one more adapter here.
 */
import { noSummary, type TestSummary } from '../test-summary.ts';
import { pytestRunner } from './python-pytest.ts';
import { unittestRunner } from './python-unittest.ts';
import type { RunnerAdapter } from './runner.ts';

/** Every runner, in the order their summaries are looked for. */
export const RUNNERS: readonly RunnerAdapter[] = [unittestRunner, pytestRunner];

/** The runner a test command uses, or null when the kit knows none of it. */
export function runnerFor(command: string): RunnerAdapter | null {
  return RUNNERS.find((r) => r.matches(command)) ?? null;
}

/** The runner of a name (a harness manifest's `style`); throws on a name no adapter has. */
export function runnerNamed(name: string): RunnerAdapter {
  const runner = RUNNERS.find((r) => r.name === name);
  if (!runner) throw new Error(`no test runner is named "${name}" (known: ${RUNNERS.map((r) => r.name).join(', ')})`);
  return runner;
}

/** The name of the runner a test command uses, or null. */
export function runnerStyle(command: string): string | null {
  return runnerFor(command)?.name ?? null;
}

/** The known runners in words, for messages: "unittest nor pytest" after "neither". */
export function runnerNamesInWords(): string {
  const names = RUNNERS.map((r) => r.name);
  return names.length === 2 ? `neither ${names[0]} nor ${names[1]}` : `none of ${names.join(', ')}`;
}

/** Parse a runner's combined output. */
export function parseTestSummary(output: string): TestSummary {
  for (const runner of RUNNERS) {
    const summary = runner.parseSummary(output);
    if (summary) return summary;
  }
  return noSummary();
}
