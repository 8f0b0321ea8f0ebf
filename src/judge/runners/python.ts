/**
 * What Python's two runners share: the test files are read by the line scanner of
 * ../test-ids.ts, the canary is Python (../canaries.ts), and the run is the kit's Python
 * harness (../harness/bootstrap.ts). The runners differ in which files and classes they
 * collect and in the summary they print.
 */
import { makeCanary, type Canary } from '../canaries.ts';
import { HARNESS_COMMAND, pythonHarnessInputs } from '../harness/bootstrap.ts';
import { expectedTests, isTestFile, scanPython, type ExpectedTest, type PythonModule, type RunnerStyle } from '../test-ids.ts';
import type { CollectedTests, HarnessProgram, PacketTestSource } from './runner.ts';

/** The kit's Python harness, for either runner. */
export const PYTHON_HARNESS: HarnessProgram = {
  command: HARNESS_COMMAND,
  env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1', PYTHONUNBUFFERED: '1' },
  inputs: pythonHarnessInputs,
};

/** The tests a packet's Python files hold under one runner's collection rules. */
export function collectPython(style: RunnerStyle, files: readonly PacketTestSource[]): CollectedTests {
  // A file both protected in the starter and held out is scanned as the held-out copy (the later one).
  const modules = new Map<string, PythonModule>(files.map((f) => [f.file, scanPython(f.file, f.source)]));
  const tests = files.filter((f) => isTestFile(f.file, style));
  const visibleTests = tests.filter((f) => !f.hidden).map((f) => modules.get(f.file)!);
  const allTests = tests.map((f) => modules.get(f.file)!);
  const helpers = [...modules.values()].filter((m) => !isTestFile(m.file, style));
  const hidden = new Set(files.filter((f) => f.hidden).map((f) => f.file));
  const expected = { visible: expectedTests(visibleTests, helpers, style, hidden), all: expectedTests(allTests, helpers, style, hidden) };
  const names = new Map<string, Set<string>>();
  const hasTestCase = new Set<string>();
  for (const m of allTests) {
    names.set(m.file, new Set([...m.classes.map((c) => c.name), ...m.functions, ...m.imports.keys()]));
    if (expected.all.some((t: ExpectedTest) => t.file === m.file && t.id.split('::').length === 3)) hasTestCase.add(m.file);
  }
  return { expected, testFiles: tests.map((f) => f.file), names, hasTestCase };
}

/** A Python canary under one runner's rules. */
export function pythonCanary(style: RunnerStyle): (file: string, fileHasTestCase: boolean, random: () => number, taken?: ReadonlySet<string>) => Canary {
  return (file, fileHasTestCase, random, taken) => makeCanary(file, style, fileHasTestCase, random, taken);
}
