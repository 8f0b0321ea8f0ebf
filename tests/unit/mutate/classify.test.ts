import { describe, expect, it } from 'vitest';
import { judge, type Evidence, type JudgeRules, type RunEvidence } from '../../../src/judge/judge.ts';
import type { ExpectedTest } from '../../../src/judge/test-ids.ts';
import { classifyJudgement, normalizedCode } from '../../../src/mutate/classify.ts';

/** What became of a mutant, from planted evidence the way unittest prints it: the judge, then the classification. No sandbox. */

const rules: JudgeRules = {
  contract: { allow: ['src/**'], forbid: [] },
  deliverables: [],
  modes: [{ id: 'marked', title: 'Marked', signal: { pattern: 'MARK', flags: '', in: 'files' } }],
};
const expected: ExpectedTest[] = [
  { id: 'tests/test_calc.py::TestCalc::test_add', file: 'tests/test_calc.py', hidden: false },
  { id: 'tests/test_hidden_calc.py::TestHidden::test_big', file: 'tests/test_hidden_calc.py', hidden: true },
];
const canaries = [
  { id: 'tests/test_calc.py::TestQwerty::test_asdf', file: 'tests/test_calc.py' },
  { id: 'tests/test_hidden_calc.py::TestZxcv::test_hjkl', file: 'tests/test_hidden_calc.py' },
];
const C = ['tests.test_calc.TestQwerty.test_asdf', 'tests.test_hidden_calc.TestZxcv.test_hjkl'];

function unittest(ran: number, failing: string[], errors: string[] = []): string {
  const block = (kind: string, id: string) => `======================================================================\n${kind}: ${id.split('.').at(-1)} (${id})\n----------------------------------------------------------------------\nTraceback (most recent call last):\nAssertionError\n\n`;
  const detail = [failing.length && `failures=${failing.length}`, errors.length && `errors=${errors.length}`].filter(Boolean).join(', ');
  return `${failing.map((id) => block('FAIL', id)).join('')}${errors.map((id) => block('ERROR', id)).join('')}----------------------------------------------------------------------\nRan ${ran} tests in 0.01s\n\n${failing.length || errors.length ? 'FAILED' : 'OK'}${detail ? ` (${detail})` : ''}\n`;
}

function judged(output: string, over: Partial<RunEvidence> = {}, code = 'def add(a, b):\n    return a - b\n') {
  const run: RunEvidence = { exitCode: 1, signal: null, timedOut: false, outputFlooded: false, output, durationMs: 40, timeoutMs: 30_000, ...over };
  const e: Evidence = { starter: new Map([['src/calc.py', 'x']]), before: new Map([['src/calc.py', code]]), protectedEdits: [], protectedAfter: [], expected, testFiles: ['tests/test_calc.py', 'tests/test_hidden_calc.py'], canaries, run };
  return classifyJudgement(judge(rules, e));
}

describe('classifyJudgement', () => {
  it('killed: a test fails, and the failing tests are named', () => {
    expect(judged(unittest(4, ['tests.test_calc.TestCalc.test_add', ...C]))).toMatchObject({ status: 'killed', killedBy: ['tests/test_calc.py::TestCalc::test_add'] });
    const hidden = judged(unittest(4, ['tests.test_hidden_calc.TestHidden.test_big', ...C]));
    expect(hidden).toMatchObject({ status: 'killed', onlyHidden: true, killedBy: ['tests/test_hidden_calc.py::TestHidden::test_big'] });
    expect(hidden.reason).toMatch(/only held-out tests caught it$/);
  });

  it('survived: every test passes; a matching signal is a note, not a catch', () => {
    expect(judged(unittest(4, C))).toMatchObject({ status: 'survived', reason: expect.stringMatching(/^every test passes with it \(2 ran, 0 failed/) });
    const marked = judged(unittest(4, C), {}, 'def add(a, b):\n    return a - b  # MARK\n');
    expect(marked.status).toBe('survived');
    expect(marked.notes).toEqual([expect.stringMatching(/^PK430 /)]);
  });

  it('crashed: a module that does not import, a hang, a crash before the summary', () => {
    const importError = unittest(2, [], ['unittest.loader._FailedTest.tests.test_calc', 'unittest.loader._FailedTest.tests.test_hidden_calc']);
    expect(judged(importError)).toMatchObject({ status: 'crashed', reason: expect.stringMatching(/^PK413 /) });
    // Only the held-out module fails to import: the judge calls it a held-out failure; it is still a crash.
    const hiddenImport = unittest(3, [C[0]!], ['unittest.loader._FailedTest.tests.test_hidden_calc']);
    expect(judged(hiddenImport)).toMatchObject({ status: 'crashed', reason: expect.stringMatching(/^a test module does not import with it: tests\.test_hidden_calc/) });
    expect(judged('', { timedOut: true, exitCode: null, signal: 'SIGKILL' })).toMatchObject({ status: 'crashed', reason: expect.stringMatching(/^PK411 /) });
    expect(judged('Traceback (most recent call last):\nSystemError\n')).toMatchObject({ status: 'crashed', reason: expect.stringMatching(/^PK413 /) });
  });

  it('invalid when the run forged its results; unjudged when the sandbox failed', () => {
    // Every test reported passing and the canaries with them: a patched runner.
    expect(judged(unittest(4, []), { exitCode: 0 })).toMatchObject({ status: 'invalid', reason: expect.stringMatching(/^it forges the test results.*PK420/) });
    expect(judged('', { error: 'bwrap: cannot mount' })).toMatchObject({ status: 'unjudged', reason: expect.stringMatching(/PK410/) });
  });
});

describe('normalizedCode', () => {
  it('sets aside blank lines, trailing spaces and whole-line comments, in the language\'s comment syntax', () => {
    const a = 'import re\n\ndef f(x):\n    return x + 1\n';
    const b = 'import re\r\n# a note\n\n\ndef f(x):   \n    # why\n    return x + 1\n';
    expect(normalizedCode(a, 'python')).toBe(normalizedCode(b, 'python'));
    expect(normalizedCode('a = 1  # inline stays\n', 'python')).toBe('a = 1  # inline stays');
    expect(normalizedCode('class A { #x = 1 }\n// note\n', 'typescript')).toBe('class A { #x = 1 }');
  });
});
