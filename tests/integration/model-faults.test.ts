import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMeter, type BudgetLimits } from '../../src/llm/budget.ts';
import { createModelClient, type CallResult } from '../../src/llm/client.ts';
import type { ErrorClass } from '../../src/llm/error-class.ts';
import { createLedger, type Ledger } from '../../src/llm/ledger.ts';
import type { RetryPolicy } from '../../src/llm/retry.ts';
import { startScriptedServer, type ReplyStore, type ScriptedServer, type SeenRequest } from '../../src/llm/scripted-server.ts';

/**
 * The fault matrix through the kit's own client: every fault model ends in its own error class,
 * retried or not as the class says, and the ledger has one line per request the server saw,
 * with the same bytes and status. No real backoff: sleep is injected and only recorded.
 */
const REPLY = '```python path=src/app.py\nprint("hello")\n```\n';
const store: ReplyStore = {
  get: async (packet, reply) => (packet === 'p' && reply === 'sample' ? REPLY : undefined),
  list: async () => ['p/sample'],
};
const policy: RetryPolicy = { baseMs: 500, capMs: 8000, maxAttempts: 4, maxRetryAfterMs: 60_000 };
const limits: BudgetLimits = { modelCalls: 10, tokens: 100_000, wallSeconds: 600, identicalErrors: 3 };
const messages = [
  { role: 'system' as const, content: 'reply format' },
  { role: 'user' as const, content: 'PROMPT.md: do the task' },
];

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer({ replies: store, slowMs: 10_000 });
});
afterAll(() => server.close());

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

interface Run {
  result: CallResult;
  ledger: Ledger;
  seen: SeenRequest[];
  sleeps: number[];
}

async function call(model: string, options: { baseURL?: string; attemptTimeoutMs?: number; limits?: Partial<BudgetLimits> } = {}): Promise<Run> {
  const client = createModelClient({ baseURL: options.baseURL ?? server.url, apiKey: 'sk-test', attemptTimeoutMs: options.attemptTimeoutMs ?? 5000 });
  const ledger = await createLedger({ dir: null, header: { packet: 'p', version: '1.0.0', digest: 'd', model, endpoint: '127.0.0.1' } });
  const sleeps: number[] = [];
  const before = server.requests.length;
  const result = await client.complete(messages, {
    model,
    turn: 1,
    meter: createMeter({ ...limits, ...options.limits }, () => performance.now()),
    ledger,
    policy,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    nowEpochMs: () => Date.now(),
    now: () => performance.now(),
  });
  return { result, ledger, seen: server.requests.slice(before), sleeps };
}

/** The ledger equals the wire: one line per request the server saw, same bytes, same status. */
function expectLedgerEqualsServer(run: Run): void {
  expect(run.ledger.lines.length).toBe(run.seen.length);
  run.ledger.lines.forEach((line, i) => {
    const req = run.seen[i]!;
    expect({ out: line.bytes_out, in: line.bytes_in, status: line.status }).toEqual({ out: req.bytesIn, in: req.bytesOut, status: req.status });
  });
}

const retried: [string, ErrorClass][] = [
  ['fault:reset', 'network'],
  ['fault:500', 'server-error'],
  ['fault:garbage-json', 'non-json'],
  ['fault:truncated-json', 'truncated-json'],
  ['fault:cut-body', 'truncated-json'],
  ['fault:html', 'html-body'],
  ['fault:empty-choices', 'empty-choices'],
];

describe('the fault matrix, through the kit\'s client', () => {
  it.each(retried)('%s is %s, retried until the identical-errors cap', async (model, error) => {
    const run = await call(model);
    expect(run.result).toMatchObject({ output: null, error, attempts: 3, stop: { reason: 'identical-errors' } });
    expect(run.ledger.lines.map((l) => [l.error, l.attempt, l.duplicate_of])).toEqual([
      [error, 1, null],
      [error, 2, 0],
      [error, 3, 0],
    ]);
    // No usage came back, so none is recorded: null, never zero. (An empty completion may still report its usage.)
    const usage = run.ledger.lines.map((l) => l.prompt_tokens);
    if (error === 'empty-choices') expect(usage.every((t) => typeof t === 'number')).toBe(true);
    else expect(usage.every((t) => t === null)).toBe(true);
    expect(run.sleeps).toEqual([250, 500]);
    expectLedgerEqualsServer(run);
  });

  it.each([
    ['fault:insufficient-quota', 'insufficient-quota', 429],
    ['fault:401', 'auth', 401],
    ['fault:length', 'length', 200],
    ['scripted:p/no-such-reply', 'bad-request', 404],
  ] as const)('%s is %s, not retried', async (model, error, status) => {
    const run = await call(model);
    expect(run.result).toMatchObject({ output: null, error, attempts: 1 });
    expect(run.result.stop).toBeUndefined();
    expect(run.ledger.lines[0]).toMatchObject({ error, status });
    expect(run.sleeps).toEqual([]);
    expectLedgerEqualsServer(run);
  });

  it('honours Retry-After (seconds and HTTP date) and ignores an absurd one', async () => {
    const seconds = await call('fault:429-retry-after');
    expect(seconds.result).toMatchObject({ error: 'rate-limit', attempts: 3, stop: { reason: 'identical-errors' } });
    expect(seconds.sleeps).toEqual([1000, 1000]);
    expectLedgerEqualsServer(seconds);
    const date = await call('fault:429-retry-after-date');
    expect(date.sleeps).toHaveLength(2);
    // An HTTP date has one-second resolution: 2 s ahead reads as 1 to 2 s.
    for (const ms of date.sleeps) expect(ms).toBeGreaterThanOrEqual(900), expect(ms).toBeLessThanOrEqual(2000);
    const absurd = await call('fault:429-absurd');
    expect(absurd.sleeps).toEqual([250, 500]);
    expectLedgerEqualsServer(absurd);
  });

  it('stops instead of waiting past the remaining wall clock', async () => {
    const run = await call('fault:429-retry-after', { limits: { wallSeconds: 1 } });
    expect(run.result).toMatchObject({ error: 'rate-limit', attempts: 1, stop: { reason: 'wall-clock' } });
    expect(run.result.stop!.detail).toMatch(/^the next wait \(1000 ms, retry-after\) would outlast the \d+ ms left$/);
    expect(run.sleeps).toEqual([]);
    expectLedgerEqualsServer(run);
  });

  it('counts every retry as a model call', async () => {
    const run = await call('fault:500', { limits: { modelCalls: 2, identicalErrors: 9 } });
    expect(run.result).toMatchObject({ attempts: 2, stop: { reason: 'model-calls' } });
    expectLedgerEqualsServer(run);
  });

  it('times out a slow answer per attempt', async () => {
    const run = await call('fault:slow', { attemptTimeoutMs: 150 });
    expect(run.result).toMatchObject({ error: 'timeout', attempts: 3, stop: { reason: 'identical-errors' } });
    expectLedgerEqualsServer(run);
  });

  it('uses a reply without usage and records its tokens as unknown, not zero', async () => {
    const run = await call('fault:no-usage@scripted:p/sample');
    expect(run.result).toMatchObject({ output: REPLY, error: 'missing-usage', usage: null, attempts: 1 });
    expect(run.ledger.lines[0]).toMatchObject({ prompt_tokens: null, completion_tokens: null, error: 'missing-usage', status: 200 });
    const sum = await run.ledger.close();
    expect(sum).toMatchObject({ tokens: null, usage_unknown_calls: 1, prompt_tokens: 0 });
    expectLedgerEqualsServer(run);
  });

  it('recovers from a flaky endpoint and sums the usage it reported', async () => {
    const run = await call('flaky:2:scripted:p/sample');
    expect(run.result).toMatchObject({ output: REPLY, error: null, attempts: 3 });
    expect(run.ledger.lines.map((l) => l.error)).toEqual(['server-error', 'server-error', null]);
    expect(run.sleeps).toEqual([]); // Retry-After: 0 means now
    const sum = await run.ledger.close();
    expect(sum.tokens).toBe(run.result.usage!.prompt_tokens + run.result.usage!.completion_tokens);
    expectLedgerEqualsServer(run);
  });

  it('names a refused connection, which sent nothing and is not retried', async () => {
    const port = await closedPort();
    const run = await call('any', { baseURL: `http://127.0.0.1:${port}/v1` });
    expect(run.result).toMatchObject({ output: null, error: 'refused', attempts: 1 });
    expect(run.ledger.lines).toHaveLength(1);
    expect(run.ledger.lines[0]).toMatchObject({ status: null, bytes_out: 0, bytes_in: 0, error: 'refused' });
    expect(run.seen).toEqual([]);
  });

  it('sends the key to the endpoint, and only there', async () => {
    const run = await call('scripted:p/sample');
    expect(run.seen[0]!.authorization).toBe('Bearer sk-test');
    // Uncompressed, so bytes in are wire bytes.
    expect(run.seen[0]!.acceptEncoding).toBe('identity');
    expect(JSON.stringify(run.ledger.lines)).not.toContain('sk-test');
  });
});

describe('the whole-run deadline', () => {
  it('turns a call cut by the deadline into a wall-clock stop', async () => {
    const run = await call('fault:slow', { limits: { wallSeconds: 0.2 }, attemptTimeoutMs: 60_000 });
    expect(run.result).toMatchObject({ error: 'deadline', attempts: 1, stop: { reason: 'wall-clock' } });
    expect(run.ledger.lines).toHaveLength(1);
  });
});
