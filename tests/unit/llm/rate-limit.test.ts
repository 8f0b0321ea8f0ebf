import { describe, expect, it } from 'vitest';
import { isRateLimitHeader, parseDuration, parseReset, resetTime, serverWait } from '../../../src/llm/rate-limit.ts';

const NOW = Date.parse('2026-11-29T12:00:00Z');
const HOUR = 3_600_000;
const wait = (headers: Record<string, string>, body?: unknown) => serverWait({ headers, body: body === undefined ? null : JSON.stringify(body) }, NOW, HOUR);

describe('durations and reset times', () => {
  it('reads the durations rate-limit headers use', () => {
    expect(['8s', '1m30s', '6m0s', '250ms', '59.56s', '1h2m3.5s', '2m59.56s', '12', '0.5'].map(parseDuration)).toEqual([8000, 90_000, 360_000, 250, 59_560, 3_723_500, 179_560, 12_000, 500]);
    expect(['', 'soon', '8 s', '-3s', '1d', 's'].map(parseDuration)).toEqual([null, null, null, null, null, null]);
  });

  it('reads epoch times in seconds or milliseconds, durations and dates', () => {
    expect(parseReset(String(NOW + 3000), NOW)).toBe(3000);
    expect(parseReset(String(NOW / 1000 + 7), NOW)).toBe(7000);
    expect(parseReset('8s', NOW)).toBe(8000);
    expect(parseReset('30', NOW)).toBe(30_000);
    expect(parseReset('2026-11-29T12:00:09Z', NOW)).toBe(9000);
    expect(parseReset('Sun, 29 Nov 2026 12:00:04 GMT', NOW)).toBe(4000);
    expect(parseReset('whenever', NOW)).toBeNull();
  });

  it('keeps only the headers it reads', () => {
    expect(['Retry-After', 'retry-after-ms', 'x-ratelimit-reset-requests', 'X-RateLimit-Remaining', 'ratelimit-reset', 'ratelimit', 'content-type', 'authorization', 'x-request-id'].map(isRateLimitHeader)).toEqual([
      true, true, true, true, true, true, false, false, false,
    ]);
  });
});

describe('the wait a server asks for', () => {
  it('honours x-ratelimit-reset-* when nothing else says when (Groq and others)', () => {
    expect(wait({ 'x-ratelimit-reset-requests': '8s' })).toEqual({ ms: 8000, from: 'x-ratelimit-reset-requests' });
    // The limit that is spent decides: requests at 0, tokens left.
    expect(wait({ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '8s', 'x-ratelimit-remaining-tokens': '5400', 'x-ratelimit-reset-tokens': '1m30s' })).toEqual({ ms: 8000, from: 'x-ratelimit-reset-requests' });
    expect(wait({ 'x-ratelimit-remaining-requests': '9', 'x-ratelimit-reset-requests': '8s', 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '1m30s' })).toEqual({ ms: 90_000, from: 'x-ratelimit-reset-tokens' });
    // Nothing says which is spent: the soonest reset first.
    expect(wait({ 'x-ratelimit-reset-requests': '20s', 'x-ratelimit-reset-tokens': '2s' })).toEqual({ ms: 2000, from: 'x-ratelimit-reset-tokens' });
    expect(wait({ 'x-ratelimit-reset': String(NOW + 3000) })).toEqual({ ms: 3000, from: 'x-ratelimit-reset' });
    expect(wait({ 'ratelimit-reset': '4' })).toEqual({ ms: 4000, from: 'ratelimit-reset' });
    // A reset in the past means now.
    expect(wait({ 'x-ratelimit-reset': String(NOW - 3000) })).toEqual({ ms: 0, from: 'x-ratelimit-reset' });
  });

  it('prefers retry-after-ms, then Retry-After, then the body, then the reset headers', () => {
    const all = { 'retry-after-ms': '1500', 'retry-after': '3', 'x-ratelimit-reset-requests': '8s' };
    expect(wait(all)).toEqual({ ms: 1500, from: 'retry-after-ms' });
    expect(wait({ 'retry-after': '3', 'x-ratelimit-reset-requests': '8s' })).toEqual({ ms: 3000, from: 'retry-after' });
    expect(wait({ 'x-ratelimit-reset-requests': '8s' }, { error: { metadata: { headers: { 'X-RateLimit-Reset': String(NOW + 5000) } } } })).toEqual({ ms: 5000, from: 'error metadata' });
  });

  it('reads reset times in the error body: OpenRouter metadata, retry_after, retryDelay, "try again in"', () => {
    expect(wait({}, { error: { message: 'Rate limit exceeded: free-models-per-min.', code: 429, metadata: { headers: { 'X-RateLimit-Limit': '20', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(NOW + 5000) } } } })).toEqual({ ms: 5000, from: 'error metadata' });
    expect(wait({}, { error: { retry_after: 12 } })).toEqual({ ms: 12_000, from: 'error metadata' });
    expect(wait({}, [{ error: { code: 429, details: [{ '@type': 'RetryInfo', retryDelay: '8s' }] } }])).toEqual({ ms: 8000, from: 'error metadata' });
    expect(wait({}, { error: { message: 'Rate limit reached for model in organization on tokens per minute (TPM). Please try again in 7.66s.' } })).toEqual({ ms: 7660, from: 'error message' });
    expect(wait({}, { error: { message: 'slow down' } })).toBeNull();
    expect(serverWait({ headers: {}, body: 'not json' }, NOW, HOUR)).toBeNull();
  });

  it('ignores a wait above the ceiling, and says which', () => {
    expect(wait({ 'retry-after': '99999999' })).toEqual({ ignored: 'absurd retry-after "99999999" (over 3600 s)' });
    expect(wait({ 'x-ratelimit-reset': String(NOW + 10 * HOUR) })).toEqual({ ignored: 'absurd x-ratelimit-reset (36000 s, over 3600 s)' });
  });

  it('says when a quota resets, however far away', () => {
    const midnight = Date.parse('2026-11-30T00:00:00Z');
    expect(resetTime({ headers: {}, body: JSON.stringify({ error: { metadata: { headers: { 'X-RateLimit-Reset': String(midnight) } } } }) }, NOW)).toBe('2026-11-30T00:00:00.000Z');
    expect(resetTime({ headers: {} }, NOW)).toBeNull();
  });
});
