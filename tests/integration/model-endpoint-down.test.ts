import { readdir, readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { replyStoreFromDirs, startScriptedServer, type ScriptedServer } from '../../src/llm/scripted-server.ts';
import type { RehearsalReport } from '../../src/rehearse/report.ts';
import { tempPackets, type TempPackets } from '../support/packet-fixtures.ts';

/** A live run against a closed port, and the API key: sent to the endpoint, never printed or written. */
const KEY = 'sk-canary-4f9d2c7e1b8a6035-not-a-real-key';
let t: TempPackets;
let server: ScriptedServer;

/** The environment without any endpoint the machine may have set, plus the test key. */
function env(): Record<string, string | undefined> {
  const { LLM_ENDPOINT: _a, OPENAI_BASE_URL: _b, OPENAI_API_KEY: _c, ...rest } = process.env;
  return { ...rest, PK_TEST_KEY: KEY };
}

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** Every file under `dir` except the packets themselves. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir(dir)) {
    const p = path.join(dir, name);
    if (p === t.packets) continue;
    if ((await stat(p)).isDirectory()) out.push(...(await filesUnder(p)));
    else out.push(p);
  }
  return out;
}

async function expectNoKeyWritten(io: { stdout: string; stderr: string }): Promise<number> {
  expect(io.stdout).not.toContain(KEY);
  expect(io.stderr).not.toContain(KEY);
  const files = await filesUnder(t.root);
  for (const f of files) expect(await readFile(f, 'latin1'), f).not.toContain(KEY);
  return files.length;
}

beforeAll(async () => {
  t = await tempPackets();
  const dir = await t.add('healthy');
  server = await startScriptedServer({ replies: replyStoreFromDirs(new Map([['healthy', { dir, replies: ['sample.md', 'drops-minutes.md', 'accepts-garbage.md'] }]])) });
});
afterAll(async () => {
  await server.close();
  await t.dispose();
});

describe('packet rehearse against a live endpoint', () => {
  it('calls a closed port INCONCLUSIVE and exits 2: a dead endpoint is never a pass', async () => {
    const port = await closedPort();
    const io = memoryIo(t.root, { env: env() });
    const code = await runCli(['rehearse', '--endpoint', `http://127.0.0.1:${port}/v1`, '--model', 'any-model', '--api-key-env', 'PK_TEST_KEY', '--report', 'down.json', '--out', 'down'], io);
    expect(code).toBe(2);
    const report = JSON.parse(await readFile(path.join(t.root, 'down.json'), 'utf8')) as RehearsalReport;
    expect(report.packets[0]!.status).toBe('fails-closed');
    expect(report.models).toHaveLength(1);
    expect(report.models![0]).toMatchObject({
      verdict: 'INCONCLUSIVE',
      inconclusiveCause: 'endpoint',
      endpoint: `127.0.0.1:${port}`,
      model: 'any-model',
      calls: 1,
      errors: { refused: 1 },
      bytes: { out: 0, in: 0 },
      receipts: { usage: 'down/healthy/usage.jsonl', ledger: 'down/healthy/ledger.json', giveUp: null },
    });
    const lines = (await readFile(path.join(t.root, 'down/healthy/usage.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toMatchObject([{ error: 'refused', status: null, prompt_tokens: null, bytes_out: 0 }]);
    expect(io.stderr).toMatch(/PK606 The model run on "healthy" is INCONCLUSIVE/);
    await expectNoKeyWritten(io);
  });

  it('sends the key to a live endpoint and writes it nowhere', async () => {
    const io = memoryIo(t.root, { env: env() });
    const code = await runCli(
      ['rehearse', '--endpoint', `${server.url}?tenant=t1`, '--model', 'scripted:{packet}/drops-minutes', '--api-key-env', 'PK_TEST_KEY', '--feedback', '1', '--report', 'live.json', '--out', 'live'],
      io,
    );
    expect(code).toBe(0);
    const report = JSON.parse(await readFile(path.join(t.root, 'live.json'), 'utf8')) as RehearsalReport;
    expect(report.models![0]).toMatchObject({ verdict: 'CAUGHT', model: 'scripted:healthy/drops-minutes', endpoint: `127.0.0.1:${server.port}`, calls: 2, turns: 2 });
    expect(report.models![0]!.tokens.total).toBeGreaterThan(0);
    expect(server.requests.length).toBeGreaterThan(0);
    for (const r of server.requests) expect(r.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.stringify(report)).not.toContain('tenant');
    expect(await expectNoKeyWritten(io)).toBeGreaterThan(5);
  });

  it('records what the server said, and never the key it echoes back: not in receipts, report or console', async () => {
    const io = memoryIo(t.root, { env: env() });
    const code = await runCli(['rehearse', '--endpoint', server.url, '--model', 'fault:401', '--api-key-env', 'PK_TEST_KEY', '--report', 'echo.json', '--out', 'echo'], io);
    expect(code).toBe(2);
    // The server did echo it: the kit is what keeps it out.
    expect(server.requests.at(-1)!.authorization).toBe(`Bearer ${KEY}`);
    const report = JSON.parse(await readFile(path.join(t.root, 'echo.json'), 'utf8')) as RehearsalReport;
    expect(report.models![0]).toMatchObject({
      verdict: 'INCONCLUSIVE',
      failure: { error: 'auth', status: 401, message: 'Incorrect API key provided: [redacted]. Check the key and try again.', hint: expect.stringMatching(/--api-key-env/) },
    });
    const lines = (await readFile(path.join(t.root, 'echo/healthy/usage.jsonl'), 'utf8')).trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ error: 'auth', status: 401, message: 'Incorrect API key provided: [redacted]. Check the key and try again.' });
    expect(io.stderr).toMatch(/PK608 A model call of the run on "healthy" failed for good: auth \(HTTP 401\/403: the key is missing, wrong or not allowed\)\. The server answered HTTP 401: "Incorrect API key provided: \[redacted\]\. Check the key and try again\."/);
    expect(io.stdout).toMatch(/endpoint: auth, HTTP 401: "Incorrect API key provided: \[redacted\]/);
    await expectNoKeyWritten(io);
    // Nor any long piece of it.
    for (const f of await filesUnder(t.root)) expect(await readFile(f, 'latin1'), f).not.toContain(KEY.slice(10, 30));
  });

  it('ignores an endpoint in the environment when no model is named, and refuses an endpoint flag without one', async () => {
    const quiet = memoryIo(t.root, { env: { ...env(), OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });
    expect(await runCli(['rehearse', '--report', 'env.json'], quiet)).toBe(0);
    expect(quiet.stderr).toMatch(/note: \$OPENAI_BASE_URL is set but no --model \(or \$LLM_MODEL\) is given/);
    const loud = memoryIo(t.root, { env: env() });
    expect(await runCli(['rehearse', '--endpoint', 'http://127.0.0.1:9/v1', '--report', 'x.json'], loud)).toBe(2);
    expect(loud.stderr).toMatch(/^PK602 /);
    const bad = memoryIo(t.root, { env: env() });
    expect(await runCli(['rehearse', '--endpoint', `ftp://user:${KEY}@127.0.0.1/`, '--model', 'm', '--report', 'x.json'], bad)).toBe(2);
    expect(bad.stderr).toMatch(/^PK601 .*its scheme is ftp/);
    expect(bad.stderr).not.toContain(KEY);
  });
});
