import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { replyStoreFromDirs, startScriptedServer, type ScriptedServer } from '../../src/llm/scripted-server.ts';
import type { RehearsalReport } from '../../src/rehearse/report.ts';
import { tempPackets, type TempPackets } from '../support/packet-fixtures.ts';

/**
 * Several models in one command: every packet against every model, one packet x model matrix in
 * the report, receipts per packet and model; the same with --shard, merged, gives the same matrix.
 * The endpoint is the embedded scripted one, started here as a live endpoint would be.
 */
const MODELS = ['scripted:{packet}/sample', 'scripted:{packet}/drops-minutes'];
let t: TempPackets;
let server: ScriptedServer;
let report: RehearsalReport;
let exitCode: number;
let stdout: string;

function env(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const { LLM_ENDPOINT: _a, OPENAI_BASE_URL: _b, LLM_MODEL: _c, ...rest } = process.env;
  return { ...rest, ...extra };
}

beforeAll(async () => {
  t = await tempPackets();
  const dirs = new Map<string, { dir: string; replies: string[] }>();
  for (const id of ['alpha', 'echo']) dirs.set(id, { dir: await t.add(id), replies: ['sample.md', 'drops-minutes.md', 'accepts-garbage.md'] });
  server = await startScriptedServer({ replies: replyStoreFromDirs(dirs) });
  const io = memoryIo(t.root, { env: env() });
  exitCode = await runCli(['rehearse', '--endpoint', server.url, '--model', MODELS.join(','), '--report', 'two.json', '--out', 'two'], io);
  stdout = io.stdout;
  report = JSON.parse(await readFile(path.join(t.root, 'two.json'), 'utf8'));
}, 180_000);

afterAll(async () => {
  await server?.close();
  await t?.dispose();
});

const matrix = (r: RehearsalReport) => r.models!.map((m) => [m.packet, m.named, m.model, m.verdict, m.calls, m.tokens.total]);

describe('two models in one command', () => {
  it('runs every packet against every model and holds one packet x model matrix', () => {
    expect(exitCode).toBe(0);
    expect(report.live).toEqual({ endpoint: `127.0.0.1:${server.port}`, models: MODELS });
    expect(report.models!.map((m) => [m.packet, m.named, m.model, m.verdict])).toEqual([
      ['alpha', MODELS[0], 'scripted:alpha/sample', 'PASS'],
      ['alpha', MODELS[1], 'scripted:alpha/drops-minutes', 'CAUGHT'],
      ['echo', MODELS[0], 'scripted:echo/sample', 'PASS'],
      ['echo', MODELS[1], 'scripted:echo/drops-minutes', 'CAUGHT'],
    ]);
    expect(stdout).toContain(`models ${MODELS.join(', ')} at 127.0.0.1:${server.port}, 2 calls at a time`);
  });

  it('keeps each run\'s receipts apart, by packet and model', async () => {
    expect(report.models![1]!.receipts.usage).toBe('two/alpha/scripted_packet_drops-minutes/usage.jsonl');
    for (const m of report.models!) expect((await stat(path.join(t.root, m.receipts.ledger!))).isFile()).toBe(true);
  });

  it('takes the model list from $LLM_MODEL when an endpoint is set, and not without one', async () => {
    const io = memoryIo(t.root, { env: env({ LLM_ENDPOINT: server.url, LLM_MODEL: ` ${MODELS[0]} , ${MODELS[0]}` }) });
    expect(await runCli(['rehearse', 'alpha', '--report', 'env.json', '--out', 'env'], io)).toBe(0);
    const fromEnv = JSON.parse(await readFile(path.join(t.root, 'env.json'), 'utf8')) as RehearsalReport;
    expect(fromEnv.live!.models).toEqual([MODELS[0]]);
    expect(fromEnv.models!.map((m) => m.model)).toEqual(['scripted:alpha/sample']);
    const alone = memoryIo(t.root, { env: env({ LLM_MODEL: 'some-model' }) });
    expect(await runCli(['rehearse', 'alpha', '--report', 'alone.json'], alone)).toBe(0);
    expect(alone.stderr).toMatch(/note: \$LLM_MODEL is set but no endpoint is/);
    const bad = memoryIo(t.root, { env: env() });
    expect(await runCli(['rehearse', '--model', ' , ', '--report', 'x.json'], bad)).toBe(2);
    expect(bad.stderr).toMatch(/--model names no model/);
  });

  it('shards with --endpoint and merges to the same matrix', async () => {
    const files: string[] = [];
    for (const shard of [1, 2]) {
      const io = memoryIo(t.root, { env: env() });
      files.push(`shard-${shard}.json`);
      expect(await runCli(['rehearse', '--shard', `${shard}/2`, '--endpoint', server.url, '--model', MODELS.join(','), '--report', files.at(-1)!, '--out', `s${shard}`], io)).toBe(0);
    }
    const io = memoryIo(t.root, { env: env() });
    expect(await runCli(['merge-reports', ...files, '--out', 'merged.json'], io)).toBe(0);
    expect(io.stdout).toMatch(/merged 2 reports: 2 packets, 2 fail closed, 0 with defects, 0 inconclusive; 4 model runs/);
    const merged = JSON.parse(await readFile(path.join(t.root, 'merged.json'), 'utf8')) as RehearsalReport;
    expect(matrix(merged)).toEqual(matrix(report));
    expect(merged.live).toEqual(report.live);
  });

  it('writes an empty report for a shard that holds none of the packets asked for', async () => {
    const io = memoryIo(t.root, { env: env() });
    expect(await runCli(['rehearse', 'alpha', '--shard', '1/2', '--endpoint', server.url, '--model', MODELS.join(','), '--report', 'empty.json', '--out', 'empty'], io)).toBe(0);
    expect(io.stdout).toContain('shard 1/2: 0 of 1 packet');
    const empty = JSON.parse(await readFile(path.join(t.root, 'empty.json'), 'utf8')) as RehearsalReport;
    expect(empty).toMatchObject({ shard: { index: 1, count: 2 }, packets: [], models: [], summary: { packets: 0 } });
  });
});
