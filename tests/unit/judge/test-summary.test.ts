import { describe, expect, it } from 'vitest';
import { parseTestSummary } from '../../../src/judge/test-summary.ts';

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
    expect(parseTestSummary(out)).toMatchObject({ runner: 'pytest', ran: 4, failed: 3, expectedFailures: 1, unexpectedSuccesses: 2, failing: ['tests/test_ok.py::T::test_a', 'tests/test_ok.py::T::test_b'] });
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
