import { describe, expect, it } from 'vitest';
import { readRecord, recordReport, seal, type HarnessRecord } from '../../../src/judge/harness/record.ts';
import { forbidOverTokens, judge, recordFindings, screenFindings, summaryFromRecord, type Evidence, type JudgeRules } from '../../../src/judge/judge.ts';
import type { ExpectedTest } from '../../../src/judge/test-ids.ts';

const KEY = Buffer.alloc(32, 7);
const OTHER = Buffer.alloc(32, 8);

/** A record as the harness writes it: each event a sealed line, numbered from 0. */
function sealed(events: Record<string, unknown>[], key = KEY): string {
  return events.map((e, seq) => {
    const body = JSON.stringify({ ...e, seq });
    return `${body} ${seal(key, body)}\n`;
  }).join('');
}

const test = (id: string, outcome: string, extra: Record<string, unknown> = {}) => ({ kind: 'test', id, file: `tests/${id.split('.')[1]}.py`, outcome, message: '', subtestsFailed: 0, tampered: false, ...extra });
const done = { kind: 'done' };

describe('reading the harness record', () => {
  it('reads a sealed record whole', () => {
    const r = readRecord(sealed([{ kind: 'hello' }, { kind: 'module', file: 'tests/test_a.py', module: 'tests.test_a', ok: true }, test('tests.test_a.TestA.test_x', 'passed'), done]), KEY);
    expect(r.problems).toEqual([]);
    expect(r.complete).toBe(true);
    expect(r.tests).toEqual([{ id: 'tests.test_a.TestA.test_x', file: 'tests/test_a.py', outcome: 'passed', message: '', subtestsFailed: 0, tampered: false, foreign: false }]);
    expect(r.modules).toEqual([{ file: 'tests/test_a.py', module: 'tests.test_a', ok: true }]);
  });

  it('stops at a line sealed with another key, and reads nothing after it', () => {
    const good = sealed([{ kind: 'hello' }]);
    const forged = sealed([{ kind: 'hello' }, test('tests.test_a.TestA.test_x', 'passed'), done], OTHER).split('\n').slice(1).join('\n');
    const r = readRecord(good + forged, KEY);
    expect(r.complete).toBe(false);
    expect(r.tests).toEqual([]);
    expect(r.problems).toEqual(['line 2 of the record does not carry the run\'s seal (written by something other than the harness)']);
  });

  it('refuses a line without a seal, and a seal that is not hex', () => {
    expect(readRecord('{"kind":"done","seq":0}\n', KEY).problems[0]).toMatch(/line 1 .* seal/);
    expect(readRecord(`{"kind":"done","seq":0} ${'z'.repeat(64)}\n`, KEY).problems[0]).toMatch(/line 1 .* seal/);
  });

  it('refuses a replayed or skipped line (the sequence)', () => {
    const lines = sealed([{ kind: 'hello' }, test('tests.test_a.TestA.test_x', 'failed'), done]).split('\n');
    const replay = [lines[0], lines[0], lines[1], lines[2], ''].join('\n');
    expect(readRecord(replay, KEY).problems).toEqual(['line 2 of the record is out of sequence (0 where 1 was due)']);
    const skipped = [lines[0], lines[2], ''].join('\n');
    expect(readRecord(skipped, KEY).problems).toEqual(['line 2 of the record is out of sequence (2 where 1 was due)']);
  });

  it('calls lines after the end a problem', () => {
    const text = sealed([{ kind: 'hello' }, done, test('tests.test_a.TestA.test_x', 'passed')]);
    const r = readRecord(text, KEY);
    expect(r.complete).toBe(true);
    expect(r.tests).toEqual([]);
    expect(r.problems).toEqual(['1 line(s) follow the end of the record']);
  });

  it('says why a record without its end is broken: cut at the cap, or the process died', () => {
    const text = sealed([{ kind: 'hello' }]);
    expect(readRecord(text, KEY).problems).toEqual(['the record ends before the harness finished (the process died or was stopped)']);
    expect(readRecord(text, KEY, true).problems).toEqual(['the record was cut at its size cap']);
    expect(readRecord('', KEY).complete).toBe(false);
  });

  it('refuses a sealed body that is not a JSON object', () => {
    const body = '[1,2]';
    expect(readRecord(`${body} ${seal(KEY, body)}\n`, KEY).problems).toEqual(['line 1 of the record is not a JSON object']);
    const bad = 'not json';
    expect(readRecord(`${bad} ${seal(KEY, bad)}\n`, KEY).problems).toEqual(['line 1 of the record is not a JSON object']);
  });

  it('reads an unknown outcome as an error, and keeps the screen, the audit and the integrity events', () => {
    const r = readRecord(
      sealed([
        { kind: 'screen', findings: [{ file: 'src/a.py', line: 3, col: 0, primitive: 'gc', detail: 'imports gc' }], normalized: { 'src/a.py': [[4, 'os.fork()'], ['x', 1]] } },
        { kind: 'screen-error', file: 'src/b.py', error: 'too large' },
        { kind: 'audit', event: 'sys._getframe', file: 'src/a.py', line: 9, detail: 'a frame object', test: 'tests.test_a.TestA.test_x' },
        { kind: 'integrity', where: 'after tests.test_a.TestA.test_x', problems: ['builtins.len was replaced'] },
        test('tests.test_a.TestA.test_x', 'green'),
        done,
      ]),
      KEY,
    );
    expect(r.tests[0]!.outcome).toBe('error');
    expect(r.screen).toEqual({ findings: [{ file: 'src/a.py', line: 3, col: 0, primitive: 'gc', detail: 'imports gc' }], normalized: { 'src/a.py': [[4, 'os.fork()']] } });
    expect(r.screenErrors).toEqual(['src/b.py: too large']);
    expect(r.audit).toEqual([{ event: 'sys._getframe', file: 'src/a.py', line: 9, detail: 'a frame object', test: 'tests.test_a.TestA.test_x' }]);
    expect(r.integrity).toEqual([{ where: 'after tests.test_a.TestA.test_x', problems: ['builtins.len was replaced'] }]);
  });
});

function record(partial: Partial<HarnessRecord>): HarnessRecord {
  return { problems: [], complete: true, screen: null, screenErrors: [], modules: [], tests: [], integrity: [], audit: [], ...partial };
}
const t = (id: string, outcome: HarnessRecord['tests'][number]['outcome'], extra: Partial<HarnessRecord['tests'][number]> = {}) => ({ id, file: 'tests/test_a.py', outcome, message: '', subtestsFailed: 0, tampered: false, foreign: false, ...extra });

describe('the summary of a record', () => {
  it('counts a test with failing subTests once, as failed', () => {
    const s = summaryFromRecord(record({ tests: [t('tests.test_a.A.test_x', 'failed', { subtestsFailed: 11 }), t('tests.test_a.A.test_y', 'passed')] }));
    expect(s).toMatchObject({ runner: 'unittest', ran: 2, failed: 1, errors: 0, failing: ['tests.test_a.A.test_x'], summaries: 1 });
    expect(s.crash).toBeUndefined();
  });

  it('leaves skipped tests out of the count, and names them', () => {
    expect(summaryFromRecord(record({ tests: [t('tests.test_a.A.test_x', 'skipped'), t('tests.test_a.A.test_y', 'passed')] }))).toMatchObject({ ran: 1, skipped: 1, failing: [] });
  });

  it('calls a module that did not import a crash, named the way unittest names it', () => {
    const s = summaryFromRecord(record({ modules: [{ file: 'tests/test_a.py', module: 'tests.test_a', ok: false, error: 'Traceback\nImportError: no module named src.x' }] }));
    expect(s.failing).toEqual(['unittest.loader._FailedTest.tests.test_a']);
    expect(s.errors).toBe(1);
    expect(s.crash).toBe('the test module tests.test_a failed to import (a syntax or import error, not a test failure): ImportError: no module named src.x');
  });

  it('counts errors, expected failures and unexpected successes apart', () => {
    const s = summaryFromRecord(record({ tests: [t('tests.test_a.A.test_e', 'error'), t('tests.test_a.A.test_x', 'expected-failure'), t('tests.test_a.A.test_u', 'unexpected-success')] }));
    expect(s).toMatchObject({ ran: 3, failed: 0, errors: 1, expectedFailures: 1, unexpectedSuccesses: 1, failing: ['tests.test_a.A.test_e', 'tests.test_a.A.test_u'] });
  });

  it('has no count for a record that died before any test', () => {
    const s = summaryFromRecord(record({ complete: false }));
    expect(s.ran).toBeNull();
    expect(s.crash).toBe('the harness recorded no test; the test process probably died');
  });

  it('names pytest runs by their node ids', () => {
    expect(summaryFromRecord(record({ tests: [t('tests/test_a.py::test_x', 'passed')] })).runner).toBe('pytest');
  });
});

const run = { exitCode: 1, signal: null, timedOut: false, outputFlooded: false, output: '', durationMs: 5, timeoutMs: 30_000 };

describe('what the record itself is evidence of', () => {
  it('a broken record is tampering, unless the run was killed for its time or output', () => {
    const broken = record({ complete: false, problems: ['the record ends before the harness finished (the process died or was stopped)'] });
    expect(recordFindings(broken, run).map((f) => [f.code, f.kind])).toEqual([['PK433', 'tamper']]);
    expect(recordFindings(broken, { ...run, timedOut: true })).toEqual([]);
    expect(recordFindings(broken, { ...run, outputFlooded: true })).toEqual([]);
    expect(recordFindings(broken, { ...run, capHit: 'memory' })).toEqual([]);
  });

  it('names each change to the machinery once, each refused introspection once at its place, foreign tests together', () => {
    const r = record({
      integrity: [
        { where: 'loading the test modules', problems: ['unittest.case.TestCase.run was replaced'] },
        { where: 'after tests.test_a.A.test_x', problems: ['unittest.case.TestCase.run was replaced', 'builtins.len was replaced'] },
      ],
      audit: [
        { event: 'gc.get_objects', file: 'src/a.py', line: 4, detail: 'called from code under test', test: null },
        { event: 'gc.get_objects', file: 'src/a.py', line: 4, detail: 'called from code under test', test: 'x' },
      ],
      tests: [t('tests.test_a.A.test_x', 'error', { foreign: true, message: 'the test runs code from src/a.py, not from the packet\'s test files' }), t('tests.test_a.A.test_y', 'error', { foreign: true, message: 'the test is not a function' })],
    });
    const findings = recordFindings(r, run);
    expect(findings.map((f) => f.code)).toEqual(['PK434', 'PK435', 'PK438']);
    expect(findings[0]!.message).toContain('loading the test modules it found: unittest.case.TestCase.run was replaced, builtins.len was replaced');
    expect(findings[1]).toMatchObject({ file: 'src/a.py', line: 4, kind: 'tamper' });
    expect(findings[2]!.message).toBe('The harness found 2 tests whose method is not the packet\'s (tests.test_a.A.test_x, tests.test_a.A.test_y): the first runs code from src/a.py, not from the packet\'s test files. The harness runs only test methods written in the packet\'s test files, so these count as failed and as tampering.');
  });

  it('turns the screen\'s findings into findings at file:line, the coding cookie apart', () => {
    const r = record({ screen: { findings: [{ file: 'src/a.py', line: 1, col: 0, primitive: 'coding-cookie', detail: 'utf-7' }, { file: 'src/a.py', line: 3, col: 4, primitive: 'gc', detail: 'imports gc' }], normalized: {} } });
    const before = new Map([['src/a.py', '# coding: utf-7\nx = 1\nimport gc\n']]);
    const findings = screenFindings(r, new Map(), before);
    expect(findings.map((f) => [f.code, f.file, f.line])).toEqual([['PK437', 'src/a.py', 1], ['PK436', 'src/a.py', 3]]);
    expect(findings[1]!.hint).toContain('workspace.allowPrimitives');
    expect(recordFindings(r, run)).toEqual([]);
  });

  it('leaves out a primitive on a line the starter holds word for word (the author\'s), never a cookie', () => {
    const r = record({ screen: { findings: [{ file: 'src/a.py', line: 1, col: 0, primitive: 'coding-cookie', detail: 'utf-7' }, { file: 'src/a.py', line: 2, col: 4, primitive: 'computed-attr', detail: 'getattr' }, { file: 'src/a.py', line: 3, col: 4, primitive: 'computed-attr', detail: 'getattr' }], normalized: {} } });
    const starter = new Map([['src/a.py', '# coding: utf-7\n    getattr(gate, step)()\n']]);
    const before = new Map([['src/a.py', '# coding: utf-7\ngetattr(gate, step)()\ngetattr(os, name)()\n']]);
    expect(screenFindings(r, starter, before).map((f) => [f.code, f.line])).toEqual([['PK437', 1], ['PK436', 3]]);
    expect(screenFindings(undefined, starter, before)).toEqual([]);
  });

  it('calls a cut output a finding, but not twice for a flood', () => {
    expect(recordFindings(record({}), { ...run, outputTruncated: true }).map((f) => f.code)).toEqual(['PK439']);
    expect(recordFindings(record({}), { ...run, outputTruncated: true, outputFlooded: true })).toEqual([]);
  });
});

describe('forbid over the token stream', () => {
  const rules = { allow: ['src/**'], forbid: [{ pattern: 'eval\\(', reason: 'No eval.' }, { pattern: '\\bos\\.fork\\b', reason: 'No fork.' }] };
  const screened = record({ screen: { findings: [], normalized: { 'src/a.py': [[3, 'x=eval("1")'], [7, 'os.fork()']] } } });

  it('matches what spacing, split strings and getattr hid from the raw text', () => {
    const found = forbidOverTokens(rules, screened, []);
    expect(found.map((f) => [f.code, f.file, f.line])).toEqual([['PK427', 'src/a.py', 3], ['PK427', 'src/a.py', 7]]);
  });

  it('does not repeat a pattern the raw text already matched in that file', () => {
    const raw = forbidOverTokens(rules, screened, []).slice(0, 1);
    expect(forbidOverTokens(rules, screened, raw).map((f) => f.line)).toEqual([7]);
  });

  it('has nothing to say without a screen', () => {
    expect(forbidOverTokens(rules, undefined, [])).toEqual([]);
    expect(forbidOverTokens(rules, record({}), [])).toEqual([]);
  });
});

describe('the report of a record', () => {
  it('reads as a runner\'s report, without the canaries', () => {
    const r = record({
      modules: [{ file: 'tests/test_b.py', module: 'tests.test_b', ok: false, error: 'ImportError: x' }],
      tests: [t('tests.test_a.A.test_x', 'failed', { message: 'AssertionError: 1 != 2' }), t('tests.test_a.A.test_y', 'passed'), t('tests.test_a.Canary.test_c', 'failed'), t('tests.test_a.A.test_z', 'error', { message: 'KeyError: 3' })],
    });
    expect(recordReport(r, new Set(['tests.test_a.Canary.test_c']))).toBe(
      [
        'ERROR: tests.test_b (unittest.loader._FailedTest.tests.test_b)',
        '    ImportError: x',
        '',
        'FAIL: test_x (tests.test_a.A.test_x)',
        '    AssertionError: 1 != 2',
        '',
        'ERROR: test_z (tests.test_a.A.test_z)',
        '    KeyError: 3',
        '',
        '-'.repeat(70),
        'Ran 3 tests (the kit\'s harness record)',
        'FAILED (failures=1, errors=2)',
      ].join('\n'),
    );
  });

  it('says OK, names skips, and marks an incomplete record', () => {
    expect(recordReport(record({ tests: [t('tests.test_a.A.test_y', 'passed')] })).split('\n').slice(-2)).toEqual(['Ran 1 tests (the kit\'s harness record)', 'OK']);
    expect(recordReport(record({ complete: false, tests: [t('tests.test_a.A.test_y', 'skipped')] })).split('\n').slice(-2)).toEqual(['Ran 1 tests (the kit\'s harness record, incomplete)', 'OK (skipped=1)']);
    expect(recordReport(record({ tests: [t('tests/test_a.py::test_q', 'failed')] }))).toContain('FAILED tests/test_a.py::test_q');
  });
});

describe('the judge with a harness record', () => {
  const rules: JudgeRules = { contract: { allow: ['src/**'], forbid: [] }, deliverables: [], modes: [] };
  const expected: ExpectedTest[] = [
    { id: 'tests/test_a.py::A::test_x', file: 'tests/test_a.py', hidden: false },
    { id: 'tests/test_a.py::A::test_y', file: 'tests/test_a.py', hidden: false },
  ] as ExpectedTest[];
  const evidence = (r: HarnessRecord, extra: Partial<Evidence> = {}): Evidence => ({
    starter: new Map([['src/a.py', 'x = 1\n']]),
    before: new Map([['src/a.py', 'x = 2\n']]),
    protectedEdits: [],
    protectedAfter: [],
    expected,
    testFiles: ['tests/test_a.py'],
    canaries: [{ id: 'tests/test_a.py::Canary::test_c', file: 'tests/test_a.py' }],
    run,
    record: r,
    ...extra,
  });
  const green = [t('tests.test_a.A.test_x', 'passed'), t('tests.test_a.A.test_y', 'passed'), t('tests.test_a.Canary.test_c', 'failed')];

  it('passes a sound record with every test green and the canary red, whatever the output says', () => {
    const j = judge(rules, evidence(record({ tests: green }), { run: { ...run, output: 'FAIL: test_x (tests.test_a.A.test_x)\nRan 9 tests in 0.1s\n\nFAILED (failures=9)' } }));
    expect(j.findings).toEqual([]);
    expect(j.verdict).toBe('PASS');
    expect(j.tests).toMatchObject({ ran: 2, failed: 0, canaries: { planted: 1, failed: 1 } });
  });

  it('names the expected tests the harness never ran', () => {
    const j = judge(rules, evidence(record({ tests: [green[0]!, green[2]!] })));
    expect(j.verdict).toBe('CAUGHT');
    expect(j.findings.map((f) => f.code)).toEqual(['PK417']);
    expect(j.findings[0]!.message).toContain('the harness never ran tests/test_a.py::A::test_y');
  });

  it('is never green on a broken record, even with every recorded test passed', () => {
    const j = judge(rules, evidence(record({ tests: green, complete: false, problems: ['the record ends before the harness finished (the process died or was stopped)'] })));
    expect(j.verdict).toBe('CAUGHT');
    expect(j.tampered).toBe(true);
    expect(j.testsGreen).toBe(false);
  });

  it('reads the canary from the record: a canary recorded passed is tampering', () => {
    const j = judge(rules, evidence(record({ tests: [green[0]!, green[1]!, t('tests.test_a.Canary.test_c', 'passed')] })));
    expect(j.findings.map((f) => f.code)).toContain('PK420');
  });

  it('flags a compiled module the candidate added, which Python would import without its source', () => {
    const j = judge(rules, evidence(record({ tests: green }), { before: new Map([['src/a.py', 'x = 2\n'], ['src/b.pyc', '\u0000bytes']]) }));
    expect(j.findings.map((f) => [f.code, f.file])).toEqual([['PK436', 'src/b.pyc']]);
  });
});
