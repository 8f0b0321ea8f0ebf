import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv } from 'ajv';
import { schema } from 'mutation-testing-report-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { replyStoreFromDirs, startScriptedServer, type ScriptedServer } from '../../src/llm/scripted-server.ts';
import type { MutationReport } from '../../src/mutate/report.ts';
import { tempPackets, type TempPackets } from '../support/packet-fixtures.ts';

/**
 * `packet mutate` end to end, on the scaffold packet: planted replies served by the scripted
 * endpoint, each mutant judged in the sandbox. Every outcome from one planted reply (killed,
 * survived, crashed, invalid three ways, a duplicate, a diff), the receipts against the requests
 * the server saw, a malformed reply, a dead endpoint, a red sample, the offline default, the
 * standard report against its schema, and adopting the survivor.
 */
let t: TempPackets;
let server: ScriptedServer;
let sample: string;

const edit = (from: string, to: string) => {
  if (!sample.includes(from)) throw new Error(`fixture: "${from}" is not in the sample`);
  return sample.replace(from, to);
};

/** A test runner patched at import time to report every test passed: the judge's canaries expose it. */
const FORGER = `import unittest


def _pass(self, result=None):
    result = result or self.defaultTestResult()
    result.startTest(self)
    result.addSuccess(self)
    result.stopTest(self)
    return result


unittest.TestCase.run = _pass
`;

function env(): Record<string, string | undefined> {
  const { LLM_ENDPOINT: _a, OPENAI_BASE_URL: _b, OPENAI_API_KEY: _c, ...rest } = process.env;
  return rest;
}

async function mutate(args: string[]) {
  const io = memoryIo(t.root, { env: env() });
  const code = await runCli(['mutate', ...args], io);
  return { code, out: io.stdout, err: io.stderr };
}

const readJson = async <T>(rel: string): Promise<T> => JSON.parse(await readFile(path.join(t.root, rel), 'utf8')) as T;
const lines = async (rel: string) => (await readFile(path.join(t.root, rel), 'utf8')).trim().split('\n').filter(Boolean);
const seen = (model: string) => server.requests.filter((r) => r.path === '/v1/chat/completions' && r.model === model);

beforeAll(async () => {
  t = await tempPackets();
  await t.add('fixture');
  sample = await t.read('fixture', 'sample/src/duration.py');
  const items = [
    { fault: 'minutes count six seconds each', path: 'src/duration.py', code: edit('"m": 60', '"m": 6') },
    { fault: 'a value that is not text reaches the regular expression', path: 'src/duration.py', code: edit('if not isinstance(text, str) or not WHOLE.fullmatch(text):', 'if not WHOLE.fullmatch(text):') },
    { fault: 'imports a module that does not exist', path: 'src/duration.py', code: edit('import re\n', 'import re\nimport rex\n') },
    { fault: 'a strict flag nobody asked for', path: 'src/duration.py', code: edit('def parse_duration(text):', 'def parse_duration(text, strict=True):') },
    { fault: 'minutes count six seconds each, again', path: './src/duration.py', code: edit('"m": 60', '"m": 6').replace('import re\n', 'import re\n\n# six, not sixty\n') },
    { fault: 'the largest part wins', path: 'src/duration.py', diff: '@@ -13,1 +13,1 @@\n-    return sum(int(n) * UNITS[unit] for n, unit in PART.findall(text))\n+    return max(int(n) * UNITS[unit] for n, unit in PART.findall(text))\n' },
    { fault: 'a helper module', path: 'src/helper.py', code: 'X = 1\n' },
    { fault: 'a comment', path: 'src/duration.py', code: edit('import re\n', 'import re  \n\n# units\n') },
    { fault: 'every test reports a pass', path: 'src/duration.py', code: `${FORGER}\n${sample}` },
  ];
  await t.write('fixture', 'replies/mutants.md', `Nine mutants.\n\n\`\`\`json\n${JSON.stringify(items, null, 2)}\n\`\`\`\n`);
  await t.write('fixture', 'replies/garbage.md', 'I would rather explain the tests than break the code.\n');
  // A sample that is the starter: red.
  await t.add('red-sample');
  await t.write('red-sample', 'sample/src/duration.py', await t.read('red-sample', 'starter/src/duration.py'));
  await t.write('red-sample', 'replies/mutants.md', JSON.stringify(items.slice(0, 1)));
  // The offline default, with one mutant.
  await t.add('solo');
  await t.write('solo', 'replies/mutants.md', JSON.stringify(items.slice(0, 1)));
  await t.add('no-mutants');
  const dirs = new Map(['fixture', 'red-sample'].map((id) => [id, { dir: path.join(t.packets, id), replies: ['mutants.md', 'garbage.md', 'sample.md'] }]));
  server = await startScriptedServer({ replies: replyStoreFromDirs(dirs) });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await t?.dispose();
});

describe('packet mutate on a planted reply', () => {
  let run: Awaited<ReturnType<typeof mutate>>;
  let report: MutationReport;
  beforeAll(async () => {
    run = await mutate(['fixture', '--endpoint', server.url, '--model', 'scripted:fixture/mutants', '--out', 'out/m']);
    report = await readJson<MutationReport>('out/m/report.json');
  }, 120_000);

  it('classifies every mutant, and names why', () => {
    expect(run.code).toBe(0);
    expect(report.verdict).toBe('classified');
    expect(report.mutants.map((m) => [m.id, m.status])).toEqual([
      [1, 'killed'],
      [2, 'survived'],
      [3, 'crashed'],
      [4, 'invalid'],
      [5, 'duplicate'],
      [6, 'killed'],
      [7, 'invalid'],
      [8, 'invalid'],
      [9, 'invalid'],
    ]);
    const m = (id: number) => report.mutants[id - 1]!;
    expect(m(1).killedBy).toEqual(['tests/test_duration.py::TestDuration::test_hours_and_minutes', 'tests/test_hidden_duration.py::TestHiddenDuration::test_all_three_units']);
    expect(m(2).reason).toMatch(/^every test passes with it \(6 ran, 0 failed/);
    expect(m(3).reason).toMatch(/^PK413 .*failed to import/);
    expect(m(4).reason).toBe('it changes the public contract the tests import: parse_duration changes from "def parse_duration(text)" to "def parse_duration(text, strict=...)"');
    expect(m(5)).toMatchObject({ duplicateOf: 1, path: 'src/duration.py' });
    expect(m(6)).toMatchObject({ form: 'diff', status: 'killed' });
    expect(m(7).reason).toBe('not a usable mutant: "src/helper.py" is not one of the sample\'s source files (src/duration.py)');
    expect(m(8).reason).toBe('it changes nothing but blank lines, spacing or comments: no behaviour changed');
    expect(m(9).reason).toMatch(/^it forges the test results, so neither killed nor survived can be said: PK434 .*TestCase.run was replaced/);
    expect(report.summary).toEqual({ asked: 5, proposed: 9, killed: 2, survived: 1, crashed: 1, invalid: 4, duplicates: 1, unjudged: 0, score: 66.7 });
  });

  it('says so on the console, survivors as warnings with their fault', () => {
    expect(run.out).toMatch(/^mutate fixture 0\.1\.0: scripted:fixture\/mutants at 127\.0\.0\.1:\d+\n/);
    expect(run.out).toContain('fixture: 8 mutants: 2 killed, 1 survived, 1 crashed, 4 invalid (and 1 duplicate, counted once); mutation score 66.7%');
    expect(run.out).toContain('#5   duplicate of #1 src/duration.py: minutes count six seconds each, again');
    expect(run.err).toContain('PK623 warning Mutant #2 of "fixture" survives every test, visible and held out: a value that is not text reaches the regular expression (src/duration.py).');
  });

  it('sends the goal and the sample\'s sources, never the held-out tests or the failure catalog', () => {
    const [request] = seen('scripted:fixture/mutants');
    const body = JSON.parse(request!.body) as { messages: { content: string }[] };
    const text = body.messages.map((m) => m.content).join('\n');
    expect(text).toContain('```python path=src/duration.py\n"""Parse durations');
    expect(text).toContain('## Goal');
    expect(text).toContain('Propose 5 mutants');
    for (const secret of ['TestHiddenDuration', 'test_trailing_number_without_unit', 'Only the first unit counts', 'PART.search(', 'drops-minutes']) expect(text).not.toContain(secret);
  });

  it('keeps receipts as a model run does: one usage line per request the server saw', async () => {
    const usage = (await lines('out/m/usage.jsonl')).map((l) => JSON.parse(l) as { model: string; status: number; bytes_out: number });
    const requests = seen('scripted:fixture/mutants');
    expect(usage).toHaveLength(requests.length);
    expect(usage.map((u) => [u.status, u.bytes_out])).toEqual(requests.map((r) => [r.status, r.bytesIn]));
    const ledger = await readJson<{ calls: number; digest: string; verdict: string; tokens: number }>('out/m/ledger.json');
    expect(ledger).toMatchObject({ calls: 1, verdict: 'classified', digest: report.digest });
    expect(report.spend).toMatchObject({ calls: 1, tokens: ledger.tokens });
    expect(report.receipts).toEqual({ usage: 'out/m/usage.jsonl', ledger: 'out/m/ledger.json', giveUp: null });
  });

  it('writes the standard mutation-testing report, valid against its schema, and a page with each mutant', async () => {
    const result = await readJson<{ files: Record<string, { mutants: { id: string; status: string }[] }> }>('out/m/mutation-report.json');
    const validate = new Ajv({ strict: false, validateFormats: false }).compile(schema);
    expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
    expect(result.files['src/duration.py']!.mutants.map((m) => `${m.id} ${m.status}`)).toEqual(['1 Killed', '2 Survived', '3 RuntimeError', '4 CompileError', '6 Killed', '8 CompileError', '9 CompileError']);
    const html = await readFile(path.join(t.root, 'out/m/mutation-report.html'), 'utf8');
    expect(html).toContain('<td class="status survived">survived</td>');
    expect(html).toContain('<span class="del">-    if not isinstance(text, str) or not WHOLE.fullmatch(text):</span>');
    expect(html).toContain('customElements.define');
  });
});

describe('packet mutate when it cannot judge', () => {
  it('calls a malformed reply INCONCLUSIVE for that call, asks again, and exits 2', async () => {
    const r = await mutate(['fixture', '--endpoint', server.url, '--model', 'scripted:fixture/garbage', '--out', 'out/garbage']);
    expect(r.code).toBe(2);
    const report = await readJson<MutationReport>('out/garbage/report.json');
    expect(report.verdict).toBe('INCONCLUSIVE');
    expect(report.calls.map((c) => [c.turn, c.status, c.reason])).toEqual([
      [1, 'INCONCLUSIVE', 'the reply is malformed: it holds no JSON array'],
      [2, 'INCONCLUSIVE', 'the reply is malformed: it holds no JSON array'],
    ]);
    expect(report.mutants).toEqual([]);
    expect(await lines('out/garbage/usage.jsonl')).toHaveLength(seen('scripted:fixture/garbage').length);
    expect(seen('scripted:fixture/garbage')).toHaveLength(2);
    expect(r.err).toContain('PK622 Call 1 of the mutation run on "fixture" is INCONCLUSIVE: the reply is malformed: it holds no JSON array.');
    expect(r.err).toContain('PK624 The mutation run on "fixture" is INCONCLUSIVE: no reply could be read as mutants: it holds no JSON array.');
  }, 60_000);

  it('stops at the budget on a failing endpoint, with give_up.json, and exits 2', async () => {
    const r = await mutate(['fixture', '--endpoint', server.url, '--model', 'fault:500', '--max-calls', '1', '--out', 'out/down']);
    expect(r.code).toBe(2);
    const report = await readJson<MutationReport>('out/down/report.json');
    expect(report).toMatchObject({ verdict: 'INCONCLUSIVE', stop: 'model-calls', inconclusive: { cause: 'endpoint' } });
    expect(await lines('out/down/usage.jsonl')).toHaveLength(seen('fault:500').length);
    expect(await readJson('out/down/give_up.json')).toMatchObject({ reason: 'model-calls', limit: 1, packet: 'fixture' });
  }, 60_000);

  it('refuses a sample that is not green, before any call', async () => {
    const r = await mutate(['red-sample', '--endpoint', server.url, '--model', 'scripted:red-sample/mutants']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/PK621 The sample of "red-sample" cannot be mutated: PK415 /);
    expect(seen('scripted:red-sample/mutants')).toHaveLength(0);
  }, 60_000);
});

describe('packet mutate offline', () => {
  it('serves replies/mutants.md from the embedded endpoint by default', async () => {
    const r = await mutate(['solo']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^mutate solo 0\.1\.0: scripted:solo\/mutants at 127\.0\.0\.1:\d+ \(the embedded scripted endpoint\)/);
    expect(r.out).toContain('solo: 1 mutant: 1 killed, 0 survived, 0 crashed, 0 invalid; mutation score 100%');
    await access(path.join(t.root, 'out/mutate/solo/mutation-report.html'));
  }, 60_000);

  it('says a packet has no scripted mutants, and calls nothing', async () => {
    const r = await mutate(['no-mutants']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('PK620 The packet "no-mutants" has no replies/mutants.md');
  });
});

// Last: adopting rewrites the fixture's failure catalog, which then needs filling in before the packet loads again.
describe('adopting a mutant', () => {
  it('refuses a mutant the tests never judged, and an id that is not one', async () => {
    const crashed = await mutate(['fixture', '--adopt', '3', '--as', 'no-import', '--out', 'out/m']);
    expect(crashed.code).toBe(1);
    expect(crashed.err).toMatch(/PK626 Mutant #3 of "fixture" cannot be adopted: it is crashed/);
    const badId = await mutate(['fixture', '--adopt', '2', '--as', 'Not An Id', '--out', 'out/m']);
    expect(badId.err).toContain('PK626 Mutant #2 of "fixture" cannot be adopted: "Not An Id" is not a mode id.');
    const missing = await mutate(['fixture', '--adopt', '2', '--as', 'x', '--out', 'out/nowhere']);
    expect(missing.err).toContain('PK625 There is no mutation report of "fixture" at out/nowhere/report.json');
  });

  it('adopts the survivor as a failure mode to fill in, and check names what is missing', async () => {
    const adopted = await mutate(['fixture', '--adopt', '2', '--as', 'accepts-non-text', '--out', 'out/m']);
    expect(adopted.code).toBe(0);
    expect(adopted.out).toContain('adopted mutant #2 (survived: a value that is not text reaches the regular expression) as the failure mode "accepts-non-text"');
    expect(await t.read('fixture', 'mutants/accepts-non-text/src/duration.py')).toBe((await readJson<MutationReport>('out/m/report.json')).mutants[1]!.code);
    const failures = await t.read('fixture', 'failures.mdx');
    expect(failures).toContain('  - id: accepts-non-text\n    title: "a value that is not text reaches the regular expression"\n    mutant: mutants/accepts-non-text\n');
    expect(failures).toContain('## a value that is not text reaches the regular expression\n\nIn accepts-non-text, src/duration.py');
    expect(adopted.out).toMatch(/failures\.mdx:\d+:\d+ PK108 error "modes\[2\]" has no "signal", and it is required\./);
    expect(adopted.out).toMatch(/failures\.mdx:\d+:\d+ PK108 error "modes\[2\]" has no "caps", and it is required\./);
    // Until the entry is filled in, the packet does not load, and nothing more is adopted into it.
    const again = await mutate(['fixture', '--adopt', '6', '--as', 'largest-part', '--out', 'out/m']);
    expect(again.code).toBe(1);
    expect(again.err).toContain('fix the errors above first');
  });
});
