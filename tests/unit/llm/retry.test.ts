import { describe, expect, it } from 'vitest';
import type { AttemptGate } from '../../../src/llm/endpoint-gate.ts';
import type { ErrorClass } from '../../../src/llm/error-class.ts';
import { backoffCeiling, DEFAULT_RETRY_POLICY, fullJitter, parseRetryAfter, planWait, retryLoop, type AttemptOutcome, type RetryPolicy, type StopReason } from '../../../src/llm/retry.ts';

const NOW = Date.parse('2026-11-29T12:00:00Z');
const policy: RetryPolicy = { baseMs: 500, capMs: 8_000, maxAttempts: 5, maxRetryAfterMs: 60_000 };
const none = { headers: {} };

describe('backoff', () => {
  it('doubles the ceiling up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 40].map((r) => backoffCeiling(r, policy))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('draws the wait uniformly below the ceiling (full jitter)', () => {
    expect(fullJitter(3, policy, () => 0)).toBe(0);
    expect(fullJitter(3, policy, () => 0.5)).toBe(1000);
    expect(fullJitter(3, policy, () => 0.999999)).toBe(1999);
    expect(fullJitter(9, policy, () => 0.999999)).toBe(7999);
  });
});

describe('Retry-After', () => {
  const parse = (retryAfter: string | null, retryAfterMs: string | null = null) => parseRetryAfter({ retryAfter, retryAfterMs }, NOW, 60_000);

  it('reads delta seconds, an HTTP date and retry-after-ms', () => {
    expect(parse('3')).toEqual({ ms: 3000 });
    expect(parse('1.5')).toEqual({ ms: 1500 });
    expect(parse('Sun, 29 Nov 2026 12:00:07 GMT')).toEqual({ ms: 7000 });
    expect(parse('Sunday, 29-Nov-26 12:00:02 GMT')).toEqual({ ms: 2000 });
    expect(parse('Sun, 29 Nov 2026 11:59:00 GMT')).toEqual({ ms: 0 });
    expect(parse('3', '250')).toEqual({ ms: 250 });
    expect(parse(null)).toBeNull();
  });

  it('ignores absurd and malformed values', () => {
    expect(parse('99999999')).toEqual({ ignored: 'absurd retry-after "99999999" (over 60 s)' });
    expect(parse('Fri, 01 Jan 2100 00:00:00 GMT')).toMatchObject({ ignored: expect.stringMatching(/^absurd/) });
    expect(parse('-5')).toEqual({ ignored: 'malformed retry-after "-5"' });
    expect(parse('soon')).toEqual({ ignored: 'malformed retry-after "soon"' });
    expect(parse('NaN')).toMatchObject({ ignored: expect.stringMatching(/^malformed/) });
    expect(parse(null, 'abc')).toEqual({ ignored: 'malformed retry-after-ms "abc"' });
  });

  it('plans a wait from a sane Retry-After, else from backoff', () => {
    expect(planWait(1, { headers: { 'retry-after': '2' } }, { policy, random: () => 0.5, nowEpochMs: NOW })).toEqual({ ms: 2000, source: 'retry-after', from: 'retry-after' });
    expect(planWait(2, { headers: { 'retry-after': '99999999' } }, { policy, random: () => 0.5, nowEpochMs: NOW })).toEqual({
      ms: 500,
      source: 'backoff',
      ignored: 'absurd retry-after "99999999" (over 60 s)',
    });
    expect(planWait(2, none, { policy, random: () => 0.5, nowEpochMs: NOW })).toEqual({ ms: 500, source: 'backoff' });
  });
});

/** A scripted sequence of attempt outcomes, an injected clock and a sleep that only moves the clock. */
function harness(
  outcomes: { error?: ErrorClass; retryAfter?: string }[],
  options: { remainingMs?: number; cap?: (n: number) => StopReason | null; policy?: RetryPolicy; gate?: AttemptGate } = {},
) {
  let clock = 0;
  const sleeps: number[] = [];
  let n = 0;
  const deadline = options.remainingMs ?? 600_000;
  return {
    sleeps,
    attempts: () => n,
    run: () =>
      retryLoop<number>({
        policy: options.policy ?? policy,
        ...(options.gate ? { gate: options.gate } : {}),
        random: () => 0.5,
        sleep: async (ms) => {
          sleeps.push(ms);
          clock += ms;
        },
        nowEpochMs: () => NOW + clock,
        remainingMs: () => deadline - clock,
        capReached: () => options.cap?.(n) ?? null,
        attempt: async (i): Promise<AttemptOutcome<number>> => {
          n = i;
          clock += 10;
          const o = outcomes[i - 1] ?? {};
          return o.error ? { ok: false, error: o.error, hints: { headers: o.retryAfter ? { 'retry-after': o.retryAfter } : {} }, value: i } : { ok: true, value: i };
        },
      }),
  };
}

describe('the retry loop', () => {
  it('retries retryable errors with full-jitter backoff, then succeeds', async () => {
    const h = harness([{ error: 'server-error' }, { error: 'timeout' }, { error: 'network' }, {}]);
    expect(await h.run()).toEqual({ kind: 'ok', value: 4, attempts: 4 });
    expect(h.sleeps).toEqual([250, 500, 1000]);
  });

  it('honours Retry-After, and falls back to backoff when it is absurd', async () => {
    const h = harness([{ error: 'rate-limit', retryAfter: '7' }, { error: 'rate-limit', retryAfter: '99999999' }, {}]);
    expect((await h.run()).kind).toBe('ok');
    expect(h.sleeps).toEqual([7000, 500]);
  });

  it('does not retry what a retry cannot fix', async () => {
    for (const error of ['refused', 'dns', 'quota', 'auth', 'not-found', 'context-length', 'bad-request', 'length', 'content-filter', 'abnormal-finish', 'reasoning-only'] as const) {
      const h = harness([{ error }, {}]);
      expect(await h.run()).toMatchObject({ kind: 'failed', error, attempts: 1, why: 'not-retryable' });
      expect(h.sleeps).toEqual([]);
    }
  });

  it('gives up after the policy\'s attempts', async () => {
    const h = harness(Array(9).fill({ error: 'server-error' }), { policy: { ...policy, maxAttempts: 3 } });
    expect(await h.run()).toMatchObject({ kind: 'failed', error: 'server-error', attempts: 3, why: 'attempts-exhausted' });
    expect(h.sleeps).toHaveLength(2);
  });

  it('stops instead of waiting past the remaining budget', async () => {
    const h = harness([{ error: 'rate-limit', retryAfter: '30' }, {}], { remainingMs: 20_000 });
    const r = await h.run();
    expect(r).toMatchObject({ kind: 'stopped', reason: 'wall-clock', attempts: 1, last: { error: 'rate-limit' } });
    expect(r.kind === 'stopped' && r.detail).toBe('the next wait (30000 ms, retry-after) would outlast the 19990 ms left');
    expect(h.sleeps).toEqual([]);
  });

  it('stops when a cap is reached, before or between attempts', async () => {
    const before = harness([{}], { cap: () => 'model-calls' });
    expect(await before.run()).toMatchObject({ kind: 'stopped', reason: 'model-calls', attempts: 0 });
    expect(before.attempts()).toBe(0);
    const between = harness(Array(9).fill({ error: 'rate-limit' }), { cap: (n) => (n >= 3 ? 'identical-errors' : null) });
    expect(await between.run()).toMatchObject({ kind: 'stopped', reason: 'identical-errors', attempts: 3 });
    expect(between.sleeps).toHaveLength(2);
  });

  it('has sane defaults', () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({ baseMs: 500, capMs: 8000, maxAttempts: 4, maxRetryAfterMs: 3_600_000 });
  });
});

describe('the retry loop at its edges', () => {
  const base = {
    policy,
    random: () => 0.5,
    nowEpochMs: () => NOW,
    capReached: () => null,
  };

  it('makes no attempt when no time is left, and says so', async () => {
    let attempts = 0;
    const r = await retryLoop<number>({ ...base, sleep: async () => {}, remainingMs: () => 0, attempt: async () => (attempts++, { ok: true, value: 1 }) });
    expect(r).toEqual({ kind: 'stopped', reason: 'wall-clock', attempts: 0, detail: 'the wall-clock budget is spent' });
    expect(attempts).toBe(0);
  });

  it('stops with the last failure when a wait overran the deadline', async () => {
    let clock = 0;
    const r = await retryLoop<number>({
      ...base,
      sleep: async (ms) => {
        clock += ms + 100;
      },
      remainingMs: () => 300 - clock,
      attempt: async (n) => ({ ok: false, error: 'server-error', hints: none, value: n }),
    });
    expect(r).toEqual({ kind: 'stopped', reason: 'wall-clock', attempts: 1, last: { error: 'server-error', value: 1 }, detail: 'the wall-clock budget is spent' });
  });

  it('stops when the wait would take exactly the time left, and names a backoff wait', async () => {
    const r = await retryLoop<number>({ ...base, sleep: async () => {}, remainingMs: () => 250, attempt: async (n) => ({ ok: false, error: 'server-error', hints: none, value: n }) });
    expect(r).toMatchObject({ kind: 'stopped', reason: 'wall-clock', attempts: 1, detail: 'the next wait (250 ms, backoff) would outlast the 250 ms left' });
  });

  it('does not sleep for a wait of 0 ms', async () => {
    const sleeps: number[] = [];
    const outcomes = [false, true];
    const r = await retryLoop<number>({
      ...base,
      random: () => 0,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      remainingMs: () => 10_000,
      attempt: async (n) => (outcomes[n - 1] ? { ok: true, value: n } : { ok: false, error: 'server-error', hints: none, value: n }),
    });
    expect(r).toEqual({ kind: 'ok', value: 2, attempts: 2 });
    expect(sleeps).toEqual([]);
  });

  it('stops with the last failure when a cap is reached after a wait', async () => {
    let checks = 0;
    const r = await retryLoop<number>({
      ...base,
      capReached: () => (++checks > 2 ? 'wall-clock' : null),
      sleep: async () => {},
      remainingMs: () => 10_000,
      attempt: async (n) => ({ ok: false, error: 'server-error', hints: none, value: n }),
    });
    expect(r).toEqual({ kind: 'stopped', reason: 'wall-clock', attempts: 1, last: { error: 'server-error', value: 1 }, detail: 'the wall-clock cap was reached' });
  });

  it('says which cap stopped it, in words, or in the cap\'s own words', async () => {
    const run = (cap: () => ReturnType<Parameters<typeof retryLoop>[0]['capReached']>) => retryLoop<number>({ ...base, capReached: cap, sleep: async () => {}, remainingMs: () => 10_000, attempt: async () => ({ ok: true, value: 1 }) });
    expect(await run(() => 'model-calls')).toEqual({ kind: 'stopped', reason: 'model-calls', attempts: 0, detail: 'the model-calls cap was reached' });
    const estimate = { prompt: 10, maxTokens: 20, spent: 30 };
    expect(await run(() => ({ reason: 'tokens', detail: 'too many', estimate }))).toEqual({ kind: 'stopped', reason: 'tokens', attempts: 0, detail: 'too many', estimate });
  });
});

describe('the retry loop behind an endpoint gate', () => {
  /** A gate that records what the loop tells it; `stopAt` makes the n-th entry a stop. */
  function recordingGate(stopAt?: number) {
    const events: string[] = [];
    let entries = 0;
    const gate: AttemptGate = {
      enter: async () => {
        entries++;
        if (entries === stopAt) return { stop: 'the endpoint is paused past the deadline' };
        events.push(`enter ${entries}`);
        return { leave: () => events.push(`leave ${entries}`), waitedMs: 0 };
      },
      slow: (ms, from) => events.push(`slow ${ms} ${from}`),
    };
    return { gate, events };
  }

  it('holds a slot for each attempt, and a rate limit or a Retry-After slows the endpoint for everyone', async () => {
    const { gate, events } = recordingGate();
    const h = harness([{ error: 'rate-limit' }, { error: 'server-error', retryAfter: '3' }, { error: 'server-error' }, {}], { gate });
    expect(await h.run()).toEqual({ kind: 'ok', value: 4, attempts: 4 });
    // A rate limit without a hint slows by its backoff; a server error with Retry-After by that; a plain server error slows nobody.
    expect(events).toEqual(['enter 1', 'leave 1', 'slow 250 backoff', 'enter 2', 'leave 2', 'slow 3000 retry-after', 'enter 3', 'leave 3', 'enter 4', 'leave 4']);
  });

  it('stops at the wall clock when the gate says the pause outlasts the deadline, keeping the last failure', async () => {
    const { gate, events } = recordingGate(2);
    const h = harness([{ error: 'rate-limit' }, {}], { gate });
    expect(await h.run()).toEqual({ kind: 'stopped', reason: 'wall-clock', attempts: 1, last: { error: 'rate-limit', value: 1 }, detail: 'the endpoint is paused past the deadline' });
    expect(events).toEqual(['enter 1', 'leave 1', 'slow 250 backoff']);
  });

  it('stops at the wall clock on the first entry without any failure to report', async () => {
    const { gate } = recordingGate(1);
    expect(await harness([{}], { gate }).run()).toEqual({ kind: 'stopped', reason: 'wall-clock', attempts: 0, detail: 'the endpoint is paused past the deadline' });
  });
});
