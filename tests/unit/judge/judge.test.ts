import { describe, expect, it } from 'vitest';
import { autoEvidence, autoRowHolds, type AutoEvidence } from '../../../src/judge/auto-rows.ts';
import { cardRows, decisionSoFar } from '../../../src/judge/scorecard.ts';
import { decide } from '../../../src/judge/score.ts';
import type { Finding } from '../../../src/judge/findings.ts';
import { analyseTests, describeRun, judge, staticFindings, verdictOf, type Evidence, type JudgeRules, type RunEvidence, type TestCounts } from '../../../src/judge/judge.ts';
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
    kind: 'takehome',
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
    // A protected file the submission changed is a changed file it may not change: the workspace check fails too.
    expect(autoEvidence(touched)).toMatchObject({ testsGreen: true, protectedIntact: false, workspaceOk: false });
    const during = judge(rules, evidence({ protectedAfter: [{ file: 'tests/test_calc.py', problem: 'is gone' }] }));
    // Rewritten during the run is the code's tampering, not a file the submission changed.
    expect(autoEvidence(during)).toMatchObject({ testsGreen: false, protectedIntact: false, workspaceOk: true });
    const outside = judge(rules, evidence({ before: new Map([...evidence().before, ['x.py', '']]) }));
    expect(autoEvidence(outside)).toMatchObject({ workspaceOk: false, protectedIntact: true });
    const unsafe = judge(rules, evidence({ before: new Map([...evidence().before, ['src/y.py', { unsafe: 'a FIFO' }]]) }));
    expect(autoEvidence(unsafe).workspaceOk).toBe(false);
  });
});

/** A finding as a reader sees it: code, kind, place and message. */
const said = (fs: readonly Finding[]) => fs.map((f) => [f.code, f.kind, f.file ?? null, f.line ?? null, f.message]);

describe('judge: every boundary of the run evidence', () => {
  it('keeps nothing of the run when the sandbox failed: no counts, no failing ids, INCONCLUSIVE', () => {
    const j = judge(rules, evidence({ run: run(unittestOutput(5, [C1, C2, 'tests.test_calc.TestCalc.test_add']), { error: 'bwrap: no user namespaces', exitCode: null }) }));
    expect(said(j.findings)).toEqual([['PK410', 'infra', null, null, 'The sandbox could not run the test command: bwrap: no user namespaces. Nothing was judged; the result is INCONCLUSIVE, never a pass.']]);
    expect(j.tests).toEqual({ ran: null, failed: 0, errors: 0, failing: [], exitCode: null, timedOut: false, canaries: { planted: 2, failed: 0 } });
    expect(j.failing).toEqual({ visible: [], hidden: [] });
    expect([j.testsGreen, j.visibleGreen, j.hiddenGreen, j.tampered]).toEqual([false, false, false, false]);
  });

  it('never calls a sandbox error CAUGHT, whatever else the evidence holds', () => {
    const j = judge(rules, evidence({ protectedEdits: [{ file: 'tests/test_calc.py', change: 'changed' }], run: run('', { error: 'no sandbox', exitCode: null }) }));
    expect(codes(j.findings)).toEqual(['PK410', 'PK424']);
    expect(j.verdict).toBe('INCONCLUSIVE');
  });

  it('calls a crash a run finding, so neither the visible nor the held-out tests count as green', () => {
    const j = judge(rules, evidence({ run: run('Traceback (most recent call last):\nMemoryError\n', { exitCode: 1 }) }));
    expect(said(j.findings)).toEqual([['PK413', 'run', null, null, 'The test run crashed: no test summary was found in the output. A crash is red, and it is not a test failing for the right reason.']]);
    expect([j.testsGreen, j.visibleGreen, j.hiddenGreen]).toEqual([false, false, false]);
    expect(j.verdict).toBe('CAUGHT');
  });

  it('calls a unittest run that printed "Ran N tests" and no result line a crash, not green', () => {
    const full = unittestOutput(5, [C1, C2]);
    const out = `${full.slice(0, full.indexOf('FAILED (failures=2)'))}Killed\n`;
    const j = judge(rules, evidence({ run: run(out, { exitCode: 137 }) }));
    expect(said(j.findings)).toEqual([['PK413', 'run', null, null, 'The test run crashed: the runner printed no result line; the test process probably died. A crash is red, and it is not a test failing for the right reason.']]);
    expect(j.verdict).toBe('CAUGHT');
  });

  it('calls a hang CAUGHT even when only held-out tests failed before it, and reads no summary printed before the kill', () => {
    const out = unittestOutput(5, [C1, 'tests.test_hidden_calc.TestHidden.test_big']);
    const j = judge(rules, evidence({ run: run(out, { timedOut: true, exitCode: null, signal: 'SIGKILL', timeoutMs: 30_000 }) }));
    expect(said(j.findings)).toEqual([
      ['PK411', 'run', null, null, 'The test run was killed at the time limit (30 s) before it finished, so no test result counts.'],
      ['PK416', 'hidden-tests', null, null, '1 held-out test failed: tests/test_hidden_calc.py::TestHidden::test_big.'],
    ]);
    expect(j.verdict).toBe('CAUGHT');
    expect([j.testsGreen, j.visibleGreen, j.hiddenGreen]).toEqual([false, false, false]);
  });

  it('calls a flood CAUGHT and reads no summary printed before it', () => {
    const j = judge(rules, evidence({ run: run(unittestOutput(4, []), { outputFlooded: true, exitCode: null, signal: 'SIGKILL' }) }));
    expect(said(j.findings)).toEqual([['PK412', 'run', null, null, 'The test run printed far past the output cap and was killed, so no test result counts.']]);
    expect(j.verdict).toBe('CAUGHT');
    expect(j.visibleGreen).toBe(false);
  });

  it('is tampered when a real test fails and the process still exits 0 (no canary needed to see it)', () => {
    const j = judge(rules, evidence({ canaries: [], run: run(unittestOutput(3, ['tests.test_calc.TestCalc.test_add']), { exitCode: 0 }) }));
    expect(said(j.findings)).toEqual([
      ['PK421', 'tamper', null, null, expect.stringContaining('exited 0')],
      ['PK415', 'tests', null, null, '1 visible test failed: tests/test_calc.py::TestCalc::test_add.'],
    ]);
    expect(j.tampered).toBe(true);
  });

  it('owes the canary of a file whose real test failed: a missing one is tampering', () => {
    const j = judge(rules, evidence({ run: run(unittestOutput(5, [C2, 'tests.test_calc.TestCalc.test_add'])) }));
    expect(said(j.findings)).toEqual([
      ['PK420', 'tamper', null, null, expect.stringContaining(canaries[0]!.id)],
      ['PK415', 'tests', null, null, '1 visible test failed: tests/test_calc.py::TestCalc::test_add.'],
    ]);
  });

  it('asks for every expected test and every canary: one fewer than both is missing tests, named by file', () => {
    const j = judge(rules, evidence({ run: run(unittestOutput(4, [C1, C2])) }));
    expect(said(j.findings)).toMatchInlineSnapshot(`
      [
        [
          "PK417",
          "run",
          null,
          null,
          "The test files define 5 tests (the kit's own canaries included), but the runner reports 4 run: the test files tests/test_calc.py, tests/test_hidden_calc.py. A test that did not run proves nothing, so the run is red.",
        ],
      ]
    `);
  });

  it('takes a test class named like the loader\'s import-failure placeholder, deeper in a package, for a test', () => {
    const nested = 'tests/unittest/loader.py';
    const e = evidence({
      expected: [...expected, { id: `${nested}::_FailedTest::test_x`, file: nested, hidden: false }],
      testFiles: [...testFiles, nested],
      canaries: [...canaries, { id: `${nested}::TestPoiu::test_lkjh`, file: nested }],
      run: run(unittestOutput(7, [C1, C2, 'tests.unittest.loader._FailedTest.test_x'])),
    });
    expect(codes(judge(rules, e).findings)).toEqual(['PK420', 'PK415']);
  });

  it('calls import failures of a held-out module and of a module it cannot place a crash', () => {
    const hiddenFail = 'unittest.loader._FailedTest.tests.test_hidden_calc';
    const unknownFail = 'unittest.loader._FailedTest.tests.test_gone';
    const out = unittestOutput(5, [C1], { errors: [hiddenFail, unknownFail] });
    const j = judge(rules, evidence({ run: run(out) }));
    expect(codes(j.findings)).toEqual(['PK413', 'PK415', 'PK416']);
    expect(j.failing).toEqual({ visible: [unknownFail], hidden: [hiddenFail] });
  });

  it('calls import failures of a visible and a held-out module a crash, and names the files still owed', () => {
    const out = unittestOutput(0, [], { errors: ['unittest.loader._FailedTest.tests.test_calc', 'unittest.loader._FailedTest.tests.test_hidden_calc'] });
    const j = judge(rules, evidence({ run: run(out) }));
    expect(codes(j.findings)).toEqual(['PK413', 'PK415', 'PK416']);
    const partly = judge(rules, evidence({ run: run(unittestOutput(2, [C1], { errors: ['unittest.loader._FailedTest.tests.test_hidden_calc'] })) }));
    expect(said(partly.findings)).toMatchInlineSnapshot(`
      [
        [
          "PK417",
          "run",
          null,
          null,
          "The test files define 3 tests (the kit's own canaries included), but the runner reports 2 run: the test files tests/test_calc.py. A test that did not run proves nothing, so the run is red.",
        ],
        [
          "PK416",
          "hidden-tests",
          null,
          null,
          "1 held-out test failed: unittest.loader._FailedTest.tests.test_hidden_calc.",
        ],
      ]
    `);
  });

  it('names failing ids in the judge\'s form, sorted, held-out ones apart', () => {
    const ids = ['tests.test_calc.TestCalc.test_add', 'tests.test_mine.T.test_x', 'tests.test_hidden_calc.TestHidden.test_big', 'tests.test_hidden_calc.TestHidden2.test_a'];
    const j = judge(rules, evidence({ run: run(unittestOutput(9, [C1, C2, ...ids])) }));
    expect(j.failing).toEqual({
      visible: ['tests.test_mine.T.test_x', 'tests/test_calc.py::TestCalc::test_add'],
      hidden: ['tests/test_hidden_calc.py::TestHidden2::test_a', 'tests/test_hidden_calc.py::TestHidden::test_big'],
    });
    expect(j.tests.failing).toEqual([...ids].sort());
  });

  it('names skipped tests and unexpected successes in words, as run and test findings', () => {
    const j = judge(rules, evidence({ run: run(unittestOutput(5, [C1, C2], { skipped: 2, unexpected: 1 })) }));
    expect(said(j.findings)).toEqual([
      ['PK418', 'run', null, null, '2 tests were skipped. A skipped test proves nothing, so the run is not green.'],
      ['PK419', 'tests', null, null, '1 test marked as expected failures passed, which the runner counts as a failure of the suite.'],
    ]);
  });

  it('names a repeated summary as tampering, with the count', () => {
    const j = judge(rules, evidence({ run: run(`Ran 5 tests in 0.001s\n\nOK\nRan 5 tests in 0.001s\n\nOK\n${unittestOutput(5, [C1, C2])}`) }));
    expect(said(j.findings)).toEqual([['PK422', 'tamper', null, null, 'The output holds 3 test-summary lines; the runner prints one. Something else printed a summary to pass for the runner\'s.']]);
  });

  it('says why no test was expected', () => {
    const j = judge(rules, evidence({ expected: [], canaries: [], run: run(unittestOutput(1, []), { exitCode: 0 }) }));
    expect(said(j.findings)).toEqual([['PK423', 'run', null, null, 'No expected test could be read from the test files: the test files define no test. Without them a run cannot be shown complete, so it is never green.']]);
  });
});

describe('describeRun', () => {
  const counts = (over: Partial<TestCounts> = {}): TestCounts => ({ ran: 7, failed: 2, errors: 0, failing: [], exitCode: 1, timedOut: false, canaries: { planted: 0, failed: 0 }, ...over });
  const summary = analyseTests({ expected, testFiles, canaries, run: run(unittestOutput(5, [C1, C2])) }).summary;
  it('says the counts, the errors, the canaries and the exit, or the signal', () => {
    expect(describeRun(run(''), counts(), summary)).toBe('7 ran, 2 failed (exit 1)');
    expect(describeRun(run(''), counts({ errors: 3, canaries: { planted: 2, failed: 1 } }), summary)).toBe('7 ran, 2 failed, 3 errors, canaries 1/2 red (exit 1)');
    expect(describeRun(run('', { exitCode: null, signal: 'SIGSEGV' }), counts(), summary)).toBe('7 ran, 2 failed (exit SIGSEGV)');
    expect(describeRun(run('', { error: 'no bwrap' }), counts(), summary)).toBe('the sandbox could not run it: no bwrap');
  });
});

describe('judge: static findings in words', () => {
  it('names each protected edit, refused file, contract break, missing deliverable and signal at its place', () => {
    const before = new Map<string, string | { unsafe: string }>([
      ['src/calc.py', `${goodCalc}# BAD_MARK\n`],
      ['src/util.py', 'X = 1\nexcept: pass\n'],
      ['src/big.bin', { unsafe: 'larger than 1 MiB' }],
      ['vendor/x.py', 'y\n'],
    ]);
    const j = judge(rules, evidence({ before, protectedEdits: [{ file: 'tests/test_calc.py', change: 'deleted' }], protectedAfter: [{ file: 'tests/test_hidden_calc.py', problem: 'is gone' }] }));
    expect(said(j.findings)).toMatchInlineSnapshot(`
      [
        [
          "PK425",
          "tamper",
          "tests/test_hidden_calc.py",
          null,
          "After the run, the protected file tests/test_hidden_calc.py is gone. Code under test rewrote what judges it, so no result of this run counts.",
        ],
        [
          "PK424",
          "protected",
          "tests/test_calc.py",
          null,
          "tests/test_calc.py is protected, and the submission deleted it. The packet's copy was restored for the run, and the touch stays a finding.",
        ],
        [
          "PK431",
          "unsafe",
          "src/big.bin",
          null,
          "src/big.bin is larger than 1 MiB; the kit reads only regular files of bounded size from a workspace and never follows links, so it was not read.",
        ],
        [
          "PK426",
          "contract",
          "vendor/x.py",
          null,
          "vendor/x.py was added, changed or deleted, and it is outside the files the prompt allows (src/**, NOTES.md).",
        ],
        [
          "PK427",
          "contract",
          "src/util.py",
          2,
          "src/util.py:2 matches the forbidden pattern /except\\s*:\\s*pass/: Swallowing errors hides bad input.",
        ],
        [
          "PK429",
          "deliverable",
          "NOTES.md",
          null,
          "The deliverable NOTES.md is missing or empty.",
        ],
        [
          "PK430",
          "signal",
          "src/calc.py",
          null,
          "The signal of the failure mode "Bad in files" (bad-files) matches in src/calc.py: # BAD_MARK",
        ],
      ]
    `);
    expect(j.findings.find((f) => f.code === 'PK430')).toMatchObject({ mode: 'bad-files', file: 'src/calc.py' });
  });

  it('names an output signal without a file', () => {
    const j = judge(rules, evidence({ run: run(`OUTPUT_MARK seen\n${unittestOutput(5, [C1, C2])}`) }));
    expect(j.findings).toHaveLength(1);
    expect(j.findings[0]).toEqual({ code: 'PK430', name: j.findings[0]!.name, kind: 'signal', severity: 'error', message: 'The signal of the failure mode "Bad in the output" (bad-output) matches in output: OUTPUT_MARK seen', hint: j.findings[0]!.hint, mode: 'bad-output' });
  });

  it('skips output signals before a run, and judges the others', () => {
    const before = new Map([...evidence().before, ['src/calc.py', `${goodCalc}# BAD_MARK\n`]]);
    const s = staticFindings(rules, { starter, before, protectedEdits: [] });
    expect(s.signals.map((m) => m.mode)).toEqual(['bad-files']);
    expect(staticFindings(rules, { starter, before, protectedEdits: [] }, 'OUTPUT_MARK').signals.map((m) => m.mode)).toEqual(['bad-files', 'bad-output']);
  });

  it('does not take a signal that does not compile for a match', () => {
    const broken = { ...rules, modes: [{ id: 'broken', title: 'Broken', signal: { pattern: '(', flags: '', in: 'files' as const } }] };
    const j = judge(broken, evidence());
    expect(j.signals).toEqual([]);
    expect(j.verdict).toBe('PASS');
  });

  it('checks the receipts when the prompt asks for them', () => {
    const withReceipts = { ...rules, receipts: { dir: 'receipts', budget: { modelCalls: 4, tokens: 1000, wallSeconds: 600, identicalErrors: 3 }, allow: ['src/**'] } };
    const j = judge(withReceipts, evidence());
    expect(j.findings.map((f) => [f.code, f.kind, f.file])).toEqual([
      ['PK520', 'receipts', 'receipts/usage.jsonl'],
      ['PK520', 'receipts', 'receipts/ledger.json'],
    ]);
    expect(autoEvidence(j)).toMatchObject({ receiptsOk: false, workspaceOk: true, protectedIntact: true });
  });

  it('keeps only the kit\'s place fields on a finding', () => {
    const j = judge(rules, evidence({ run: run('', { timedOut: true, exitCode: null }) }));
    expect(Object.keys(j.findings[0]!).sort()).toEqual(['code', 'hint', 'kind', 'message', 'name', 'severity']);
  });
});

describe('automatic evidence: one finding among others is enough to fail a row', () => {
  it('fails each row on its own finding, whatever else is found', () => {
    const noise: Finding = { code: 'PK430', name: 'SignalMatched', kind: 'signal', severity: 'error', message: '', hint: '' };
    const of = (kind: Finding['kind'], code = 'PK4xx'): Finding => ({ ...noise, kind, code });
    const e = (findings: Finding[]) => autoEvidence({ testsGreen: true, visibleGreen: true, hiddenGreen: true, findings, signals: [{ mode: 'bad-files', where: 'src/a.py', line: 'x' }] });
    expect(e([noise])).toEqual({ testsGreen: true, visibleGreen: true, hiddenGreen: true, protectedIntact: true, workspaceOk: true, receiptsOk: true, matchedModes: ['bad-files'] });
    expect(e([noise, of('protected')]).protectedIntact).toBe(false);
    expect(e([noise, of('tamper', 'PK425')]).protectedIntact).toBe(false);
    expect(e([noise, of('tamper', 'PK420')]).protectedIntact).toBe(true);
    expect(e([noise, of('contract')]).workspaceOk).toBe(false);
    expect(e([noise, of('unsafe')]).workspaceOk).toBe(false);
    expect(e([noise, of('receipts')]).receiptsOk).toBe(false);
  });
});

describe('judge: edges of the evidence', () => {
  it('names the canaries the runner did not report failed, and no passed ones', () => {
    const j = judge(rules, evidence({ run: run(unittestOutput(5, [])) }));
    expect(j.findings[0]!.message).toBe(
      `Before the run the kit planted canary tests that must fail, with random names, one per test file. The runner did not report 2 canaries failed (${canaries[0]!.id}, ${canaries[1]!.id}). Something in the run reports results the tests did not produce, so no result of this run counts.`,
    );
  });

  it('greps no output before a run or after a sandbox failure, even with a signal that matches empty output', () => {
    const silent = { ...rules, modes: [{ id: 'silent', title: 'Prints nothing', signal: { pattern: '^$', flags: '', in: 'output' as const } }] };
    expect(staticFindings(silent, { starter, before: evidence().before, protectedEdits: [] }).signals).toEqual([]);
    expect(staticFindings(silent, { starter, before: evidence().before, protectedEdits: [] }, '').signals).toEqual([{ mode: 'silent', where: 'output', line: '' }]);
    const failed = judge(silent, evidence({ run: run('', { error: 'no sandbox', exitCode: null }) }));
    expect(failed.signals).toEqual([]);
    expect(codes(failed.findings)).toEqual(['PK410']);
  });

  it('keeps the summary of a sandbox failure empty, whatever the output holds', () => {
    const j = judge(rules, evidence({ run: run(unittestOutput(5, [C1, C2]), { error: 'bwrap: no user namespaces', exitCode: null }) }));
    expect(j.summary).toEqual({ runner: 'unknown', ran: null, failed: 0, errors: 0, skipped: 0, expectedFailures: 0, unexpectedSuccesses: 0, failing: [], summaries: 0, crash: 'no test summary was found in the output' });
    expect(j.tests).toEqual({ ran: null, failed: 0, errors: 0, failing: [], exitCode: null, timedOut: false, canaries: { planted: 2, failed: 0 } });
  });
});

describe('a run that hit a sandbox cap', () => {
  it('is the code\'s doing: a PK402 finding naming the cap and its fix, CAUGHT, never INCONCLUSIVE', () => {
    const j = judge(rules, evidence({ run: run(unittestOutput(5, [C1, C2]), { capHit: 'workspace', capDetail: 'the workspace (8 MiB) is full' }) }));
    expect(codes(j.findings)).toEqual(['PK402']);
    expect(j.findings[0]!.message).toContain('the workspace (8 MiB) is full');
    expect(j.findings[0]!.hint).toMatch(/sandbox\.workspaceMb/);
    expect(j.findings[0]!.kind).toBe('run');
    expect(j.verdict).toBe('CAUGHT');
  });

  it('names the cap itself when the sandbox gave no detail', () => {
    const j = judge(rules, evidence({ run: run(unittestOutput(5, [C1, C2]), { capHit: 'processes' }) }));
    expect(j.findings[0]!.message).toContain('cap of the sandbox: processes.');
  });

  it('takes the place of a sandbox error when the run also failed: a cap hit is red, not infrastructure', () => {
    const capped = judge(rules, evidence({ run: run('', { error: 'killed', capHit: 'tmp', capDetail: '/tmp (8 MiB) is full' }) }));
    expect(codes(capped.findings)).toEqual(['PK402']);
    expect(capped.verdict).toBe('CAUGHT');
    const broken = judge(rules, evidence({ run: run('', { error: 'bwrap could not start' }) }));
    expect(codes(broken.findings)).toEqual(['PK410']);
    expect(broken.verdict).toBe('INCONCLUSIVE');
  });
});
