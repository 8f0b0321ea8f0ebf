/**
 * pytest (`pytest ...`, `python3 -m pytest ...`): `test_*.py` and `*_test.py` modules, their
 * TestCase and `Test*` classes and `test*` functions. pytest runs inside the harness, reading
 * the test files from the workspace, with the packet's own arguments.
 */
import { isTestFile } from '../test-ids.ts';
import { parsePytest } from '../test-summary.ts';
import { collectPython, PYTHON_HARNESS, pythonCanary } from './python.ts';
import type { HarnessPlan, RunnerAdapter } from './runner.ts';

/** The arguments a pytest command passes after `pytest`. */
export function pytestArgs(command: string): string[] {
  const words = command.trim().split(/\s+/);
  const at = words.findIndex((w) => /(^|\/)pytest$/.test(w));
  return at >= 0 ? words.slice(at + 1) : [];
}

/** pytest, as the judge runs it. */
export const pytestRunner: RunnerAdapter = {
  name: 'pytest',
  language: 'python',
  sourceExtension: '.py',
  matches: (command) => /\bpytest\b/.test(command),
  isTestFile: (file) => isTestFile(file, 'pytest'),
  collect: (files) => collectPython('pytest', files),
  canary: pythonCanary('pytest'),
  testsFromMemory: false,
  manifest: (plan: HarnessPlan) => ({ top: '.', tests: [], pytestArgs: pytestArgs(plan.command) }),
  harness: PYTHON_HARNESS,
  parseSummary: parsePytest,
};
