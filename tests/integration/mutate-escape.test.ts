import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { replyStoreFromDirs, startScriptedServer, type ScriptedServer } from '../../src/llm/scripted-server.ts';
import { tempPackets, type TempPackets } from '../support/packet-fixtures.ts';

/**
 * `packet mutate` on a reply written to pass for the kit: each fault carries an escape sequence
 * that clears the terminal, a newline and a forged summary line, a tag and a bidi override, and
 * one path does too. The console, the diagnostics, report.json, mutation-report.json and
 * mutation-report.html show them escaped: no raw control character, no line or tag of their own.
 */
const HOSTILE = '\u001b[2J\u001b[32m\rfixture: 1 mutants: 1 killed; mutation score 100%\n<script>alert(1)</script>\u202e\u0085';
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/u;

let t: TempPackets;
let server: ScriptedServer;
let run: { code: number; out: string; err: string };

beforeAll(async () => {
  t = await tempPackets();
  await t.add('fixture');
  const sample = await t.read('fixture', 'sample/src/duration.py');
  const items = [
    { fault: `six ${HOSTILE}`, path: 'src/duration.py', code: sample.replace('"m": 60', '"m": 6') },
    { fault: `not text ${HOSTILE}`, path: 'src/duration.py', code: sample.replace('if not isinstance(text, str) or not WHOLE.fullmatch(text):', 'if not WHOLE.fullmatch(text):') },
    { fault: `elsewhere ${HOSTILE}`, path: `src/x${HOSTILE}.py`, code: 'X = 1\n' },
  ];
  await t.write('fixture', 'replies/mutants.md', `Three mutants.\n\n\`\`\`json\n${JSON.stringify(items, null, 2)}\n\`\`\`\n`);
  server = await startScriptedServer({ replies: replyStoreFromDirs(new Map([['fixture', { dir: path.join(t.packets, 'fixture'), replies: ['mutants.md'] }]])) });
  const { LLM_ENDPOINT: _a, OPENAI_BASE_URL: _b, OPENAI_API_KEY: _c, ...env } = process.env;
  const io = memoryIo(t.root, { env });
  const code = await runCli(['mutate', 'fixture', '--endpoint', server.url, '--model', 'scripted:fixture/mutants', '--out', 'out/m'], io);
  run = { code, out: io.stdout, err: io.stderr };
}, 120_000);

afterAll(async () => {
  await server?.close();
  await t?.dispose();
});

describe('packet mutate on a hostile reply', () => {
  it('judges the mutants', () => {
    expect(run.code).toBe(0);
    expect(run.out).toContain('fixture: 3 mutants: 1 killed, 1 survived, 0 crashed, 1 invalid');
  });

  it('prints the faults escaped, each line the kit\'s own', () => {
    for (const text of [run.out, run.err]) {
      expect(text).not.toMatch(RAW);
      expect(text.split('\n').filter((l) => l.startsWith('fixture: 1 mutants') || l.startsWith('<script>'))).toEqual([]);
    }
    // The reply reader keeps a fault on one line (its line breaks read as spaces); the rest is shown escaped.
    expect(run.out).toContain('six \\u001b[2J\\u001b[32m fixture: 1 mutants: 1 killed; mutation score 100% <script>alert(1)</script>\\u202e\\u0085');
    expect(run.out).toContain('src/x\\u001b[2J\\u001b[32m\\rfixture: 1 mutants: 1 killed; mutation score 100%\\n<script>');
  });

  it('writes report.json, mutation-report.json and the page with no raw control character and no tag of the model\'s', async () => {
    const read = (f: string) => readFile(path.join(t.root, 'out/m', f), 'utf8');
    for (const f of ['report.json', 'mutation-report.json', 'mutation-report.html']) expect(await read(f)).not.toMatch(RAW);
    expect(JSON.parse(await read('report.json')).mutants[0].fault).toContain('six \u001b[2J\u001b[32m');
    const html = await read('mutation-report.html');
    const main = html.slice(0, html.indexOf('<div class="app">'));
    expect(main).not.toContain('<script>alert');
    expect(main).toContain('six \\u001b[2J\\u001b[32m fixture: 1 mutants: 1 killed; mutation score 100% &lt;script&gt;');
  });
});
