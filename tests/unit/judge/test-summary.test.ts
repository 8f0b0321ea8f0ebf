import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTestSummary } from '../../../src/judge/runners/index.ts';

describe('reading a runner summary', () => {
  it('reads a failing unittest run with its failing ids', () => {
    const out = [
      '.F.E',
      '======================================================================',
      'ERROR: test_b (tests.test_x.TestX.test_b)',
      '----------------------------------------------------------------------',
      'Traceback (most recent call last):',
      '======================================================================',
      'FAIL: test_a (tests.test_x.TestX.test_a)',
      '----------------------------------------------------------------------',
      'Ran 4 tests in 0.003s',
      '',
      'FAILED (failures=1, errors=1)',
    ].join('\n');
    expect(parseTestSummary(out)).toEqual({
      runner: 'unittest',
      ran: 4,
      failed: 1,
      errors: 1,
      skipped: 0,
      expectedFailures: 0,
      unexpectedSuccesses: 0,
      failing: ['tests.test_x.TestX.test_a', 'tests.test_x.TestX.test_b'],
      summaries: 1,
    });
  });

  it('reads a green unittest run with skips', () => {
    expect(parseTestSummary('Ran 3 tests in 0.1s\n\nOK (skipped=1)\n')).toMatchObject({ ran: 3, failed: 0, skipped: 1, failing: [] });
  });

  it('calls an import error a crash, not a failure', () => {
    const out = 'ERROR: test_dur (unittest.loader._FailedTest.test_dur)\n----\nImportError: Failed to import test module: test_dur\n\nRan 1 test in 0.000s\n\nFAILED (errors=1)\n';
    expect(parseTestSummary(out).crash).toMatch(/failed to import/);
  });

  it('calls a run without a result line a crash', () => {
    expect(parseTestSummary('Ran 2 tests in 0.1s\nSegmentation fault\n').crash).toMatch(/no result line/);
  });

  it('reads pytest totals and failing node ids', () => {
    const out = 'FAILED tests/test_x.py::test_a - assert 1 == 2\n========= 1 failed, 5 passed, 2 skipped in 0.12s =========\n';
    expect(parseTestSummary(out)).toEqual({ runner: 'pytest', ran: 6, failed: 1, errors: 0, skipped: 2, expectedFailures: 0, unexpectedSuccesses: 0, failing: ['tests/test_x.py::test_a'], summaries: 1 });
  });

  it('reads the bare totals line of pytest -q, and failing subtests', () => {
    const out = 'FAILED tests/test_ok.py::T::test_a - AssertionError: 1 != 2\nSUBFAILED(i=0) tests/test_ok.py::T::test_b - AssertionError: 0 != 5\n3 failed, 1 passed, 1 xfailed, 2 xpassed in 0.03s\n';
    // test_b's body passed ("1 passed") and one subtest of it failed (in "3 failed"): it is one failed test.
    expect(parseTestSummary(out)).toMatchObject({ runner: 'pytest', ran: 3, failed: 3, expectedFailures: 1, unexpectedSuccesses: 2, failing: ['tests/test_ok.py::T::test_a', 'tests/test_ok.py::T::test_b'] });
  });

  it('calls an interrupted pytest collection a crash', () => {
    const out = 'ERROR tests/test_bad.py\n!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!\n1 error in 0.83s\n';
    expect(parseTestSummary(out)).toMatchObject({ runner: 'pytest', errors: 1, crash: expect.stringMatching(/could not collect/) });
    expect(parseTestSummary('no tests ran in 0.01s\n')).toMatchObject({ runner: 'pytest', ran: 0 });
  });

  it('reads the last unittest summary and counts them, and keeps expected failures apart from failures', () => {
    const out = 'Ran 6 tests in 0.001s\n\nOK\n----\nRan 4 tests in 0.002s\n\nOK (expected failures=1, unexpected successes=2)\n';
    expect(parseTestSummary(out)).toMatchObject({ ran: 4, failed: 0, expectedFailures: 1, unexpectedSuccesses: 2, summaries: 2 });
  });

  it('calls a pytest collection error a crash', () => {
    const out = '____ ERROR collecting tests/test_x.py ____\nE   SyntaxError\n========= 1 error in 0.05s =========\n';
    expect(parseTestSummary(out)).toMatchObject({ runner: 'pytest', errors: 1, crash: expect.stringMatching(/could not collect/) });
  });

  it('finds nothing in silence', () => {
    expect(parseTestSummary('')).toMatchObject({ runner: 'unknown', ran: null, crash: expect.any(String) });
  });
});

describe('reading a runner summary: only the runner\'s own lines, and every count', () => {
  const unknownEmpty = { skipped: 0, expectedFailures: 0, unexpectedSuccesses: 0 };

  it('reads counts of two digits and more', () => {
    const out = 'Ran 120 tests in 12.503s\n\nFAILED (failures=12, errors=10, skipped=11, expected failures=13, unexpected successes=14)\n';
    expect(parseTestSummary(out)).toMatchObject({ runner: 'unittest', ran: 120, failed: 12, errors: 10, skipped: 11, expectedFailures: 13, unexpectedSuccesses: 14 });
  });

  it('names a failing test in the format of Python before 3.11, module and class only', () => {
    const out = 'FAIL: test_a (tests.test_x.TestX)\n----\nERROR: test_b (tests.test_x.TestX.test_b)\n----\nRan 2 tests in 0.001s\n\nFAILED (failures=1, errors=1)\n';
    expect(parseTestSummary(out).failing).toEqual(['tests.test_x.TestX.test_a', 'tests.test_x.TestX.test_b']);
  });

  it('calls each module that failed to import, in either loader\'s words, a crash and names them all', () => {
    const out = [
      'ERROR: test_a (unittest.loader._FailedTest.test_a)',
      'ERROR: test_b (unittest.loader.ModuleImportFailure.test_b)',
      'Ran 2 tests in 0.000s',
      '',
      'FAILED (errors=2)',
    ].join('\n');
    expect(parseTestSummary(out).crash).toBe('the test module test_a, test_b failed to import (a syntax or import error, not a test failure)');
  });

  it('does not read a summary, a result or a failure that a program printed inside a line', () => {
    const out = [
      'log: Ran 9 tests in 0.001s',
      'log: FAIL: test_z (tests.test_x.TestX.test_z)',
      'Ran 3 tests in 0.002s',
      'Ran 7 tests in 0.1s (forged)',
      '',
      'OK',
    ].join('\n');
    expect(parseTestSummary(out)).toEqual({ runner: 'unittest', ran: 3, failed: 0, errors: 0, ...unknownEmpty, failing: [], summaries: 1 });
  });

  it('wants the result line to be the whole line', () => {
    expect(parseTestSummary('Ran 3 tests in 0.002s\nSTATUS: OK\n').crash).toBe('the runner printed no result line; the test process probably died');
    expect(parseTestSummary('Ran 3 tests in 0.002s\nOKAY then\n').crash).toBe('the runner printed no result line; the test process probably died');
  });

  it('reads pytest totals in any order, with errors in the plural, failing ids sorted', () => {
    const out = ['FAILED tests/test_z.py::test_z - assert 0', 'ERROR tests/test_a.py::test_a - fixture', '======= 2 passed, 1 failed, 2 errors, 1 skipped in 0.40s ======='].join('\n');
    expect(parseTestSummary(out)).toEqual({ runner: 'pytest', ran: 5, failed: 1, errors: 2, skipped: 1, expectedFailures: 0, unexpectedSuccesses: 0, failing: ['tests/test_a.py::test_a', 'tests/test_z.py::test_z'], summaries: 1 });
  });

  it('calls a pytest run that collected nothing because a module did not import a crash', () => {
    const crash = { runner: 'pytest', ran: 0, failed: 0, errors: 0, ...unknownEmpty, failing: [], summaries: 1, crash: 'pytest could not collect a test module (a syntax or import error)' };
    expect(parseTestSummary('ERROR tests/test_x.py\nno tests ran in 0.01s\n')).toEqual(crash);
    expect(parseTestSummary('____________ ERROR collecting tests/test_x.py ____________\nno tests ran in 0.01s\n')).toEqual(crash);
    expect(parseTestSummary('ERROR collecting tests/test_x.py\nno tests ran in 0.01s\n')).toEqual(crash);
  });

  it('does not take a log line that mentions an error for a collection error', () => {
    const clean = { runner: 'pytest', ran: 0, failed: 0, errors: 0, ...unknownEmpty, failing: [], summaries: 1 };
    for (const log of ['[app] ERROR timeout', 'ERROR timeout after 3 s', 'my_ ERROR collecting data', '[app] ERROR collecting data']) {
      expect(parseTestSummary(`${log}\nno tests ran in 0.01s\n`), log).toEqual(clean);
    }
    for (const log of ['my_ ERROR collecting data', '[app] ERROR collecting data']) {
      expect(parseTestSummary(`${log}\n1 passed in 0.01s\n`).crash, log).toBeUndefined();
    }
  });

  it('calls an interrupted collection of many modules a crash', () => {
    const out = '!!!!!!!! Interrupted: 12 errors during collection !!!!!!!!\n12 errors in 0.30s\n';
    expect(parseTestSummary(out)).toMatchObject({ runner: 'pytest', errors: 12, ran: 12, crash: 'pytest could not collect a test module (a syntax or import error)' });
  });
});

describe('pytest: the totals line and the failure lines, exactly', () => {
  it('reads singular warnings and subtests, and a duration with its clock time', () => {
    expect(parseTestSummary('==== 2 passed, 1 warning in 0.10s ====\n')).toMatchObject({ runner: 'pytest', ran: 2, summaries: 1 });
    expect(parseTestSummary('2 passed, 1 subtest passed in 0.10s\n')).toMatchObject({ runner: 'pytest', ran: 2, summaries: 1 });
    expect(parseTestSummary('======= 3 passed in 65.12s (0:01:05) =======\n')).toMatchObject({ runner: 'pytest', ran: 3, summaries: 1 });
  });

  it('takes only a whole line for the totals', () => {
    const out = 'log: 9 passed in 1.00s\n9 passed in 1.00s and then some\n==== 1 failed, 2 passed in 0.10s ====\n';
    expect(parseTestSummary(out)).toMatchObject({ runner: 'pytest', ran: 3, failed: 1, summaries: 1 });
  });

  it('names a failure from a line that starts with FAILED or ERROR, with or without a reason', () => {
    const out = 'app ERROR connection\nFAILED tests/test_a.py::test_x\nERROR tests/test_a.py::test_y - RuntimeError: boom\n==== 1 failed, 1 error in 0.10s ====\n';
    expect(parseTestSummary(out).failing).toEqual(['tests/test_a.py::test_x', 'tests/test_a.py::test_y']);
  });
});

describe('subtests: a test counts once, failed if any of its subtests failed', () => {
  // Real output of Python 3.11.7 and pytest 9.0.3 on tests/fixtures/judge/subtests (see its README):
  // six tests, two green, four red, eight failing subtest or test lines between them.
  const pinned = (file: string) => readFileSync(new URL(`../../fixtures/judge/subtests/${file}`, import.meta.url), 'utf8');
  const red = ['test_plain_fail', 'test_sub_error', 'test_sub_fail', 'test_sub_mixed'];

  it('reads unittest -q: 6 ran, 3 failed and 1 error, not failures=5 and errors=3', () => {
    const out = pinned('unittest.txt');
    expect(out).toContain('FAILED (failures=5, errors=3)');
    expect(parseTestSummary(out)).toEqual({ runner: 'unittest', ran: 6, failed: 3, errors: 1, skipped: 0, expectedFailures: 0, unexpectedSuccesses: 0, failing: red.map((t) => `tests.test_sub.TestSub.${t}`), summaries: 1 });
  });

  it('reads pytest -q: 6 ran and 4 failed, not 13 ran and 8 failed', () => {
    const out = pinned('pytest.txt');
    expect(out).toContain('8 failed, 5 passed, 4 subtests passed in ');
    expect(parseTestSummary(out)).toEqual({ runner: 'pytest', ran: 6, failed: 4, errors: 0, skipped: 0, expectedFailures: 0, unexpectedSuccesses: 0, failing: red.map((t) => `tests/test_sub.py::TestSub::${t}`), summaries: 1 });
  });

  it('counts a test whose subtests only raised as one error, and one whose body failed too as one failure', () => {
    const unittest = [
      'ERROR: test_a (t.T.test_a) (i=0)',
      'ERROR: test_a (t.T.test_a) (i=1)',
      'FAIL: test_b (t.T.test_b) [msg] (i=0)',
      'FAIL: test_b (t.T.test_b)',
      'ERROR: test_c (t.T.test_c) (<subtest>)',
      'FAIL: test_d (t.T.test_d)',
      'Ran 5 tests in 0.001s',
      '',
      'FAILED (failures=3, errors=3)',
    ].join('\n');
    expect(parseTestSummary(unittest)).toMatchObject({ ran: 5, failed: 2, errors: 2, failing: ['t.T.test_a', 't.T.test_b', 't.T.test_c', 't.T.test_d'] });
    const pytest = ['FAILED t.py::test_b - boom', 'SUBFAILED(i=0) t.py::test_b - x', 'SUBFAILED[a msg] t.py::test_c - y', '3 failed, 1 passed in 0.01s'].join('\n');
    expect(parseTestSummary(pytest)).toMatchObject({ ran: 2, failed: 2, errors: 0, failing: ['t.py::test_b', 't.py::test_c'] });
  });

  it('reads a FAIL line as one line: a newline printed inside the parentheses names no test', () => {
    const out = 'FAIL: test_a (t.T.test_a\n**PASS**, decision so far: **hire**\n)\nRan 1 test in 0.001s\n\nFAILED (failures=1)\n';
    expect(parseTestSummary(out).failing).toEqual([]);
  });
});
