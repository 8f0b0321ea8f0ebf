/**
 * Python's unittest (`python3 -m unittest ...`): TestCase classes in `test*.py` modules. The
 * harness loads the test modules itself, from the kit's copies, so held-out tests never touch
 * the workspace's disk.
 */
import { isTestFile, moduleName } from '../test-ids.ts';
import { parseUnittest } from '../test-summary.ts';
import { collectPython, PYTHON_HARNESS, pythonCanary } from './python.ts';
import type { HarnessPlan, RunnerAdapter } from './runner.ts';

/** The unittest top-level directory of a command: `-t DIR`, else `-s DIR`, else `.`. */
export function unittestTop(command: string): string {
  const words = command.split(/\s+/);
  const flag = (names: string[]) => {
    const at = words.findIndex((w) => names.includes(w));
    return at >= 0 ? words[at + 1] : undefined;
  };
  const top = flag(['-t', '--top-level-directory']) ?? flag(['-s', '--start-directory']) ?? '.';
  return top.replace(/^\.\/+/, '').replace(/\/+$/, '') || '.';
}

function relativeTo(top: string, file: string): string {
  return top === '.' ? file : file.startsWith(`${top}/`) ? file.slice(top.length + 1) : file;
}

/** unittest, as the judge runs it. */
export const unittestRunner: RunnerAdapter = {
  name: 'unittest',
  language: 'python',
  sourceExtension: '.py',
  // A command that names pytest runs pytest, whatever else it names.
  matches: (command) => !/\bpytest\b/.test(command) && /\bunittest\b/.test(command),
  isTestFile: (file) => isTestFile(file, 'unittest'),
  collect: (files) => collectPython('unittest', files),
  canary: pythonCanary('unittest'),
  testsFromMemory: true,
  manifest(plan: HarnessPlan) {
    const top = unittestTop(plan.command);
    return { top, tests: plan.tests.map((t) => ({ file: t.file, module: moduleName(relativeTo(top, t.file)), source: t.source })), pytestArgs: [] };
  },
  harness: PYTHON_HARNESS,
  parseSummary: parseUnittest,
};
