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
 * retried or not as the class says, with the server's message recorded, and the ledger has one
 * line per request the server saw, with the same bytes (as sent on the wire) and status. No real
 * backoff: sleep is injected and only recorded.
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

async function call(model: string, options: { baseURL?: string; attemptTimeoutMs?: number; limits?: Partial<BudgetLimits>; apiKey?: string; maxReplyTokens?: number } = {}): Promise<Run> {
  const client = createModelClient({ baseURL: options.baseURL ?? server.url, apiKey: options.apiKey ?? 'sk-test', attemptTimeoutMs: options.attemptTimeoutMs ?? 5000 });
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
    ...(options.maxReplyTokens ? { maxReplyTokens: options.maxReplyTokens } : {}),
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
  ['fault:finish-error@scripted:p/sample', 'generation-error'],
  ['fault:error-200', 'generation-error'],
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
    if (error === 'empty-choices' || model.startsWith('fault:finish-error')) expect(usage.every((t) => typeof t === 'number')).toBe(true);
    else expect(usage.every((t) => t === null)).toBe(true);
    expect(run.sleeps).toEqual([250, 500]);
    expectLedgerEqualsServer(run);
  });

  it.each([
    ['fault:insufficient-quota', 'quota', 429, 'You exceeded your current quota.'],
    ['fault:402', 'quota', 402, 'Insufficient credits. Add more credits to your account to continue.'],
    ['fault:429-daily-quota', 'quota', 429, 'Rate limit exceeded: free-models-per-day. Add credits to unlock more free model requests per day.'],
    ['fault:401', 'auth', 401, 'Incorrect API key provided: [redacted]. Check the key and try again.'],
    ['fault:length', 'length', 200, null],
    ['fault:content-filter@scripted:p/sample', 'content-filter', 200, null],
    ['scripted:p/no-such-reply', 'not-found', 404, 'The model "scripted:p/no-such-reply" does not exist. Use scripted:<packet>/<reply> or a fault model (GET /v1/models lists them).'],
    ['fault:404-not-pulled@llama3', 'not-found', 404, 'model "llama3" not found, try pulling it first'],
    ['fault:context-length', 'context-length', 400, expect.stringMatching(/^This model's maximum context length is 4096 tokens\. However, you requested \d+ tokens/)],
    ['fault:no-models-loaded', 'bad-request', 400, 'No models loaded. Please load a model in the developer page or use the `lms load` command.'],
  ] as const)('%s is %s, not retried, and the server\'s message is recorded', async (model, error, status, message) => {
    const run = await call(model);
    expect(run.result).toMatchObject({ output: null, error, attempts: 1, failure: { error, status, message } });
    expect(run.result.stop).toBeUndefined();
    expect(run.ledger.lines[0]).toMatchObject({ error, status, message });
    if (message) expect(run.result.detail).toContain(typeof message === 'string' ? message : 'maximum context length');
    expect(run.sleeps).toEqual([]);
    expectLedgerEqualsServer(run);
  });

  it('says when a daily quota resets, and does not spend the day\'s requests on it', async () => {
    const run = await call('fault:429-daily-quota');
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    expect(run.result.detail).toContain(`the quota resets at ${midnight.toISOString()}`);
    expect(run.seen).toHaveLength(1);
  });

  it('never writes a key the server echoes back', async () => {
    const key = 'sk-echo-7f3a91c2d4e5b6a8-not-real';
    const run = await call('fault:401', { apiKey: key });
    expect(run.seen[0]!.authorization).toBe(`Bearer ${key}`);
    expect(run.result.failure!.message).toBe('Incorrect API key provided: [redacted]. Check the key and try again.');
    expect(JSON.stringify(run.ledger.lines) + JSON.stringify(run.result)).not.toContain(key.slice(8, 24));
  });

  it('honours Retry-After (seconds and HTTP date) and ignores an absurd one', async () => {
    // A rate limit that says when to come back is a wait, not an identical error: the attempts run out, not the streak.
    const seconds = await call('fault:429-retry-after');
    expect(seconds.result).toMatchObject({ error: 'rate-limit', attempts: 4, failure: { status: 429, message: 'Rate limit reached. Try again in 1s.' } });
    expect(seconds.result.stop).toBeUndefined();
    expect(seconds.result.detail).toMatch(/still failing after 4 attempts$/);
    expect(seconds.sleeps).toEqual([1000, 1000, 1000]);
    expectLedgerEqualsServer(seconds);
    const date = await call('fault:429-retry-after-date');
    expect(date.sleeps).toHaveLength(3);
    // An HTTP date has one-second resolution: 2 s ahead reads as 1 to 2 s.
    for (const ms of date.sleeps) expect(ms).toBeGreaterThanOrEqual(900), expect(ms).toBeLessThanOrEqual(2000);
    // An absurd wait is ignored: backoff, and the identical errors stop the call.
    const absurd = await call('fault:429-absurd');
    expect(absurd.sleeps).toEqual([250, 500]);
    expect(absurd.result.stop).toMatchObject({ reason: 'identical-errors' });
    expectLedgerEqualsServer(absurd);
  });

  it('honours reset headers and reset times in the error metadata', async () => {
    const requests = await call('fault:429-reset-requests');
    // x-ratelimit-remaining-requests is 0, so the requests' reset (8s) decides, not the tokens' (1m30s).
    expect(requests.sleeps).toEqual([8000, 8000, 8000]);
    expect(requests.result).toMatchObject({ error: 'rate-limit', attempts: 4 });
    expectLedgerEqualsServer(requests);
    const epoch = await call('fault:429-reset-epoch');
    expect(epoch.sleeps).toHaveLength(3);
    for (const ms of epoch.sleeps) expect(ms).toBeGreaterThan(2000), expect(ms).toBeLessThanOrEqual(3000);
    const meta = await call('fault:429-metadata-reset');
    expect(meta.sleeps).toHaveLength(3);
    for (const ms of meta.sleeps) expect(ms).toBeGreaterThan(4000), expect(ms).toBeLessThanOrEqual(5000);
    expect(meta.ledger.lines[0]!.message).toBe('Rate limit exceeded: free-models-per-min.');
  });

  it('stops instead of waiting for a reset past the remaining wall clock', async () => {
    const run = await call('fault:429-reset-requests', { limits: { wallSeconds: 5 } });
    expect(run.result).toMatchObject({ error: 'rate-limit', attempts: 1, stop: { reason: 'wall-clock' } });
    expect(run.result.stop!.detail).toMatch(/^the next wait \(8000 ms, x-ratelimit-reset-requests\) would outlast the \d+ ms left$/);
    expect(run.sleeps).toEqual([]);
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
    // Unknown stays unknown in ledger.json: null sums, and the count of calls without usage.
    expect(sum).toMatchObject({ tokens: null, usage_unknown_calls: 1, prompt_tokens: null, completion_tokens: null, known_prompt_tokens: 0 });
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

describe('answers as free servers send them', () => {
  it.each([
    ['fault:think@scripted:p/sample', ['think-tags']],
    ['fault:think-no-open@scripted:p/sample', ['think-tags']],
    ['fault:think:sample@scripted:p/sample', ['think-tags']],
    ['fault:reasoning-field@scripted:p/sample', ['reasoning-field']],
  ] as const)('%s: the answer only, the reasoning kept apart', async (model, sources) => {
    const run = await call(model);
    expect(run.result).toMatchObject({ error: null, reasoning: { sources } });
    expect(run.result.output!.trim()).toBe(REPLY.trim());
    expect(run.result.reasoning!.chars).toBeGreaterThan(20);
    expect(run.ledger.lines[0]!.reasoning_chars).toBe(run.result.reasoning!.chars);
    expectLedgerEqualsServer(run);
  });

  it('reads content given as text parts, and a stream sent though none was asked for', async () => {
    const parts = await call('fault:content-parts@scripted:p/sample');
    expect(parts.result).toMatchObject({ output: REPLY, error: null });
    const sse = await call('fault:sse@scripted:p/sample');
    expect(sse.seen[0]!.stream).toBe(false);
    expect(sse.result).toMatchObject({ output: REPLY, error: null, usage: { prompt_tokens: expect.any(Number) } });
    expectLedgerEqualsServer(sse);
  });

  it('records the model that answered when it is not the one asked for', async () => {
    const run = await call('fault:served-model@scripted:p/sample');
    expect(run.result).toMatchObject({ output: REPLY, servedModel: 'packet-kit/fallback-model' });
    expect(run.ledger.lines[0]).toMatchObject({ model: 'fault:served-model@scripted:p/sample', served_model: 'packet-kit/fallback-model' });
    const same = await call('scripted:p/sample');
    expect(same.ledger.lines[0]!.served_model).toBeNull();
  });

  it('counts the bytes of a compressed answer as they crossed the wire', async () => {
    const run = await call('fault:gzip@scripted:p/sample');
    expect(run.result).toMatchObject({ output: REPLY, error: null });
    expectLedgerEqualsServer(run);
    const plain = await call('scripted:p/sample');
    expect(run.ledger.lines[0]!.bytes_in).toBeLessThan(plain.ledger.lines[0]!.bytes_in);
  });
});

describe('the token cap, before the call', () => {
  it('sends max_tokens and stream: false, and records the prompt\'s estimate', async () => {
    const run = await call('scripted:p/sample', { maxReplyTokens: 512 });
    expect(run.seen[0]).toMatchObject({ maxTokens: 512, stream: false });
    expect(run.ledger.lines[0]).toMatchObject({ max_tokens: 512, prompt_estimate: expect.any(Number) });
    expect(run.ledger.lines[0]!.prompt_estimate).toBeGreaterThan(10);
  });

  it('does not make a call that could cross the cap', async () => {
    const run = await call('scripted:p/sample', { limits: { tokens: 600 }, maxReplyTokens: 600 });
    expect(run.result).toMatchObject({ output: null, attempts: 0, stop: { reason: 'tokens', estimate: { maxTokens: 600, spent: 0 } } });
    expect(run.result.stop!.detail).toMatch(/^the next call could cross the 600-token cap: 0 spent \+ about \d+ prompt \+ 600 max_tokens = \d+$/);
    expect(run.seen).toEqual([]);
    expect(run.ledger.lines).toEqual([]);
  });

  it('cuts a reply at max_tokens, as a real server does', async () => {
    const run = await call('scripted:p/sample', { maxReplyTokens: 3 });
    expect(run.result).toMatchObject({ error: 'length', attempts: 1 });
    expect(run.ledger.lines[0]).toMatchObject({ finish_reason: 'length', completion_tokens: 3 });
  });
});

describe('the whole-run deadline', () => {
  it('turns a call cut by the deadline into a wall-clock stop', async () => {
    const run = await call('fault:slow', { limits: { wallSeconds: 0.2 }, attemptTimeoutMs: 60_000 });
    expect(run.result).toMatchObject({ error: 'deadline', attempts: 1, stop: { reason: 'wall-clock' } });
    expect(run.ledger.lines).toHaveLength(1);
  });
});
