import { describe, expect, it } from 'vitest';
import { HARNESS_COMMAND } from '../../../src/judge/harness/bootstrap.ts';
import { harnessManifest } from '../../../src/judge/harness/run.ts';
import { parseTestSummary, RUNNERS, runnerFor, runnerNamed, runnerNamesInWords } from '../../../src/judge/runners/index.ts';
import { pytestArgs } from '../../../src/judge/runners/python-pytest.ts';
import { unittestTop } from '../../../src/judge/runners/python-unittest.ts';
import type { HarnessPlan, PacketTestSource } from '../../../src/judge/runners/runner.ts';

const seq = () => {
  let i = 0;
  return () => ((i++ * 0.37) % 1);
};

describe('the test runner registry', () => {
  it('keys each adapter by a name of its own', () => {
    expect(RUNNERS.map((r) => r.name)).toEqual(['unittest', 'pytest']);
    for (const r of RUNNERS) expect(runnerNamed(r.name)).toBe(r);
    expect(() => runnerNamed('jest')).toThrow('no test runner is named "jest" (known: unittest, pytest)');
    expect(runnerNamesInWords()).toBe('neither unittest nor pytest');
  });

  it('picks the runner a test command runs: pytest whenever the command names it', () => {
    expect(runnerFor('python3 -m unittest discover -s tests -t . -q')?.name).toBe('unittest');
    expect(runnerFor('python3 -m pytest -q')?.name).toBe('pytest');
    expect(runnerFor('pytest tests/unittest -q')?.name).toBe('pytest');
    expect(runnerFor('make test')).toBeNull();
  });

  it('reads a summary with the first adapter that finds its own in the output', () => {
    expect(parseTestSummary('...\n----\nRan 3 tests in 0.001s\n\nOK\n').runner).toBe('unittest');
    expect(parseTestSummary('3 passed in 0.01s\n').runner).toBe('pytest');
    expect(parseTestSummary('Segmentation fault\n')).toMatchObject({ runner: 'unknown', ran: null });
  });
});

describe('the Python adapters', () => {
  const files: PacketTestSource[] = [
    { file: 'tests/test_calc.py', source: 'import unittest\nclass TestCalc(unittest.TestCase):\n    def test_add(self):\n        pass\n', hidden: false },
    { file: 'tests/test_funcs.py', source: 'def test_plain():\n    assert True\n', hidden: false },
    { file: 'tests/test_hidden.py', source: 'import unittest\nclass TestHidden(unittest.TestCase):\n    def test_edge(self):\n        pass\n', hidden: true },
    { file: 'tests/helpers.py', source: 'class Base:\n    pass\n', hidden: false },
  ];

  it('collect the tests each runner would run, visible and with the held-out ones', () => {
    const u = runnerNamed('unittest').collect(files);
    expect(u.expected.visible.map((t) => t.id)).toEqual(['tests/test_calc.py::TestCalc::test_add']);
    expect(u.expected.all.map((t) => [t.id, t.hidden])).toEqual([
      ['tests/test_calc.py::TestCalc::test_add', false],
      ['tests/test_hidden.py::TestHidden::test_edge', true],
    ]);
    expect(u.testFiles).toEqual(['tests/test_calc.py', 'tests/test_funcs.py', 'tests/test_hidden.py']);
    expect([...u.hasTestCase].sort()).toEqual(['tests/test_calc.py', 'tests/test_hidden.py']);
    expect([...u.names.get('tests/test_calc.py')!]).toEqual(['TestCalc']);
    const p = runnerNamed('pytest').collect(files);
    expect(p.expected.visible.map((t) => t.id)).toEqual(['tests/test_calc.py::TestCalc::test_add', 'tests/test_funcs.py::test_plain']);
    expect(p.hasTestCase.has('tests/test_funcs.py')).toBe(false);
  });

  it('write a canary that cannot pass: a TestCase under unittest, a function in a pytest file without one', () => {
    const u = runnerNamed('unittest').canary('tests/test_funcs.py', false, seq());
    expect(u.id).toMatch(/^tests\/test_funcs\.py::Test[A-Z][a-z]+::test_[a-z]+$/);
    expect(u.source).toMatch(/TestCase\):\n {4}def test_[a-z]+\(self\):\n {8}self\.assertEqual\((\d+), (?!\1)\d+\)/);
    const p = runnerNamed('pytest').canary('tests/test_funcs.py', false, seq());
    expect(p.id).toMatch(/^tests\/test_funcs\.py::test_[a-z]+$/);
    expect(p.source).toMatch(/\ndef test_[a-z]+\(\):\n {4}assert \d+ == \d+\n$/);
    expect(runnerNamed('pytest').canary('tests/test_calc.py', true, seq()).id.split('::')).toHaveLength(3);
  });

  it('run under the kit\'s Python harness; unittest hands it the test modules from memory', () => {
    for (const r of RUNNERS) {
      expect(r.harness.command).toBe(HARNESS_COMMAND);
      expect(r.harness.env).toEqual({ PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1', PYTHONUNBUFFERED: '1' });
    }
    expect(runnerNamed('unittest').testsFromMemory).toBe(true);
    expect(runnerNamed('pytest').testsFromMemory).toBe(false);
  });

  it('give the harness manifest each runner\'s part', () => {
    const plan = (style: string, command: string): HarnessPlan => ({
      style,
      command,
      tests: [{ file: 'tests/test_calc.py', source: 'x' }],
      trusted: ['tests/test_calc.py', 'src/a.py'],
      screen: ['src/z.py', 'src/b.py'],
      allow: ['gc'],
    });
    expect(harnessManifest(plan('unittest', 'python3 -m unittest discover -s tests -t .'))).toEqual({
      style: 'unittest',
      top: '.',
      protected: ['src/a.py', 'tests/test_calc.py'],
      tests: [{ file: 'tests/test_calc.py', module: 'tests.test_calc', source: 'x' }],
      screen: { files: ['src/b.py', 'src/z.py'], allow: ['gc'] },
      pytestArgs: [],
    });
    expect(harnessManifest(plan('unittest', 'python3 -m unittest discover -s tests'))).toMatchObject({ top: 'tests', tests: [{ module: 'test_calc' }] });
    expect(harnessManifest(plan('pytest', 'python3 -m pytest -q tests'))).toEqual({
      style: 'pytest',
      top: '.',
      protected: ['src/a.py', 'tests/test_calc.py'],
      tests: [],
      screen: { files: ['src/b.py', 'src/z.py'], allow: ['gc'] },
      pytestArgs: ['-q', 'tests'],
    });
    expect(unittestTop('python3 -m unittest discover -t ./src/ -s tests')).toBe('src');
    expect(pytestArgs('make pytest')).toEqual([]);
  });
});
