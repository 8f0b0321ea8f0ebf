/**
 * Read what a test runner says about a run: how many tests ran, which failed, and whether the
 * run crashed before it could test anything (a syntax or import error). Only the runner's own
 * summary lines are read; exit codes are judged separately, so a forged "OK" cannot turn a
 * failing exit green. A test counts once however many of its subtests failed: it failed if any
 * did (both runners count each failing subtest apart, and pytest counts the test itself passed).
 */

/** What the runner's output says. */
export interface TestSummary {
  /** The runner recognised in the output. */
  runner: 'unittest' | 'pytest' | 'unknown';
  /** Tests that ran (passed + failed + errors), or null when no summary was found. */
  ran: number | null;
  /** Tests that failed an assertion (a test with failing subtests once). */
  failed: number;
  /** Tests that raised an unexpected error (a test whose subtests only raised, once). */
  errors: number;
  /** Skipped tests. */
  skipped: number;
  /** Tests marked as expected to fail that failed (unittest `expected failures`, pytest `xfailed`). */
  expectedFailures: number;
  /** Tests marked as expected to fail that passed (unittest `unexpected successes`, pytest `xpassed`). */
  unexpectedSuccesses: number;
  /** Ids of the failing or erroring tests, sorted (`tests.test_x.TestY.test_z`). */
  failing: string[];
  /**
   * Why the run is a crash rather than test failures: a module that failed to import, a syntax
   * error, a collection error. Undefined when the tests ran.
   */
  crash?: string;
  /**
   * How many summary lines the output holds. An honest run prints one; more means something
   * besides the runner printed one (the last is the one read, and the judge calls it tampering).
   */
  summaries: number;
}

const UNITTEST_RAN = /^Ran (\d+) tests? in [\d.]+s$/gm;
const UNITTEST_RESULT = /^(OK|FAILED)(?: \(([^)]*)\))?$/m;
/** `FAIL: test_x (mod.Class.test_x)`, and for a subtest the same followed by ` [msg]` and/or ` (i=3)`. */
const UNITTEST_FAILURE = /^(FAIL|ERROR): (\S+) \(([^)\n]+)\)(.*)$/gm;
/** The totals line, decorated with `=` (default) or bare (`-q`). */
const PYTEST_TOTALS = /^(?:=+ )?((?:\d+ (?:passed|failed|errors?|skipped|deselected|xfailed|xpassed|warnings?|subtests? (?:passed|failed))(?:, )?)+|no tests ran) in [\d.]+s(?: \([^)]*\))?(?: =+)?$/gm;
/** A failing test in the short summary; `SUBFAILED(i=0)` and `SUBFAILED[msg] (i=0)` lines name the test a failing subtest belongs to. */
const PYTEST_FAILURE = /^(SUB)?(FAILED|ERROR)(?:\[[^\n]*?\])? ?(?:\([^\n]*?\))? (\S+?)(?: - .*)?$/gm;

function count(text: string, word: string): number {
  const m = new RegExp(`(\\d+) ${word}\\b`).exec(text);
  return m ? Number(m[1]) : 0;
}

/** unittest's summary in a run's output, if it holds one. */
export function parseUnittest(output: string): TestSummary | undefined {
  const all = [...output.matchAll(UNITTEST_RAN)];
  const ran = all.at(-1);
  if (!ran) return undefined;
  const result = UNITTEST_RESULT.exec(output.slice(ran.index));
  // Stryker disable next-line StringLiteral: equivalent; the count patterns below find nothing in either text.
  const detail = result?.[2] ?? '';
  const failing = new Set<string>();
  const importErrors: string[] = [];
  /** Per test with a failing subtest: the FAIL and ERROR lines the runner counted for it. */
  const subtested = new Map<string, { fail: number; error: number }>();
  const lines: { id: string; kind: string }[] = [];
  for (const m of output.matchAll(UNITTEST_FAILURE)) {
    const where = m[3]!;
    // Python 3.11 prints "(module.Class.test)"; older ones "(module.Class)".
    const id = where.endsWith(`.${m[2]}`) ? where : `${where}.${m[2]}`;
    if (where.startsWith('unittest.loader._FailedTest') || where.startsWith('unittest.loader.ModuleImportFailure')) {
      importErrors.push(m[2]!);
    }
    failing.add(id);
    lines.push({ id, kind: m[1]! });
    if (/^ [[(]/.test(m[4]!)) subtested.set(id, { fail: 0, error: 0 });
  }
  for (const { id, kind } of lines) {
    const t = subtested.get(id);
    if (t) t[kind === 'FAIL' ? 'fail' : 'error'] += 1;
  }
  // unittest counts each failing subtest as a failure or an error of its own; count its test once,
  // as failed when any subtest failed an assertion, else as an error.
  let failed = Number(/(?<!expected )failures=(\d+)/.exec(detail)?.[1] ?? 0);
  let errors = Number(/errors=(\d+)/.exec(detail)?.[1] ?? 0);
  for (const t of subtested.values()) {
    failed -= t.fail - (t.fail > 0 ? 1 : 0);
    errors -= t.error - (t.fail === 0 && t.error > 0 ? 1 : 0);
  }
  const summary: TestSummary = {
    runner: 'unittest',
    ran: Number(ran[1]),
    failed: Math.max(0, failed),
    errors: Math.max(0, errors),
    skipped: Number(/skipped=(\d+)/.exec(detail)?.[1] ?? 0),
    expectedFailures: Number(/expected failures=(\d+)/.exec(detail)?.[1] ?? 0),
    unexpectedSuccesses: Number(/unexpected successes=(\d+)/.exec(detail)?.[1] ?? 0),
    failing: [...failing].sort(),
    summaries: all.length,
  };
  if (importErrors.length) summary.crash = `the test module ${importErrors.join(', ')} failed to import (a syntax or import error, not a test failure)`;
  else if (!result) summary.crash = 'the runner printed no result line; the test process probably died';
  return summary;
}

/** pytest's summary in a run's output, if it holds one. */
export function parsePytest(output: string): TestSummary | undefined {
  const all = [...output.matchAll(PYTEST_TOTALS)];
  const totals = all.at(-1);
  if (!totals) return undefined;
  const line = totals[1]!;
  if (line === 'no tests ran') return { runner: 'pytest', ran: 0, failed: 0, errors: 0, skipped: 0, expectedFailures: 0, unexpectedSuccesses: 0, failing: [], summaries: all.length, ...(/^_+ ERROR collecting |^ERROR collecting |^ERROR \S+$/m.test(output) ? { crash: 'pytest could not collect a test module (a syntax or import error)' } : {}) };
  const errors = count(line, 'errors?') || count(line, 'error');
  const failing = new Set<string>();
  const whole = new Set<string>();
  const subLines = new Map<string, number>();
  for (const m of output.matchAll(PYTEST_FAILURE)) {
    failing.add(m[3]!);
    if (m[1]) subLines.set(m[3]!, (subLines.get(m[3]!) ?? 0) + 1);
    else whole.add(m[3]!);
  }
  // pytest counts each failing subtest in "failed" and the test itself "passed" when its own body
  // did not raise: take the subtests out of "failed", and move such a test from passed to failed.
  const onlySubtests = [...subLines.keys()].filter((id) => !whole.has(id)).length;
  const subFailures = /\d+ subtests? failed/.test(line) ? 0 : [...subLines.values()].reduce((n, k) => n + k, 0);
  const failed = Math.max(0, count(line, 'failed') - subFailures) + onlySubtests;
  const passed = Math.max(0, count(line, 'passed') - onlySubtests);
  const summary: TestSummary = {
    runner: 'pytest',
    ran: passed + failed + errors,
    failed,
    errors,
    skipped: count(line, 'skipped'),
    expectedFailures: count(line, 'xfailed'),
    unexpectedSuccesses: count(line, 'xpassed'),
    failing: [...failing].sort(),
    summaries: all.length,
  };
  if (/^_+ ERROR collecting /m.test(output) || /^ERROR collecting /m.test(output) || /Interrupted: \d+ errors? during collection/.test(output)) summary.crash = 'pytest could not collect a test module (a syntax or import error)';
  return summary;
}

/** The summary of output that holds none: a crash, since no test can be shown to have run. */
export function noSummary(): TestSummary {
  return { runner: 'unknown', ran: null, failed: 0, errors: 0, skipped: 0, expectedFailures: 0, unexpectedSuccesses: 0, failing: [], summaries: 0, crash: 'no test summary was found in the output' };
}
