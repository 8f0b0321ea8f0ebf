import { describe, expect, it } from 'vitest';
import { readRecord, recordReport, seal, type HarnessRecord } from '../../../src/judge/harness/record.ts';
import { canaryRunnerIds, forbidOverTokens, judge, recordFindings, screenFindings, signalOutput, summaryFromRecord, type Evidence, type JudgeRules } from '../../../src/judge/judge.ts';
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

  it('a broken record stays tampering when the run only reported a cap itself (it printed "MemoryError")', () => {
    const broken = record({ complete: false, problems: ['the record ends before the harness finished (the process died or was stopped)'] });
    expect(recordFindings(broken, { ...run, capHit: 'memory', capReported: true }).map((f) => [f.code, f.kind])).toEqual([['PK433', 'tamper']]);
    expect(recordFindings(broken, { ...run, capHit: 'runMemory' })).toEqual([]);
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

describe('the smaller parts of reading a record', () => {
  it('keeps an audit event with no test running as null, and fills what a line leaves out', () => {
    const r = readRecord(sealed([{ kind: 'audit', event: 'gc.get_objects', file: 'src/a.py', line: 2, detail: 'x' }, { kind: 'test', id: 'tests.test_a.A.test_x' }, { kind: 'module', file: 'tests/test_b.py', module: 'tests.test_b', ok: false, error: 'boom' }, { kind: 'unknown-kind' }, done]), KEY);
    expect(r.audit[0]!.test).toBeNull();
    expect(r.tests[0]).toEqual({ id: 'tests.test_a.A.test_x', file: '', outcome: 'error', message: '', subtestsFailed: 0, tampered: false, foreign: false });
    expect(r.modules).toEqual([{ file: 'tests/test_b.py', module: 'tests.test_b', ok: false, error: 'boom' }]);
    expect(r.problems).toEqual([]);
  });

  it('reads a screen with no findings or rows as empty, and a screen error without a file as the screen\'s', () => {
    const r = readRecord(sealed([{ kind: 'screen' }, { kind: 'screen-error', error: 'SyntaxError' }, done]), KEY);
    expect(r.screen).toEqual({ findings: [], normalized: {} });
    expect(r.screenErrors).toEqual(['the screen: SyntaxError']);
  });

  it('counts a complete record with no test as run, with none', () => {
    expect(summaryFromRecord(record({ complete: true })).ran).toBe(0);
    expect(summaryFromRecord(record({ complete: true })).crash).toBeUndefined();
  });

  it('names the module\'s last error line, or nothing when it left none', () => {
    expect(summaryFromRecord(record({ modules: [{ file: 'tests/test_a.py', module: 'tests.test_a', ok: false }] })).crash).toBe('the test module tests.test_a failed to import (a syntax or import error, not a test failure): ');
  });
});

describe('what the screen and the output signals see', () => {
  it('counts further uses of a primitive in the same file into its first finding', () => {
    const r = record({ screen: { findings: [3, 5, 9].map((line) => ({ file: 'src/a.py', line, col: 0, primitive: 'gc', detail: 'imports gc' })).concat([{ file: 'src/b.py', line: 1, col: 0, primitive: 'gc', detail: 'imports gc' }]), normalized: {} } });
    const found = screenFindings(r, new Map(), new Map([['src/a.py', 'a\nb\nc\nd\ne\nf\ng\nh\ni\n'], ['src/b.py', 'import gc\n']]));
    expect(found.map((f) => [f.file, f.line])).toEqual([['src/a.py', 3], ['src/b.py', 1]]);
    expect(found[0]!.message).toContain('found gc at src/a.py:3 (and 2 more in the file): imports gc');
    expect(found[1]!.message).not.toContain('more in the file');
  });

  it('reads the record\'s report, canaries left out, before what the run printed', () => {
    const e = { run: { ...run, output: 'printed by the code' }, canaries: [{ id: 'tests/test_a.py::Canary::test_c', file: 'tests/test_a.py' }], record: record({ tests: [t('tests.test_a.A.test_x', 'failed', { message: 'AssertionError: 1 != 2' }), t('tests.test_a.Canary.test_c', 'failed')] }) };
    expect([...canaryRunnerIds(e)]).toEqual(['tests.test_a.Canary.test_c']);
    const text = signalOutput(e);
    expect(text).toContain('FAIL: test_x (tests.test_a.A.test_x)');
    expect(text).not.toContain('test_c');
    expect(text.endsWith('\nprinted by the code')).toBe(true);
    expect(signalOutput({ ...e, record: undefined })).toBe('printed by the code');
  });

  it('flags a compiled module only where the candidate added or changed it', () => {
    const rules: JudgeRules = { contract: { allow: ['src/**'], forbid: [] }, deliverables: [], modes: [] };
    const base = { protectedEdits: [], protectedAfter: [], expected: [], testFiles: [], canaries: [], run, record: record({}) } as unknown as Evidence;
    const codes = (before: Map<string, string>, starter: Map<string, string>) => judge(rules, { ...base, before, starter }).findings.filter((f) => f.code === 'PK436').map((f) => f.file);
    expect(codes(new Map([['src/x.so', 'ELF'], ['src/y.pyd', 'MZ'], ['src/z.pyo', 'x'], ['src/w.py', 'x = 1\n']]), new Map())).toEqual(['src/x.so', 'src/y.pyd', 'src/z.pyo']);
    expect(codes(new Map([['src/x.so', 'ELF']]), new Map([['src/x.so', 'ELF']]))).toEqual([]);
  });
});

describe('the seal and the shape of each line', () => {
  it('seals as the harness does (Python\'s OpenSSL HMAC-SHA256, hex)', () => {
    // Computed by the harness's own primitive: _hashlib.hmac_new(bytes([7]) * 32, digestmod='sha256').
    expect(seal(KEY, '{"kind":"done","seq":0}')).toBe('990b025af23b39e32985c9501b0c4579fb729b1d200ae659dd6b5217cb7d2222');
  });

  it('reads a record whose last line has no newline', () => {
    const text = sealed([{ kind: 'hello' }, done]).replace(/\n$/, '');
    expect(readRecord(text, KEY)).toMatchObject({ complete: true, problems: [] });
  });

  it('refuses a seal with anything after it, and a line that is only a seal', () => {
    const body = '{"kind":"done","seq":0}';
    expect(readRecord(`${body} ${seal(KEY, body)}00\n`, KEY).problems[0]).toMatch(/seal/);
    expect(readRecord(` ${seal(KEY, '')}\n`, KEY).problems).toEqual(['line 1 of the record does not carry the run\'s seal (written by something other than the harness)']);
  });

  it('refuses sealed bodies that are null or a number', () => {
    for (const body of ['null', '5', '"text"']) expect(readRecord(`${body} ${seal(KEY, body)}\n`, KEY).problems).toEqual(['line 1 of the record is not a JSON object']);
  });

  it('keeps every outcome the harness knows, and flags only exactly true', () => {
    const outcomes = ['passed', 'failed', 'error', 'skipped', 'expected-failure', 'unexpected-success'];
    const r = readRecord(sealed([...outcomes.map((o, i) => ({ kind: 'test', id: `t${i}`, outcome: o, tampered: i === 0 ? true : 'yes', foreign: i === 0 ? true : 1 })), done]), KEY);
    expect(r.tests.map((x) => x.outcome)).toEqual(outcomes);
    expect(r.tests.map((x) => [x.tampered, x.foreign])).toEqual([[true, true], ...outcomes.slice(1).map(() => [false, false])]);
  });

  it('reads numbers only as numbers, and lists only as lists', () => {
    const r = readRecord(sealed([
      { kind: 'audit', event: 'x', file: 'f', line: '3', detail: 'd', test: 4 },
      { kind: 'screen', findings: 'none', normalized: 'none' },
      { kind: 'integrity', where: 'w', problems: 'not a list' },
      { kind: 'screen', findings: [{ file: 'a', line: 'x' }], normalized: { a: 'not a list', b: [[1, 'x'], [2, 3], 'row', [4]] } },
      done,
    ]), KEY);
    expect(r.audit[0]).toMatchObject({ line: 0, test: null });
    expect(r.integrity[0]!.problems).toEqual([]);
    expect(r.screen).toEqual({ findings: [{ file: 'a', line: 0, col: 0, primitive: '', detail: '' }], normalized: { a: [], b: [[1, 'x']] } });
  });
});

describe('the report, line by line', () => {
  it('names unexpected successes and pytest errors as pytest and unittest print them, and counts modules as errors', () => {
    const r = record({
      modules: [{ file: 'tests/test_b.py', module: 'tests.test_b', ok: false, error: 'line one\n\n  line two  \n' }],
      tests: [t('tests.test_a.A.test_u', 'unexpected-success'), t('tests/test_a.py::test_e', 'error', { message: 'boom' }), t('tests.test_a.A.test_p', 'passed'), t('tests.test_a.A.test_x', 'expected-failure')],
    });
    expect(recordReport(r).split('\n')).toEqual([
      'ERROR: tests.test_b (unittest.loader._FailedTest.tests.test_b)',
      '    line one',
      '      line two  ',
      '',
      'UNEXPECTED SUCCESS: test_u (tests.test_a.A.test_u)',
      '',
      '',
      'ERROR tests/test_a.py::test_e',
      '    boom',
      '',
      '-'.repeat(70),
      'Ran 4 tests (the kit\'s harness record)',
      'FAILED (errors=2)',
    ]);
    expect(recordReport(record({ tests: [t('tests.test_a.A.test_x', 'failed')] })).split('\n').at(-1)).toBe('FAILED (failures=1)');
  });
});

describe('the judge\'s reading of a record, in detail', () => {
  const rules: JudgeRules = { contract: { allow: ['src/**'], forbid: [{ pattern: 'fork', reason: 'No fork.' }] }, deliverables: [], modes: [] };
  const many = Array.from({ length: 8 }, (_, i) => ({ id: `tests/test_a.py::A::test_${i}`, file: 'tests/test_a.py', hidden: false })) as ExpectedTest[];
  const base = (r: HarnessRecord, extra: Partial<Evidence> = {}): Evidence => ({ starter: new Map(), before: new Map(), protectedEdits: [], protectedAfter: [], expected: many, testFiles: ['tests/test_a.py', 'tests/test_b.py'], canaries: [], run, record: r, ...extra });

  it('names at most six tests never run, and how many more', () => {
    const j = judge(rules, base(record({ tests: [t('tests.test_a.A.test_0', 'passed')] })));
    const missing = j.findings.find((f) => f.code === 'PK417')!;
    expect(missing.message).toContain('the harness never ran tests/test_a.py::A::test_1, tests/test_a.py::A::test_2, tests/test_a.py::A::test_3, tests/test_a.py::A::test_4, tests/test_a.py::A::test_5, tests/test_a.py::A::test_6 and 1 more');
  });

  it('does not call the tests of a module that did not import missing: they crashed', () => {
    const j = judge(rules, base(record({ modules: [{ file: 'tests/test_a.py', module: 'tests.test_a', ok: false, error: 'ImportError: x' }] })));
    expect(j.findings.map((f) => f.code)).toEqual(['PK413', 'PK415']);
  });

  it('counts a record that ends early by its tests, with no crash named, and sorts the failing ids', () => {
    const s = summaryFromRecord(record({ complete: false, problems: ['cut'], tests: [t('tests.test_a.A.test_z', 'failed'), t('tests.test_a.A.test_b', 'failed')], modules: [{ file: 'tests/test_b.py', module: 'tests.test_b', ok: false }] }));
    expect(s.ran).toBe(3);
    expect(s.failing).toEqual(['tests.test_a.A.test_b', 'tests.test_a.A.test_z', 'unittest.loader._FailedTest.tests.test_b']);
    expect(summaryFromRecord(record({ complete: false, tests: [t('tests.test_a.A.test_b', 'passed')] })).crash).toBeUndefined();
    expect(summaryFromRecord(record({ tests: [t('tests.test_a.A.test_b', 'passed'), t('tests/test_a.py::test_q', 'passed')] })).runner).toBe('pytest');
  });

  it('says in each finding what it found and where', () => {
    const r = record({
      problems: ['first problem', 'second problem'],
      complete: false,
      integrity: [{ where: 'after tests.test_a.A.test_x', problems: ['builtins.len was replaced'] }],
      audit: [{ event: 'sys.settrace', file: 'src/a.py', line: 7, detail: 'called from code under test', test: null }],
    });
    const [broken, machinery, audit] = recordFindings(r, run);
    expect(broken!.message).toContain('Here first problem; second problem, so');
    expect(machinery!.message).toContain('after tests.test_a.A.test_x it found: builtins.len was replaced');
    expect(audit!.message).toContain('At src/a.py:7 the code under test asked for sys.settrace (called from code under test)');
    expect(recordFindings(record({}), { ...run, outputTruncated: true })[0]!.message).toContain('more than the 65536 bytes kept per stream');
    const foreign = recordFindings(record({ tests: [t('x', 'error', { foreign: true, message: 'the test is not a function' })] }), run)[0]!;
    expect(foreign.message).toContain('the first is not a function');
  });

  it('keeps the screen\'s words in its findings, and a finding on a line the file does not have', () => {
    const r = record({ screen: { findings: [{ file: 'src/a.py', line: 1, col: 0, primitive: 'coding-cookie', detail: 'declares utf-7' }, { file: 'src/a.py', line: 40, col: 0, primitive: 'eval', detail: 'calls eval' }], normalized: {} } });
    const found = screenFindings(r, new Map([['src/a.py', '\n']]), new Map([['src/a.py', '# coding: utf-7\n']]));
    expect(found.map((f) => f.message)).toEqual([
      'src/a.py:1 declares a source encoding other than UTF-8 (declares utf-7). Python decodes the file that way, so what a reader and a pattern see is not what runs.',
      'The static screen, run on the candidate\'s files before any of them is imported, found eval at src/a.py:40: calls eval. Candidate code needs such a primitive only to reach the tests that judge it.',
    ]);
  });

  it('reports a forbidden pattern for each file it is in, whatever other findings the file has', () => {
    const r = record({ screen: { findings: [], normalized: { 'src/a.py': [[2, 'os.fork()']], 'src/b.py': [[5, 'os.fork()']], 'src/c.py': [[1, 'x=1']] } } });
    const other = forbidOverTokens(rules.contract, r, [])[0]!;
    const unrelated = { ...other, code: 'PK426' };
    expect(forbidOverTokens(rules.contract, r, [other, unrelated]).map((f) => [f.file, f.line])).toEqual([['src/b.py', 5]]);
    expect(forbidOverTokens(rules.contract, r, [{ ...other, file: 'src/c.py' }]).map((f) => f.file)).toEqual(['src/a.py', 'src/b.py']);
    expect(forbidOverTokens(rules.contract, r, [])[1]!.message).toBe('src/b.py:5 matches the forbidden pattern /fork/: No fork.');
  });

  it('names a compiled module by its file, and only a real compiled one', () => {
    const j = judge(rules, base(record({ tests: many.map((m) => t(m.id.replace('tests/test_a.py::', 'tests.test_a.').replaceAll('::', '.'), 'passed')) }), { expected: many, before: new Map([['src/mod.so.txt', 'x'], ['src/mod.pyc', 'x']]) }));
    const compiledFindings = j.findings.filter((f) => f.code === 'PK436');
    expect(compiledFindings.map((f) => f.file)).toEqual(['src/mod.pyc']);
    expect(compiledFindings[0]!.message).toBe('The static screen, run on the candidate\'s files before any of them is imported, found compiled-code at src/mod.pyc:1: a compiled module that Python imports without its source, out of the screen\'s sight. Candidate code needs such a primitive only to reach the tests that judge it.');
  });
});

describe('the judge takes the screen\'s findings and the token stream into its verdict', () => {
  it('names a primitive and a forbidden pattern the raw text dodged, and is not green', () => {
    const rules: JudgeRules = { contract: { allow: ['src/**'], forbid: [{ pattern: 'eval\\(', reason: 'No eval.' }] }, deliverables: [], modes: [] };
    const expected = [{ id: 'tests/test_a.py::A::test_x', file: 'tests/test_a.py', hidden: false }] as ExpectedTest[];
    const r = record({
      tests: [t('tests.test_a.A.test_x', 'passed')],
      screen: { findings: [{ file: 'src/a.py', line: 2, col: 0, primitive: 'eval', detail: 'calls eval' }], normalized: { 'src/a.py': [[2, 'x=eval("1")']] } },
    });
    const e: Evidence = { starter: new Map([['src/a.py', 'x = 0\n']]), before: new Map([['src/a.py', 'import builtins\nx = eval ("1")\n']]), protectedEdits: [], protectedAfter: [], expected, testFiles: ['tests/test_a.py'], canaries: [], run, record: r };
    const j = judge(rules, e);
    expect(j.findings.map((f) => [f.code, f.file, f.line])).toEqual([['PK436', 'src/a.py', 2], ['PK427', 'src/a.py', 2]]);
    expect(j.verdict).toBe('CAUGHT');
    expect(j.tampered).toBe(true);
  });
});
