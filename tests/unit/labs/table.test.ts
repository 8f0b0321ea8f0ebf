import { describe, expect, it } from 'vitest';
import { combinationIndex, statesOfIndex, type LabState } from '../../../src/packets/lab-compose.ts';
import { runView, SKIPPED_MESSAGE } from '../../../src/labs/run-view.ts';
import { autoScores, calibratedScores, choicesScore } from '../../../src/labs/score.ts';
import { candidateTable, dependencies, reviewerKey, type LabTable, type TestResult } from '../../../src/labs/table.ts';
import { importedModules, preimports } from '../../../src/labs/precompute.ts';
import { unittestDiscovery } from '../../../src/packets/unittest-command.ts';

/**
 * A made-up table of three suggestions a, b, c: test `t_a` passes when a is accepted, `t_ab`
 * when a is accepted and b is not rejected, `t_none` always, and the held-out `h_c` unless c is
 * accepted as offered.
 */
function table(): LabTable {
  const pass: TestResult = { outcome: 'pass' };
  const fail = (message: string): TestResult => ({ outcome: 'fail', message });
  const combinations = [...Array(27).keys()].map((index) => {
    const [a, b, c] = statesOfIndex(index, 3);
    return {
      visible: [a === 'accept' ? pass : fail('a is needed'), a === 'accept' && b !== 'reject' ? pass : fail('a and b'), pass],
      hidden: [c === 'accept' ? fail('c as offered is wrong') : pass],
    };
  });
  return { schemaVersion: 1, id: 'lab', version: '1.0.0', digest: 'd'.repeat(64), suggestions: ['a', 'b', 'c'], tests: { visible: ['t.py::T::t_a', 't.py::T::t_ab', 't.py::T::t_none'], hidden: ['h.py::H::h_c'] }, combinations };
}

describe('the test table', () => {
  it('works out which suggestions each test depends on, from the table alone', () => {
    expect(dependencies(table())).toEqual({ 't.py::T::t_a': ['a'], 't.py::T::t_ab': ['a', 'b'], 't.py::T::t_none': [], 'h.py::H::h_c': ['c'] });
    expect(dependencies(table(), 'visible')).toEqual({ 't.py::T::t_a': ['a'], 't.py::T::t_ab': ['a', 'b'], 't.py::T::t_none': [] });
  });

  it("publishes the candidate's table with the visible tests only, and the reviewer's key with every test and the key", () => {
    const pub = candidateTable(table());
    expect(pub.kind).toBe('packet-kit/lab-table');
    expect(pub.tests).toEqual(['t.py::T::t_a', 't.py::T::t_ab', 't.py::T::t_none']);
    expect(JSON.stringify(pub)).not.toMatch(/h_c|c as offered/);
    expect(pub.combinations[combinationIndex(['accept', 'accept', 'reject'])]).toEqual({ states: ['accept', 'accept', 'reject'], outcomes: ['pass', 'pass', 'pass'], messages: [null, null, null] });
    expect(pub.messages).toEqual(['a is needed', 'a and b']);
    const key = reviewerKey(table(), [{ id: 'a', choice: 'accept', reason: 'needed' }, { id: 'b', choice: 'revise', reason: 'r' }, { id: 'c', choice: 'reject', reason: 'r', reviewOnly: 'why' }]);
    expect(key.kind).toBe('packet-kit/lab-key');
    expect(key.tests.at(-1)).toBe('h.py::H::h_c');
    expect(key.visibleCount).toBe(3);
    expect(key.key[2]).toEqual({ id: 'c', choice: 'reject', reason: 'r', reviewOnly: 'why' });
  });

  it('"Run tests": the combination\'s outcomes; a hand edit skips the tests that depend on it, and the summary says so', () => {
    const pub = candidateTable(table());
    const key: LabState[] = ['accept', 'revise', 'reject'];
    expect(runView(pub, key).sentence).toBe('3 of 3 tests pass.');
    expect(runView(pub, ['reject', 'reject', 'reject']).sentence).toBe('1 of 3 tests pass, 2 fail.');
    const edited = runView(pub, ['accept', 'hand', 'reject']);
    expect(edited.rows.map((r) => [r.name, r.outcome])).toEqual([
      ['t_a', 'pass'],
      ['t_ab', 'skipped'],
      ['t_none', 'pass'],
    ]);
    expect(edited.rows[1]!.message).toBe(SKIPPED_MESSAGE);
    expect(edited.sentence).toBe('2 of 3 tests pass, 1 skipped: check this edit against the reference (b).');
    // A hand edit no test depends on changes no outcome, and the summary still says it is unchecked.
    expect(runView(pub, ['accept', 'accept', 'hand']).sentence).toBe("3 of 3 tests pass, the hand edit of c changes no test's outcome in the table, and is still unchecked.");
    // The reviewer's key: held-out tests too, marked.
    const full = runView(reviewerKey(table(), []), ['accept', 'accept', 'accept'], 3);
    expect(full.rows.map((r) => [r.name, r.hidden, r.outcome])).toContainEqual(['h_c', true, 'fail']);
  });
});

describe('the automatic rows', () => {
  it('scores choices as the share of matches, rounded down, and leaves unknown tests to the reviewer', () => {
    expect([0, 1, 2, 3, 4].map((m) => choicesScore(3, m, 4))).toEqual([0, 0, 1, 2, 3]);
    const rows = [
      { id: 'choices', max: 3, auto: 'choices' },
      { id: 'final-tests', max: 2, auto: 'tests' },
      { id: 'reasons', max: 3 },
    ];
    expect(autoScores({ rows }, { matches: 3, total: 4, testsGreen: true, visibleGreen: true, hiddenGreen: true })).toEqual({ choices: 2, 'final-tests': 2 });
    expect(autoScores({ rows }, { matches: 4, total: 4, testsGreen: null, visibleGreen: true, hiddenGreen: null })).toEqual({ choices: 3 });
    expect(calibratedScores({ rows }, { matches: 4, total: 4, testsGreen: false, visibleGreen: true, hiddenGreen: false })).toEqual({ choices: 3, 'final-tests': 0, reasons: 3 });
  });
});

describe('the driver\'s inputs', () => {
  it('reads the discovery a unittest command asks for, and refuses anything else', () => {
    expect(unittestDiscovery('python3 -m unittest discover -s tests -t . -q')).toEqual({ start: 'tests', top: '.', pattern: 'test*.py' });
    expect(unittestDiscovery("python -m unittest discover tests 'check_*.py'")).toEqual({ start: 'tests', top: null, pattern: 'check_*.py' });
    expect(unittestDiscovery('python3 -m pytest -q')).toBeNull();
    expect(unittestDiscovery('python3 -m unittest discover -s tests; rm -rf /')).toBeNull();
    expect(unittestDiscovery('python3 -m unittest discover --locals')).toBeNull();
  });

  it('pre-imports the standard modules the code uses, never a module of the workspace', () => {
    expect(importedModules('import os, re as regex\nfrom collections import OrderedDict\nfrom . import x\n    import json\n')).toEqual(['collections', 'json', 'os', 're']);
    expect(preimports(['import signup\nimport re\nfrom tests.fakes import F\nfrom __future__ import annotations\n'], ['signup.py', 'tests/fakes.py', 'README.md'])).toEqual(['re']);
  });
});
