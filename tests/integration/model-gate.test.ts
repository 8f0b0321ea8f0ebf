import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMeter } from '../../src/llm/budget.ts';
import { createModelClient } from '../../src/llm/client.ts';
import { createEndpointGate } from '../../src/llm/endpoint-gate.ts';
import { createLedger } from '../../src/llm/ledger.ts';
import { startScriptedServer, type ScriptedServer } from '../../src/llm/scripted-server.ts';

/**
 * The gate through the kit's real client and the embedded endpoint: a 429 with Retry-After: 1
 * answered to one run pauses the endpoint, and another run's call (another packet, another
 * model) waits for it before it is sent. The clock is a fake: waits are recorded, never slept.
 */
const REPLY = '```python path=src/app.py\nprint("hello")\n```\n';
let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer({ replies: { get: async (p, r) => (p === 'p' && r === 'sample' ? REPLY : undefined), list: async () => ['p/sample'] } });
});
afterAll(() => server.close());

describe('a rate limit slows the endpoint for every run', () => {
  it('holds the next call of another run until the Retry-After the first was told', async () => {
    let t = 0;
    const sleeps: number[] = [];
    const clock = { now: () => t, sleep: async (ms: number) => void (sleeps.push(ms), (t += ms)) };
    const gate = createEndpointGate({ host: new URL(server.url).host, concurrency: 2, clock });
    const client = createModelClient({ baseURL: server.url, apiKey: null, attemptTimeoutMs: 10_000 });
    const call = async (model: string, maxAttempts: number) => {
      const ledger = await createLedger({ dir: null, header: { packet: 'p', version: '1.0.0', digest: 'd', model, endpoint: '127.0.0.1' } });
      const before = server.requests.length;
      const result = await client.complete([{ role: 'user', content: 'do the task' }], {
        model,
        turn: 1,
        meter: createMeter({ modelCalls: 10, tokens: 100_000, wallSeconds: 600, identicalErrors: 3 }, clock.now),
        ledger,
        policy: { baseMs: 500, capMs: 8000, maxAttempts, maxRetryAfterMs: 60_000 },
        random: () => 0.5,
        sleep: clock.sleep,
        nowEpochMs: () => 1_764_417_600_000 + t,
        now: clock.now,
        gate,
      });
      return { result, requests: server.requests.slice(before), ledger };
    };
    const first = await call('fault:429-retry-after', 1);
    expect(first.result.error).toBe('rate-limit');
    expect(gate.pauses).toEqual([{ untilMs: 1000, ms: 1000, from: 'retry-after' }]);
    expect(sleeps).toEqual([]);
    // Another run, another model: before its request leaves, it waits out the pause.
    t = 250;
    const second = await call('scripted:p/sample', 4);
    expect(second.result.output).toBe(REPLY);
    expect(sleeps).toEqual([750]);
    expect(second.requests).toHaveLength(1);
    expect(second.ledger.lines[0]!.ts).toBe(new Date(1_764_417_600_000 + 1000).toISOString());
    expect(gate.inFlight()).toBe(0);
  });
});
