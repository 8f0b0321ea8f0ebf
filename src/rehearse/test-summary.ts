/**
 * Read what a test runner says about a run: how many tests ran, which failed, and whether the
 * run crashed before it could test anything (a syntax or import error). Only the runner's own
 * summary lines are read; exit codes are judged separately, so a forged "OK" cannot turn a
 * failing exit green.
 */

/** What the runner's output says. */
export interface TestSummary {
  /** The runner recognised in the output. */
  runner: 'unittest' | 'pytest' | 'unknown';
  /** Tests that ran (passed + failed + errors), or null when no summary was found. */
  ran: number | null;
  /** Tests that failed an assertion. */
  failed: number;
  /** Tests that raised an unexpected error. */
  errors: number;
  /** Skipped tests. */
  skipped: number;
  /** Ids of the failing or erroring tests, sorted (`tests.test_x.TestY.test_z`). */
  failing: string[];
  /**
   * Why the run is a crash rather than test failures: a module that failed to import, a syntax
   * error, a collection error. Undefined when the tests ran.
   */
  crash?: string;
}

const UNITTEST_RAN = /^Ran (\d+) tests? in [\d.]+s$/m;
const UNITTEST_RESULT = /^(OK|FAILED)(?: \(([^)]*)\))?$/m;
const UNITTEST_FAILURE = /^(FAIL|ERROR): (\S+) \(([^)]+)\)/gm;
const PYTEST_TOTALS = /^=+ (.*\b(?:passed|failed|error|errors|skipped|no tests ran)\b.*) in [\d.]+s(?: \([^)]*\))? =+$/m;
const PYTEST_FAILURE = /^(FAILED|ERROR) (\S+?)(?: - .*)?$/gm;

function count(text: string, word: string): number {
  const m = new RegExp(`(\\d+) ${word}\\b`).exec(text);
  return m ? Number(m[1]) : 0;
}

function parseUnittest(output: string): TestSummary | undefined {
  const ran = UNITTEST_RAN.exec(output);
  if (!ran) return undefined;
  const result = UNITTEST_RESULT.exec(output.slice(ran.index));
  const detail = result?.[2] ?? '';
  const failing = new Set<string>();
  const importErrors: string[] = [];
  for (const m of output.matchAll(UNITTEST_FAILURE)) {
    const where = m[3]!;
    // Python 3.11 prints "(module.Class.test)"; older ones "(module.Class)".
    const id = where.endsWith(`.${m[2]}`) ? where : `${where}.${m[2]}`;
    if (where.startsWith('unittest.loader._FailedTest') || where.startsWith('unittest.loader.ModuleImportFailure')) {
      importErrors.push(m[2]!);
    }
    failing.add(id);
  }
  const summary: TestSummary = {
    runner: 'unittest',
    ran: Number(ran[1]),
    failed: Number(/failures=(\d+)/.exec(detail)?.[1] ?? 0),
    errors: Number(/errors=(\d+)/.exec(detail)?.[1] ?? 0),
    skipped: Number(/skipped=(\d+)/.exec(detail)?.[1] ?? 0),
    failing: [...failing].sort(),
  };
  if (importErrors.length) summary.crash = `the test module ${importErrors.join(', ')} failed to import (a syntax or import error, not a test failure)`;
  else if (!result) summary.crash = 'the runner printed no result line; the test process probably died';
  return summary;
}

function parsePytest(output: string): TestSummary | undefined {
  const totals = PYTEST_TOTALS.exec(output);
  if (!totals) return undefined;
  const line = totals[1]!;
  const failed = count(line, 'failed');
  const errors = count(line, 'errors?') || count(line, 'error');
  const passed = count(line, 'passed');
  const failing = new Set<string>();
  for (const m of output.matchAll(PYTEST_FAILURE)) failing.add(m[2]!);
  const summary: TestSummary = {
    runner: 'pytest',
    ran: passed + failed + errors,
    failed,
    errors,
    skipped: count(line, 'skipped'),
    failing: [...failing].sort(),
  };
  if (/^_+ ERROR collecting /m.test(output) || /^ERROR collecting /m.test(output)) summary.crash = 'pytest could not collect a test module (a syntax or import error)';
  return summary;
}

/** Parse a runner's combined output. */
export function parseTestSummary(output: string): TestSummary {
  return (
    parseUnittest(output) ??
    parsePytest(output) ?? { runner: 'unknown', ran: null, failed: 0, errors: 0, skipped: 0, failing: [], crash: 'no test summary was found in the output' }
  );
}
