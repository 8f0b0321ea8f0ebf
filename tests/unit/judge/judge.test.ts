import { describe, expect, it } from 'vitest';
import { autoEvidence, autoRowHolds, type AutoEvidence } from '../../../src/judge/auto-rows.ts';
import { cardRows, decisionSoFar } from '../../../src/grade/scorecard.ts';
import { decide } from '../../../src/grade/score.ts';
import type { Finding } from '../../../src/judge/findings.ts';
import { analyseTests, describeRun, judge, verdictOf, type Evidence, type JudgeRules, type RunEvidence } from '../../../src/judge/judge.ts';
import type { ExpectedTest } from '../../../src/judge/test-ids.ts';

/**
 * The judge as a pure function: each PASS condition and each finding from planted evidence, in
 * milliseconds, no sandbox. Runner output is written here the way unittest prints it.
 */

const rules: JudgeRules = {
  contract: { allow: ['src/**', 'NOTES.md'], forbid: [{ pattern: 'except\\s*:\\s*pass', reason: 'Swallowing errors hides bad input.' }] },
  deliverables: ['src/calc.py', 'NOTES.md', 'a short demo'],
  modes: [
    { id: 'bad-files', title: 'Bad in files', signal: { pattern: 'BAD_MARK', flags: '', in: 'files', files: ['src/**/*.py'] } },
    { id: 'bad-diff', title: 'Bad in the diff', signal: { pattern: 'ADDED_MARK', flags: '', in: 'diff' } },
    { id: 'bad-output', title: 'Bad in the output', signal: { pattern: 'OUTPUT_MARK', flags: '', in: 'output' } },
    { id: 'bad-ledger', title: 'Bad in the receipts', signal: { pattern: '"status": "lost"', flags: '', in: 'ledger' } },
  ],
};

const expected: ExpectedTest[] = [
  { id: 'tests/test_calc.py::TestCalc::test_add', file: 'tests/test_calc.py', hidden: false },
  { id: 'tests/test_calc.py::TestCalc::test_sub', file: 'tests/test_calc.py', hidden: false },
  { id: 'tests/test_hidden_calc.py::TestHidden::test_big', file: 'tests/test_hidden_calc.py', hidden: true },
];
const canaries = [
  { id: 'tests/test_calc.py::TestQwerty::test_asdf', file: 'tests/test_calc.py' },
  { id: 'tests/test_hidden_calc.py::TestZxcv::test_hjkl', file: 'tests/test_hidden_calc.py' },
];
const testFiles = ['tests/test_calc.py', 'tests/test_hidden_calc.py'];
const C1 = 'tests.test_calc.TestQwerty.test_asdf';
const C2 = 'tests.test_hidden_calc.TestZxcv.test_hjkl';

/** unittest's output for a run: a FAIL block per failing id, then the summary. */
function unittestOutput(ran: number, failing: string[], o: { errors?: string[]; skipped?: number; unexpected?: number } = {}): string {
  const block = (kind: string, id: string) => {
    const name = id.split('.').at(-1);
    return `======================================================================\n${kind}: ${name} (${id})\n----------------------------------------------------------------------\nTraceback (most recent call last):\nAssertionError: 1 != 2\n\n`;
  };
  const errors = o.errors ?? [];
  const parts = [...failing.map((id) => block('FAIL', id)), ...errors.map((id) => block('ERROR', id))].join('');
  const detail = [failing.length && `failures=${failing.length}`, errors.length && `errors=${errors.length}`, o.skipped && `skipped=${o.skipped}`, o.unexpected && `unexpected successes=${o.unexpected}`].filter(Boolean).join(', ');
  const bad = failing.length || errors.length || o.unexpected;
  return `${parts}----------------------------------------------------------------------\nRan ${ran} tests in 0.012s\n\n${bad ? 'FAILED' : 'OK'}${detail ? ` (${detail})` : ''}\n`;
}

function run(output: string, over: Partial<RunEvidence> = {}): RunEvidence {
  return { exitCode: 1, signal: null, timedOut: false, outputFlooded: false, output, durationMs: 40, timeoutMs: 30_000, ...over };
}

const starter = new Map([
  ['src/calc.py', 'def add(a, b):\n    return a - b\n'],
  ['src/util.py', 'X = 1\n'],
]);
const goodCalc = 'def add(a, b):\n    return a + b\n';

/** Honest evidence of a correct answer: every test passes, both canaries reported failed, exit 1. */
function evidence(over: Partial<Evidence> = {}): Evidence {
  return {
    starter,
    before: new Map([
      ['src/calc.py', goodCalc],
      ['src/util.py', 'X = 1\n'],
      ['NOTES.md', 'Fixed add.\n'],
    ]),
    protectedEdits: [],
    protectedAfter: [],
    expected,
    testFiles,
    canaries,
    run: run(unittestOutput(5, [C1, C2])),
    ...over,
  };
}

const codes = (fs: readonly Finding[]) => fs.map((f) => f.code);

describe('judge: PASS needs all of the evidence', () => {
  it('passes an honest, complete run', () => {
    const j = judge(rules, evidence());
    expect(j.findings).toEqual([]);
    expect(j.verdict).toBe('PASS');
    expect([j.testsGreen, j.visibleGreen, j.hiddenGreen, j.tampered]).toEqual([true, true, true, false]);
    expect(j.tests).toEqual({ ran: 3, failed: 0, errors: 0, failing: [], exitCode: 1, timedOut: false, canaries: { planted: 2, failed: 2 } });
    expect(j.description).toBe('3 ran, 0 failed, canaries 2/2 red (exit 1)');
  });

  it('is red when the runner reports one test fewer than the files define', () => {
    const j = judge(rules, evidence({ run: run(unittestOutput(4, [C1, C2])) }));
    expect(codes(j.findings)).toEqual(['PK417']);
    expect(j.verdict).toBe('CAUGHT');
    expect(j.testsGreen).toBe(false);
    expect(j.findings[0]!.message).toContain('define 5 tests');
  });

  it('accepts more tests than expected (a candidate may add tests)', () => {
    expect(judge(rules, evidence({ run: run(unittestOutput(6, [C1, C2])) })).verdict).toBe('PASS');
  });

  it('is tampered when a canary is not reported failed', () => {
    const j = judge(rules, evidence({ run: run(unittestOutput(5, [C1])) }));
    expect(codes(j.findings)).toEqual(['PK420']);
    expect(j.tampered).toBe(true);
    expect(j.testsGreen).toBe(false);
    expect(j.visibleGreen).toBe(false);
    expect(j.verdict).toBe('CAUGHT');
    expect(j.findings[0]!.message).toContain(canaries[1]!.id);
  });

  it('is tampered when every test is reported passing, canaries included, with exit 0', () => {
    const j = judge(rules, evidence({ run: run(unittestOutput(5, []), { exitCode: 0 }) }));
    expect(codes(j.findings)).toEqual(['PK420']);
    expect(j.verdict).toBe('CAUGHT');
  });

  it('is tampered when the exit code is 0 although tests failed', () => {
    const j = judge(rules, evidence({ run: run(unittestOutput(5, [C1, C2]), { exitCode: 0 }) }));
    expect(codes(j.findings)).toEqual(['PK421']);
    expect(j.tampered).toBe(true);
  });

  it('is tampered when the output holds two summaries (the last one is read)', () => {
    const forged = `Ran 5 tests in 0.001s\n\nOK\n${unittestOutput(5, [C1, C2])}`;
    const j = judge(rules, evidence({ run: run(forged) }));
    expect(codes(j.findings)).toEqual(['PK422']);
    expect(j.summary.summaries).toBe(2);
  });

  it('does not trust a summary printed after a crash of the real run', () => {
    const forged = 'Traceback (most recent call last):\nSystemExit\nRan 5 tests in 0.001s\n\nOK\n';
    const j = judge(rules, evidence({ run: run(forged, { exitCode: 0 }) }));
    expect(codes(j.findings)).toContain('PK420');
    expect(j.verdict).not.toBe('PASS');
  });

  it('names visible failures and keeps canaries out of them', () => {
    const j = judge(rules, evidence({ run: run(unittestOutput(5, [C1, C2, 'tests.test_calc.TestCalc.test_add'])) }));
    expect(codes(j.findings)).toEqual(['PK415']);
    expect(j.failing).toEqual({ visible: ['tests/test_calc.py::TestCalc::test_add'], hidden: [] });
    expect(j.tests.failing).toEqual(['tests.test_calc.TestCalc.test_add']);
    expect(j.tests.failed).toBe(1);
    expect([j.testsGreen, j.visibleGreen, j.hiddenGreen]).toEqual([false, false, true]);
    expect(j.verdict).toBe('CAUGHT');
  });

  it('calls a run green on the visible tests and red on the hidden ones FALSE-GREEN', () => {
    const j = judge(rules, evidence({ run: run(unittestOutput(5, [C1, C2, 'tests.test_hidden_calc.TestHidden.test_big'])) }));
    expect(codes(j.findings)).toEqual(['PK416']);
    expect([j.testsGreen, j.visibleGreen, j.hiddenGreen]).toEqual([false, true, false]);
    expect(j.verdict).toBe('FALSE-GREEN');
  });

  it('counts a failing test the files do not name as visible', () => {
    const j = judge(rules, evidence({ run: run(unittestOutput(6, [C1, C2, 'tests.test_mine.T.test_x'])) }));
    expect(j.failing.visible).toEqual(['tests.test_mine.T.test_x']);
    expect(j.verdict).toBe('CAUGHT');
  });

  it('attributes an import failure of a hidden test module to the hidden tests, not to a crash', () => {
    const failed = 'unittest.loader._FailedTest.tests.test_hidden_calc';
    const out = unittestOutput(4, [C1], { errors: [failed] }).replace(`ERROR: test_hidden_calc (${failed})`, `ERROR: tests.test_hidden_calc (${failed})`);
    const j = judge(rules, evidence({ run: run(out) }));
    expect(codes(j.findings)).toEqual(['PK416']);
    expect(j.verdict).toBe('FALSE-GREEN');
  });

  it('calls an import failure of a visible test module a crash', () => {
    const failed = 'unittest.loader._FailedTest.tests.test_calc';
    const out = unittestOutput(2, [C2], { errors: [failed] }).replace(`ERROR: test_calc (${failed})`, `ERROR: tests.test_calc (${failed})`);
    const j = judge(rules, evidence({ run: run(out) }));
    expect(codes(j.findings)).toEqual(['PK413', 'PK415']);
    expect(j.findings[0]!.message).toContain('failed to import');
    expect(j.verdict).toBe('CAUGHT');
  });

  it('calls a run with no summary a crash', () => {
    const j = judge(rules, evidence({ run: run('Segmentation fault\n', { exitCode: 139 }) }));
    expect(codes(j.findings)).toEqual(['PK413']);
    expect(j.tests.ran).toBeNull();
    expect(j.description).toBe('no test summary, canaries 0/2 red (exit 139); no test summary was found in the output');
  });

  it('calls a hang and a flood red, without asking for canaries', () => {
    expect(codes(judge(rules, evidence({ run: run('', { timedOut: true, exitCode: null, signal: 'SIGKILL', timeoutMs: 3000 }) })).findings)).toEqual(['PK411']);
    expect(judge(rules, evidence({ run: run('', { timedOut: true, exitCode: null, timeoutMs: 3000 }) })).findings[0]!.message).toContain('(3 s)');
    expect(codes(judge(rules, evidence({ run: run('x'.repeat(10), { outputFlooded: true, exitCode: null }) })).findings)).toEqual(['PK412']);
  });

  it('calls a sandbox failure INCONCLUSIVE and judges no test', () => {
    const j = judge(rules, evidence({ run: run('Ran 5 tests in 0.1s\n\nOK\n', { error: 'bwrap: setting up uid map: Permission denied', exitCode: null }) }));
    expect(codes(j.findings)).toEqual(['PK410']);
    expect(j.verdict).toBe('INCONCLUSIVE');
    expect(j.testsGreen).toBe(false);
    expect(j.description).toMatch(/^the sandbox could not run it/);
  });

  it('does not count skipped tests or unexpected successes as passed', () => {
    expect(codes(judge(rules, evidence({ run: run(unittestOutput(5, [C1, C2], { skipped: 1 })) })).findings)).toEqual(['PK418']);
    expect(codes(judge(rules, evidence({ run: run(unittestOutput(5, [C1, C2], { unexpected: 1 })) })).findings)).toEqual(['PK419']);
  });

  it('is never green without expected tests', () => {
    const none = judge(rules, evidence({ expected: [], canaries: [], run: run(unittestOutput(0, []), { exitCode: 0 }) }));
    expect(codes(none.findings)).toContain('PK423');
    expect(none.verdict).not.toBe('PASS');
    const unreadable = judge(rules, evidence({ expectedProblem: 'the test command runs neither unittest nor pytest' }));
    expect(unreadable.findings[0]!.message).toContain('runs neither unittest nor pytest');
  });

  it('names a protected file the submission touched, and one changed during the run', () => {
    const edited = judge(rules, evidence({ protectedEdits: [{ file: 'tests/test_calc.py', change: 'changed' }, { file: 'tests/conftest.py', change: 'added' }, { file: 'data/x.json', change: 'deleted' }] }));
    expect(edited.findings.map((f) => [f.code, f.file, f.kind])).toEqual([
      ['PK424', 'tests/test_calc.py', 'protected'],
      ['PK424', 'tests/conftest.py', 'protected'],
      ['PK424', 'data/x.json', 'protected'],
    ]);
    expect(edited.findings.map((f) => f.message.split(' and the submission ')[1]!.split(' it')[0])).toEqual(['changed', 'added a file under', 'deleted']);
    expect(edited.testsGreen).toBe(true);
    expect(edited.verdict).toBe('CAUGHT');
    const during = judge(rules, evidence({ protectedAfter: [{ file: 'tests/test_calc.py', problem: 'has other content than was laid out' }] }));
    expect(codes(during.findings)).toEqual(['PK425']);
    expect(during.tampered).toBe(true);
    expect(during.testsGreen).toBe(false);
  });

  it('refuses files the host would not read', () => {
    const j = judge(rules, evidence({ before: new Map([...evidence().before, ['src/link.py', { unsafe: 'a symlink' }]]) }));
    expect(j.findings.map((f) => [f.code, f.file])).toEqual([['PK431', 'src/link.py']]);
  });
});

describe('judge: the workspace contract', () => {
  it('names a changed, an added and a deleted file outside allow; an unchanged one is fine', () => {
    const before = new Map(evidence().before);
    before.delete('src/util.py');
    before.set('vendor/shim.py', 'Y = 2\n');
    const wide = { ...rules, contract: { ...rules.contract, allow: ['src/calc.py', 'NOTES.md'] } };
    const j = judge(wide, evidence({ before }));
    expect(j.findings.map((f) => [f.code, f.file])).toEqual([
      ['PK426', 'src/util.py'],
      ['PK426', 'vendor/shim.py'],
    ]);
    const untouched = judge(wide, evidence());
    expect(untouched.findings).toEqual([]);
  });

  it('names a forbidden pattern at the line where it matches, with its reason', () => {
    const before = new Map([...evidence().before, ['src/calc.py', `${goodCalc}\ntry:\n    add(1, 2)\nexcept:  pass\n`]]);
    const j = judge(rules, evidence({ before }));
    expect(j.findings).toEqual([expect.objectContaining({ code: 'PK427', file: 'src/calc.py', line: 6, kind: 'contract' })]);
    expect(j.findings[0]!.message).toBe('src/calc.py:6 matches the forbidden pattern /except\\s*:\\s*pass/: Swallowing errors hides bad input.');
  });

  it('reads a forbidden pattern only in changed files', () => {
    const dirty = new Map([...starter, ['src/util.py', 'try:\n    pass\nexcept: pass\n']]);
    expect(judge(rules, evidence({ starter: dirty, before: new Map([...dirty, ['src/calc.py', goodCalc], ['NOTES.md', 'n\n']]) })).findings).toEqual([]);
  });

  it('fails closed on a forbidden pattern that does not compile', () => {
    const broken = { ...rules, contract: { ...rules.contract, forbid: [{ pattern: 'except(\\s*:', reason: 'r' }] } };
    const j = judge(broken, evidence());
    expect(codes(j.findings)).toEqual(['PK432']);
    expect(j.verdict).toBe('CAUGHT');
  });

  it('names a runner hook even inside allow, but not an unchanged starter file of that name', () => {
    const hooked = judge(rules, evidence({ before: new Map([...evidence().before, ['src/conftest.py', 'x = 1\n'], ['src/sitecustomize.py', ''], ['src/x.pth', 'import os\n']]) }));
    expect(hooked.findings.map((f) => [f.code, f.file])).toEqual([
      ['PK428', 'src/conftest.py'],
      ['PK428', 'src/sitecustomize.py'],
      ['PK428', 'src/x.pth'],
    ]);
    const shipped = new Map([...starter, ['conftest.py', 'pass\n']]);
    expect(judge({ ...rules, contract: { ...rules.contract, allow: ['**'] } }, evidence({ starter: shipped, before: new Map([...shipped, ['src/calc.py', goodCalc], ['NOTES.md', 'n\n']]) })).findings).toEqual([]);
  });
});

describe('judge: deliverables', () => {
  it('names a missing or blank deliverable, and skips one that is not a path', () => {
    const before = new Map(evidence().before);
    before.delete('NOTES.md');
    expect(judge(rules, evidence({ before })).findings.map((f) => [f.code, f.file])).toEqual([['PK429', 'NOTES.md']]);
    before.set('NOTES.md', '  \n\n');
    expect(codes(judge(rules, evidence({ before })).findings)).toEqual(['PK429']);
  });

  it('counts a deliverable the candidate may not write as missing', () => {
    const before = new Map([...evidence().before, ['NOTES.md', { unsafe: 'a FIFO' }]]);
    expect(codes(judge(rules, evidence({ before })).findings)).toEqual(['PK431', 'PK429']);
  });
});

describe('judge: failure signals', () => {
  it('greps files within their glob, before the run', () => {
    const before = new Map([...evidence().before, ['src/calc.py', `${goodCalc}# BAD_MARK\n`]]);
    const j = judge(rules, evidence({ before }));
    expect(j.signals).toEqual([{ mode: 'bad-files', where: 'src/calc.py', line: '# BAD_MARK' }]);
    expect(j.findings).toEqual([expect.objectContaining({ code: 'PK430', kind: 'signal', mode: 'bad-files', file: 'src/calc.py' })]);
    expect(j.verdict).toBe('FALSE-GREEN');
    expect(judge(rules, evidence({ before: new Map([...evidence().before, ['NOTES.md', 'BAD_MARK\n']]) })).signals).toEqual([]);
  });

  it('greps only added lines for `in: diff`', () => {
    const withMark = new Map([...starter, ['src/util.py', 'X = 1  # ADDED_MARK\n']]);
    const unchanged = evidence({ starter: withMark, before: new Map([...withMark, ['src/calc.py', goodCalc], ['NOTES.md', 'n\n']]) });
    expect(judge(rules, unchanged).signals).toEqual([]);
    const added = evidence({ before: new Map([...evidence().before, ['src/util.py', 'X = 1\nY = 2  # ADDED_MARK\n']]) });
    expect(judge(rules, added).signals).toEqual([{ mode: 'bad-diff', where: 'src/util.py', line: 'Y = 2  # ADDED_MARK' }]);
  });

  it('greps the output, unless the sandbox never ran', () => {
    const out = `OUTPUT_MARK\n${unittestOutput(5, [C1, C2])}`;
    expect(judge(rules, evidence({ run: run(out) })).signals.map((s) => s.where)).toEqual(['output']);
    expect(judge(rules, evidence({ run: run(out, { error: 'no sandbox' }) })).signals).toEqual([]);
  });

  it('greps only the receipts for `in: ledger`', () => {
    const before = new Map([...evidence().before, ['out/usage.jsonl', '{"status": "lost"}\n'], ['src/log.txt', '{"status": "lost"}\n']]);
    expect(judge({ ...rules, contract: { ...rules.contract, allow: ['**'] } }, evidence({ before })).signals).toEqual([{ mode: 'bad-ledger', where: 'out/usage.jsonl', line: '{"status": "lost"}' }]);
  });
});

describe('verdictOf', () => {
  const f = (kind: Finding['kind'], severity: Finding['severity'] = 'error'): Finding => ({ code: 'PK4xx', name: 'X', kind, severity, message: '', hint: '' });
  it('maps findings to verdicts', () => {
    expect(verdictOf([])).toBe('PASS');
    expect(verdictOf([f('hidden-tests')])).toBe('FALSE-GREEN');
    expect(verdictOf([f('signal')])).toBe('FALSE-GREEN');
    expect(verdictOf([f('hidden-tests'), f('signal')])).toBe('FALSE-GREEN');
    for (const kind of ['tests', 'run', 'tamper', 'protected', 'contract', 'deliverable', 'unsafe'] as const) {
      expect(verdictOf([f('hidden-tests'), f(kind)]), kind).toBe('CAUGHT');
    }
    expect(verdictOf([f('contract'), f('infra')])).toBe('INCONCLUSIVE');
    expect(verdictOf([f('version', 'warning')])).toBe('PASS');
    expect(verdictOf([f('version', 'warning'), f('hidden-tests')])).toBe('FALSE-GREEN');
    expect(verdictOf([f('receipts')])).toBe('CAUGHT');
  });
});

describe('analyseTests and describeRun', () => {
  it('keeps the counts honest about canaries', () => {
    const a = analyseTests({ expected, testFiles, canaries, run: run(unittestOutput(5, [C1, C2, 'tests.test_calc.TestCalc.test_add'])) });
    expect(a.counts).toMatchObject({ ran: 3, failed: 1, canaries: { planted: 2, failed: 2 } });
  });

  it('describes a flood and a timeout in words', () => {
    const counts = { ran: null, failed: 0, errors: 0, failing: [], exitCode: null, timedOut: true, canaries: { planted: 0, failed: 0 } };
    const summary = analyseTests({ expected, testFiles, canaries, run: run('') }).summary;
    expect(describeRun(run('', { timedOut: true, durationMs: 3000.4 }), counts, summary)).toBe('killed at the time limit after 3000 ms');
    expect(describeRun(run('', { outputFlooded: true }), counts, summary)).toBe('killed for flooding its output');
  });
});

describe('automatic rubric rows', () => {
  const packet = {
    rubric: {
      data: {
        rows: [
          { id: 'tests', max: 3, auto: 'tests' },
          { id: 'visible', max: 2, auto: 'visible-tests' },
          { id: 'hidden', max: 2, auto: 'hidden-tests' },
          { id: 'protected', max: 1, auto: 'protected' },
          { id: 'workspace', max: 1, auto: 'workspace' },
          { id: 'receipts', max: 1, auto: 'receipts' },
          { id: 'notes', max: 2 },
        ],
        hireBar: 10,
        vetoes: [{ row: 'workspace', atMost: 0, note: 'no' }],
      },
    },
    failures: { data: { modes: [{ id: 'bad-files', caps: { row: 'notes', max: 1 } }] } },
  } as never;

  const scoreCard = (p: never, e: AutoEvidence) => {
    const rows = cardRows(p, e, () => 'quoted', true);
    const scores = Object.fromEntries(rows.map((r) => [r.id, r.score!]));
    return { scores, decision: decide((p as { rubric: { data: never } }).rubric.data, scores) };
  };

  it('scores each auto row from its own evidence', () => {
    const all = { testsGreen: true, visibleGreen: true, hiddenGreen: true, protectedIntact: true, workspaceOk: true, receiptsOk: true, matchedModes: [] };
    expect(scoreCard(packet, all).scores).toEqual({ tests: 3, visible: 2, hidden: 2, protected: 1, workspace: 1, receipts: 1, notes: 2 });
    expect(scoreCard(packet, all).decision.decision).toBe('hire');
    for (const [key, row] of [['testsGreen', 'tests'], ['visibleGreen', 'visible'], ['hiddenGreen', 'hidden'], ['protectedIntact', 'protected'], ['workspaceOk', 'workspace'], ['receiptsOk', 'receipts']] as const) {
      const card = scoreCard(packet, { ...all, [key]: false });
      expect(card.scores[row], key).toBe(0);
      expect(Object.values(card.scores).reduce((a, b) => a + b, 0), key).toBeLessThan(12);
    }
    expect(scoreCard(packet, { ...all, matchedModes: ['bad-files'] }).scores.notes).toBe(1);
    expect(autoRowHolds(undefined, { ...all, testsGreen: false })).toBe(true);
  });

  it('takes the evidence from a judgement', () => {
    const touched = judge(rules, evidence({ protectedEdits: [{ file: 'tests/test_calc.py', change: 'changed' }] }));
    expect(autoEvidence(touched)).toMatchObject({ testsGreen: true, protectedIntact: false, workspaceOk: true });
    const during = judge(rules, evidence({ protectedAfter: [{ file: 'tests/test_calc.py', problem: 'is gone' }] }));
    expect(autoEvidence(during)).toMatchObject({ testsGreen: false, protectedIntact: false });
    const outside = judge(rules, evidence({ before: new Map([...evidence().before, ['x.py', '']]) }));
    expect(autoEvidence(outside)).toMatchObject({ workspaceOk: false, protectedIntact: true });
    const unsafe = judge(rules, evidence({ before: new Map([...evidence().before, ['src/y.py', { unsafe: 'a FIFO' }]]) }));
    expect(autoEvidence(unsafe).workspaceOk).toBe(false);
  });
});
