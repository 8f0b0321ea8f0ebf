import { describe, expect, it } from 'vitest';
import { createEndpointGate, type GateClock } from '../../../src/llm/endpoint-gate.ts';
import { retryLoop, type RetryPolicy } from '../../../src/llm/retry.ts';

/** A clock moved by hand: sleep advances it at once and records the wait. */
function fakeClock(): GateClock & { t: number; sleeps: number[] } {
  const c = {
    t: 0,
    sleeps: [] as number[],
    now: () => c.t,
    sleep: async (ms: number) => {
      c.sleeps.push(ms);
      c.t += ms;
    },
  };
  return c;
}

const policy: RetryPolicy = { baseMs: 500, capMs: 8000, maxAttempts: 4, maxRetryAfterMs: 60_000 };
const forever = () => 1e9;

describe('the endpoint gate', () => {
  it('lets at most its concurrency of calls through, the next one when a call leaves', async () => {
    const clock = fakeClock();
    const gate = createEndpointGate({ host: 'h:1', concurrency: 2, clock });
    const a = await gate.enter(forever);
    const b = await gate.enter(forever);
    expect(gate.inFlight()).toBe(2);
    let third: unknown;
    const c = gate.enter(forever).then((r) => (third = r));
    await Promise.resolve();
    expect(third).toBeUndefined();
    if ('leave' in a) a.leave();
    await c;
    expect(third).toMatchObject({ waitedMs: 0 });
    expect(gate.inFlight()).toBe(2);
    if ('leave' in b) b.leave();
    expect(clock.sleeps).toEqual([]);
  });

  it('holds every caller until a pause set by a rate-limit answer is over', async () => {
    const clock = fakeClock();
    const pauses: unknown[] = [];
    const gate = createEndpointGate({ host: 'h:1', concurrency: 4, clock, onPause: (p) => pauses.push(p) });
    clock.t = 100;
    gate.slow(1000, 'retry-after');
    clock.t = 300;
    const r = await gate.enter(forever);
    expect(r).toMatchObject({ waitedMs: 800 });
    expect(clock.t).toBe(1100);
    expect(clock.sleeps).toEqual([800]);
    // A shorter pause never shortens a longer one.
    gate.slow(5000, 'x-ratelimit-reset-requests');
    gate.slow(10, 'backoff');
    expect(pauses).toEqual([
      { untilMs: 1100, ms: 1000, from: 'retry-after' },
      { untilMs: 6100, ms: 5000, from: 'x-ratelimit-reset-requests' },
    ]);
  });

  it('stops a caller whose wall clock would run out during the pause, and frees the slot for the next', async () => {
    const clock = fakeClock();
    const gate = createEndpointGate({ host: 'h:1', concurrency: 1, clock });
    const holder = await gate.enter(forever);
    const short = gate.enter(() => 500);
    const patient = gate.enter(forever);
    gate.slow(2000, 'retry-after');
    if ('leave' in holder) holder.leave();
    expect(await short).toEqual({ stop: 'the endpoint is paused for 2000 ms more (a rate limit it answered), beyond the 500 ms left' });
    expect(await patient).toMatchObject({ waitedMs: 2000 });
    expect(clock.t).toBe(2000);
  });

  it('a 429 in one session slows the next attempt of another: the retry loop consults the gate before each attempt', async () => {
    const clock = fakeClock();
    const gate = createEndpointGate({ host: 'h:1', concurrency: 2, clock });
    const started: { who: string; at: number }[] = [];
    const loop = (who: string, answers: ('429' | 'ok')[], maxAttempts = 4) =>
      retryLoop<string>({
        policy: { ...policy, maxAttempts },
        random: () => 0.5,
        sleep: clock.sleep,
        nowEpochMs: () => 1_764_417_600_000 + clock.t,
        remainingMs: () => 600_000 - clock.t,
        capReached: () => null,
        gate,
        attempt: async (n) => {
          started.push({ who, at: clock.t });
          return answers[n - 1] === 'ok' ? { ok: true, value: who } : { ok: false, error: 'rate-limit', hints: { headers: { 'retry-after': '3' } }, value: who };
        },
      });
    // Session A is told 429, Retry-After: 3 s, on its last attempt: it gives up, and the endpoint is paused.
    const a = await loop('a', ['429'], 1);
    expect(a).toMatchObject({ kind: 'failed', error: 'rate-limit', attempts: 1 });
    expect(gate.pauses).toEqual([{ untilMs: 3000, ms: 3000, from: 'retry-after' }]);
    // Session B, another packet, starts 1 s later: it waits out the rest before its first attempt.
    clock.t = 1000;
    const b = await loop('b', ['ok']);
    expect(b).toMatchObject({ kind: 'ok', attempts: 1 });
    // Session C is told 429 too and retries: its own wait and the gate's agree (one 3 s pause, not two).
    const c = await loop('c', ['429', 'ok']);
    expect(c).toMatchObject({ kind: 'ok', attempts: 2 });
    expect(started).toEqual([
      { who: 'a', at: 0 },
      { who: 'b', at: 3000 },
      { who: 'c', at: 3000 },
      { who: 'c', at: 6000 },
    ]);
    expect(clock.sleeps).toEqual([2000, 3000]);
  });

  it('a server error without a wait slows only its own session', async () => {
    const clock = fakeClock();
    const gate = createEndpointGate({ host: 'h:1', concurrency: 1, clock });
    await retryLoop<string>({
      policy,
      random: () => 0.5,
      sleep: clock.sleep,
      nowEpochMs: () => clock.t,
      remainingMs: () => 600_000,
      capReached: () => null,
      gate,
      attempt: async (n) => (n === 1 ? { ok: false, error: 'server-error', hints: { headers: {} }, value: 'x' } : { ok: true, value: 'x' }),
    });
    expect(gate.pauses).toEqual([]);
    expect(gate.inFlight()).toBe(0);
  });
});
