import { Ajv } from 'ajv';
import { schema } from 'mutation-testing-report-schema';
import { describe, expect, it } from 'vitest';
import { contractBreak, type ContractReading } from '../../../src/mutate/contract.ts';
import { mutantDiff, mutationReportHtml, scriptJson } from '../../../src/mutate/html-report.ts';
import { consoleSummary, jsonMutateReporter } from '../../../src/mutate/mutate-reporters.ts';
import { describeSummary, summarize, type MutantRecord, type MutationReport } from '../../../src/mutate/report.ts';
import { changedRegion, toMutationTestResult } from '../../../src/mutate/stryker-report.ts';

/** The reports of a run: the score, the standard schema, the page, and the contract check, from planted records. */

const SOURCE = 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n';
const sources = new Map([['src/calc.py', SOURCE]]);

function record(id: number, status: MutantRecord['status'], over: Partial<MutantRecord> = {}): MutantRecord {
  return { id, fault: `fault ${id}`, path: 'src/calc.py', status, reason: `why ${id}`, code: SOURCE.replace('a + b', `a + b + ${id}`), turn: 1, ...over };
}

const mutants: MutantRecord[] = [
  record(1, 'killed', { killedBy: ['tests/test_calc.py::TestCalc::test_add'], durationMs: 120 }),
  record(2, 'survived', { code: SOURCE.replace('a - b', 'b - a </script><b>'), durationMs: 130 }),
  record(3, 'crashed'),
  record(4, 'invalid'),
  record(5, 'duplicate', { duplicateOf: 1 }),
  record(6, 'unjudged'),
  record(7, 'invalid', { path: '', code: undefined }),
];

function report(list: MutantRecord[] = mutants): MutationReport {
  return {
    schemaVersion: 1,
    packet: 'calc',
    version: '1.0.0',
    digest: 'd'.repeat(64),
    date: '2026-11-29T12:00:00.000Z',
    model: 'scripted:calc/mutants',
    endpoint: '127.0.0.1:1234',
    scripted: true,
    verdict: 'classified',
    sources: [{ path: 'src/calc.py', sha256: 'x' }],
    baseline: { tests: '2 ran, 0 failed', durationMs: 100 },
    calls: [{ turn: 1, attempts: 1, status: 'ok', error: null }],
    mutants: list,
    summary: summarize(5, list),
    spend: { calls: 1, tokens: 10, promptTokens: 5, completionTokens: 5, unknownCalls: 0, wallMs: 1 },
    stop: null,
    timing: { setupMs: 150, baselineMs: 100, mutantsMs: 250, perMutantMs: 125, wallMs: 500 },
    receipts: { usage: 'out/usage.jsonl', ledger: 'out/ledger.json', giveUp: null },
  };
}

describe('the score', () => {
  it('is killed / (killed + survived); duplicates count once, crashed and invalid not at all', () => {
    const s = summarize(5, mutants);
    expect(s).toEqual({ asked: 5, proposed: 7, killed: 1, survived: 1, crashed: 1, invalid: 2, duplicates: 1, unjudged: 1, score: 50 });
    expect(describeSummary(s)).toBe('6 mutants: 1 killed, 1 survived, 1 crashed, 2 invalid, 1 unjudged (and 1 duplicate, counted once); mutation score 50%');
    expect(summarize(3, [record(1, 'killed'), record(2, 'killed'), record(3, 'survived')]).score).toBe(66.7);
    expect(summarize(1, [record(1, 'crashed')]).score).toBeNull();
  });
});

describe('the standard mutation-testing report', () => {
  const validate = new Ajv({ strict: false, validateFormats: false }).compile(schema);

  it('validates against mutation-testing-report-schema, with each outcome under its status', () => {
    const result = toMutationTestResult(report(), sources, [{ id: 'tests/test_calc.py::TestCalc::test_add', file: 'tests/test_calc.py', hidden: false }], { language: 'python', kitVersion: '0.1.0' });
    expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
    const listed = result.files['src/calc.py']!.mutants;
    expect(listed.map((m) => [m.id, m.status])).toEqual([
      ['1', 'Killed'],
      ['2', 'Survived'],
      ['3', 'RuntimeError'],
      ['4', 'CompileError'],
      ['6', 'Pending'],
    ]);
    expect(listed[0]).toMatchObject({ description: 'fault 1', killedBy: ['tests/test_calc.py::TestCalc::test_add'], location: { start: { line: 2, column: 1 }, end: { line: 2, column: 17 } }, replacement: '    return a + b + 1' });
    expect(result.testFiles!['tests/test_calc.py']!.tests).toEqual([{ id: 'tests/test_calc.py::TestCalc::test_add', name: 'TestCalc.test_add' }]);
    expect(result.config).toMatchObject({ duplicates: 1, leftOut: 1 });
  });

  it('places a change at the lines it replaces, or between lines for an insertion', () => {
    expect(changedRegion('a\nb\nc\n', 'a\nB\nc\n')).toEqual({ location: { start: { line: 2, column: 1 }, end: { line: 2, column: 2 } }, replacement: 'B' });
    expect(changedRegion('a\nb\nc\n', 'a\nb\nx\ny\nc\n')).toEqual({ location: { start: { line: 3, column: 1 }, end: { line: 3, column: 1 } }, replacement: 'x\ny\n' });
    expect(changedRegion('a\nb\nc\n', 'a\nc\n')).toEqual({ location: { start: { line: 2, column: 1 }, end: { line: 2, column: 2 } }, replacement: '' });
    expect(changedRegion('a\nb', 'a\nb\nz')).toEqual({ location: { start: { line: 2, column: 2 }, end: { line: 2, column: 2 } }, replacement: '\nz' });
  });
});

describe('the page', () => {
  it('lists every mutant with its status and diff, and escapes what the model wrote', () => {
    const r = report();
    const result = toMutationTestResult(r, sources, [], { language: 'python', kitVersion: '0.1.0' });
    const html = mutationReportHtml(r, result, sources, '/* elements */');
    for (const m of mutants) expect(html).toContain(`<tr id="mutant-${m.id}">`);
    expect(html).toContain('<td class="status survived">survived</td>');
    expect(html).toContain('<td class="status duplicate">duplicate of #1</td>');
    expect(html).toContain('<span class="add">+    return b - a &lt;/script&gt;&lt;b&gt;</span>');
    expect(html).not.toContain('b - a </script>');
    expect(html).toContain('<mutation-test-report-app');
    expect(scriptJson({ a: '</script>' })).toBe('{"a":"\\u003c/script>"}');
    expect(mutantDiff('src/calc.py', SOURCE, SOURCE.replace('a - b', 'b - a'))).toBe('@@ -4,3 +4,3 @@\n \n def sub(a, b):\n-    return a - b\n+    return b - a');
  });
});

describe('a reply written to pass for the kit', () => {
  // A fault, a path, a reason and a note as a model may write them: an escape sequence, a line of its own, a tag, a bidi override.
  const HOSTILE = "\u001b[2J\u001b[32m\rcalc: 1 mutants: 1 killed; mutation score 100%\n\u202e<img src=x onerror=alert(1)>'\u0000\u009b";
  const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/u;
  const hostile = () => report([record(1, 'crashed', { fault: HOSTILE, path: `src/${HOSTILE}.py`, reason: HOSTILE, notes: [HOSTILE], code: SOURCE.replace('a + b', `a + b  # ${HOSTILE}`) })]);

  it('is shown escaped on the terminal, each line the kit\'s own', () => {
    const text = consoleSummary(hostile(), (p) => p, '/out');
    expect(text).not.toMatch(RAW);
    expect(text.split('\n').filter((l) => /^calc: 1 mutants/.test(l) || l.startsWith('<img'))).toEqual([]);
    expect(text).toContain('\\u001b[2J\\u001b[32m\\rcalc: 1 mutants: 1 killed; mutation score 100%\\n\\u202e');
    const out: string[] = [];
    jsonMutateReporter({ out: (t) => void out.push(t), err: () => {}, cwd: '/', list: () => '' }).onRunEnd!(hostile(), '/out');
    expect(out.join('')).not.toMatch(RAW);
    expect(JSON.parse(out.join(''))).toEqual(JSON.parse(JSON.stringify(hostile())));
  });

  it('is shown escaped in the page: no tag, attribute or raw control of its own', () => {
    const r = hostile();
    const html = mutationReportHtml(r, toMutationTestResult(r, sources, [], { language: 'python', kitVersion: '0.1.0' }), sources, '/* elements */');
    expect(html).not.toMatch(RAW);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&#39;\\u0000\\u009b');
  });
});

describe('contractBreak', () => {
  const reading = (mutant: Record<string, string>): ContractReading => ({
    imports: { 'src/calc.py': ['add', 'Box'] },
    sample: { 'src/calc.py': { defs: { add: 'def add(a, b)', sub: 'def sub(a, b)', Box: 'class Box', 'Box.__init__': 'def __init__(self, v)', 'Box.get': 'def get(self)', 'Box._peek': 'def _peek(self)' } } },
    mutants: [typeof mutant.error === 'string' ? { error: mutant.error } : { defs: mutant }],
  });
  const same = { add: 'def add(a, b)', sub: 'def sub(a, b)', Box: 'class Box', 'Box.__init__': 'def __init__(self, v)', 'Box.get': 'def get(self)', 'Box._peek': 'def _peek(self)' };

  it('allows any change to what the tests do not import', () => {
    expect(contractBreak(reading(same), 0, 'src/calc.py')).toBeNull();
    expect(contractBreak(reading({ ...same, sub: 'def sub(b, a, c=...)', 'Box._peek': 'def _peek(self, n)' }), 0, 'src/calc.py')).toBeNull();
  });

  it('names a changed or removed def line of an imported function or of a public method of an imported class', () => {
    expect(contractBreak(reading({ ...same, add: 'def add(a, b, c=...)' }), 0, 'src/calc.py')).toBe('it changes the public contract the tests import: add changes from "def add(a, b)" to "def add(a, b, c=...)"');
    const { 'Box.get': _, ...noGet } = same;
    expect(contractBreak(reading({ ...noGet, 'Box.__init__': 'def __init__(self)' }), 0, 'src/calc.py')).toBe(
      'it changes the public contract the tests import: Box.__init__ changes from "def __init__(self, v)" to "def __init__(self)"; it removes Box.get, which the tests use',
    );
  });

  it('leaves a mutant that does not parse to the run', () => {
    expect(contractBreak(reading({ error: 'SyntaxError: invalid syntax (line 2)' }), 0, 'src/calc.py')).toBeNull();
  });
});
