/**
 * When a server says to come back, in any of the ways OpenAI-compatible servers say it:
 * `retry-after-ms`, `Retry-After` (seconds or an HTTP date), the reset times in the error body's
 * metadata (OpenRouter copies its rate-limit headers there), `x-ratelimit-reset-requests` and
 * `x-ratelimit-reset-tokens` (durations such as `8s`, `1m30s`, `250ms`), `x-ratelimit-reset` and
 * `ratelimit-reset` (delta seconds, or epoch seconds or milliseconds), and, last, a "try again in
 * 7.66s" in the error message. Pure: the clock is a parameter.
 */

/** What a Retry-After header asked for. */
export type RetryAfter = { ms: number } | { ignored: string };

/**
 * Read `retry-after-ms` or `Retry-After` (delta seconds or an HTTP date). Returns null when the
 * server sent neither, `{ ignored }` for a value that is malformed, negative or absurd (over
 * `maxMs`), and `{ ms }` otherwise. A date in the past means "now" (0 ms).
 */
export function parseRetryAfter(headers: { retryAfter: string | null; retryAfterMs: string | null }, nowEpochMs: number, maxMs: number): RetryAfter | null {
  const check = (ms: number, raw: string): RetryAfter => {
    if (!Number.isFinite(ms) || ms < 0) return { ignored: `malformed retry-after "${raw}"` };
    if (ms > maxMs) return { ignored: `absurd retry-after "${raw}" (over ${Math.round(maxMs / 1000)} s)` };
    return { ms: Math.ceil(ms) };
  };
  const msHeader = headers.retryAfterMs?.trim();
  if (msHeader) return /^\d+(\.\d+)?$/.test(msHeader) ? check(Number(msHeader), msHeader) : { ignored: `malformed retry-after-ms "${msHeader}"` };
  const raw = headers.retryAfter?.trim();
  if (!raw) return null;
  if (/^\d+(\.\d+)?$/.test(raw)) return check(Number(raw) * 1000, raw);
  if (/^-/.test(raw)) return { ignored: `malformed retry-after "${raw}"` };
  // An HTTP date: IMF-fixdate, or the obsolete RFC 850 and asctime forms Date.parse also reads.
  if (!/[a-z]{3}/i.test(raw)) return { ignored: `malformed retry-after "${raw}"` };
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return { ignored: `malformed retry-after "${raw}"` };
  return check(Math.max(0, at - nowEpochMs), raw);
}

/** The rate-limit part of a response: its rate-limit headers (lower-case names) and its body. */
export interface RateLimitInput {
  headers: Readonly<Record<string, string>>;
  body?: string | null;
}

/** A wait the server asked for, and where it said so. */
export interface ServerWait {
  ms: number;
  /** The header (or `error metadata`, `error message`) the wait came from. */
  from: string;
}

/** Header names kept from a response: what this module and the classifier read. */
export function isRateLimitHeader(name: string): boolean {
  return /^(retry-after(-ms)?|x-ratelimit-.+|ratelimit(-.+)?)$/i.test(name);
}

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/**
 * A duration as rate-limit headers write it: `8s`, `1m30s`, `6m0s`, `1h2m3.5s`, `250ms`,
 * `59.56s`; a bare number is seconds. Null when it is not one.
 */
export function parseDuration(raw: string): number | null {
  const text = raw.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  if (!/^(\d+(\.\d+)?(h|ms|m|s))+$/.test(text)) return null;
  let ms = 0;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g)) ms += Number(m[1]) * UNIT_MS[m[2]!]!;
  return ms;
}

/**
 * A reset time, in ms from now: a duration, an epoch time (a bare number of seconds above 1e9,
 * of milliseconds above 1e12), or a date. Null when it is none of these.
 */
export function parseReset(raw: string, nowEpochMs: number): number | null {
  const text = raw.trim();
  if (/^\d+(\.\d+)?$/.test(text)) {
    const n = Number(text);
    if (n >= 1e12) return n - nowEpochMs;
    if (n >= 1e9) return n * 1000 - nowEpochMs;
    return n * 1000;
  }
  const d = parseDuration(text);
  if (d !== null) return d;
  if (/\d{4}-\d{2}-\d{2}|[a-z]{3},? /i.test(text)) {
    const at = Date.parse(text);
    if (!Number.isNaN(at)) return at - nowEpochMs;
  }
  return null;
}

function lower(record: Readonly<Record<string, unknown>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(record ?? {})) if (typeof v === 'string' || typeof v === 'number') out[k.toLowerCase()] = String(v);
  return out;
}

/** The error object of a body, and what its metadata and details say about waiting. */
function bodyHints(body: string | null | undefined): { headers: Record<string, string>; delays: string[]; message: string | null } {
  const none = { headers: {}, delays: [], message: null };
  if (!body) return none;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return none;
  }
  const top = Array.isArray(parsed) ? parsed[0] : parsed;
  const e = top && typeof top === 'object' ? (top as { error?: unknown }).error : undefined;
  if (!e || typeof e !== 'object') return none;
  const o = e as { metadata?: { headers?: Record<string, unknown> }; retry_after?: unknown; retry_after_seconds?: unknown; details?: unknown; message?: unknown };
  const delays: string[] = [];
  for (const v of [o.retry_after, o.retry_after_seconds]) if (typeof v === 'number' || typeof v === 'string') delays.push(String(v));
  if (Array.isArray(o.details)) for (const d of o.details) if (d && typeof (d as { retryDelay?: unknown }).retryDelay === 'string') delays.push((d as { retryDelay: string }).retryDelay);
  return { headers: lower(o.metadata?.headers), delays, message: typeof o.message === 'string' ? o.message : null };
}

/** The reset times among `headers` (`x-ratelimit-reset-*`, `x-ratelimit-reset`, `ratelimit-reset`): the exhausted limits' when known. */
function resetFromHeaders(headers: Record<string, string>, nowEpochMs: number): ServerWait | null {
  const resets: { name: string; ms: number; exhausted: boolean | null }[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const m = /^(x-ratelimit-reset|ratelimit-reset)(-(.+))?$/.exec(name);
    if (!m) continue;
    const ms = parseReset(value, nowEpochMs);
    if (ms === null) continue;
    const remaining = headers[`${m[1]!.replace('reset', 'remaining')}${m[2] ?? ''}`];
    resets.push({ name, ms: Math.max(0, ms), exhausted: remaining === undefined ? null : Number(remaining) <= 0 });
  }
  if (!resets.length) return null;
  // The limits that are spent decide the wait; if none says so, the soonest reset is tried first.
  const spent = resets.filter((r) => r.exhausted === true);
  const pick = spent.length ? spent.reduce((a, b) => (b.ms > a.ms ? b : a)) : resets.reduce((a, b) => (b.ms < a.ms ? b : a));
  return { ms: Math.ceil(pick.ms), from: pick.name };
}

/**
 * The wait a response asks for, or `{ ignored }` when it names one that is malformed or above
 * `maxMs`, or null when it names none. Precedence: retry-after-ms, Retry-After, the error body's
 * metadata and details, the reset headers, a "try again in" in the error message.
 */
export function serverWait(input: RateLimitInput, nowEpochMs: number, maxMs: number): ServerWait | { ignored: string } | null {
  const headers = lower(input.headers);
  const check = (w: ServerWait): ServerWait | { ignored: string } =>
    w.ms > maxMs ? { ignored: `absurd ${w.from} (${Math.round(w.ms / 1000)} s, over ${Math.round(maxMs / 1000)} s)` } : w;
  const direct = parseRetryAfter({ retryAfter: headers['retry-after'] ?? null, retryAfterMs: headers['retry-after-ms'] ?? null }, nowEpochMs, maxMs);
  if (direct && 'ms' in direct) return { ms: direct.ms, from: headers['retry-after-ms'] !== undefined ? 'retry-after-ms' : 'retry-after' };
  const body = bodyHints(input.body);
  const meta = body.headers;
  const metaDirect = parseRetryAfter({ retryAfter: meta['retry-after'] ?? null, retryAfterMs: meta['retry-after-ms'] ?? null }, nowEpochMs, maxMs);
  if (metaDirect && 'ms' in metaDirect) return { ms: metaDirect.ms, from: 'error metadata' };
  for (const d of body.delays) {
    const ms = parseReset(d, nowEpochMs);
    if (ms !== null) return check({ ms: Math.max(0, Math.ceil(ms)), from: 'error metadata' });
  }
  const metaReset = resetFromHeaders(meta, nowEpochMs);
  if (metaReset) return check({ ...metaReset, from: 'error metadata' });
  const reset = resetFromHeaders(headers, nowEpochMs);
  if (reset) return check(reset);
  const said = body.message ? /try again in ((?:\d+(?:\.\d+)?(?:h|ms|m|s))+)/i.exec(body.message) : null;
  if (said) {
    const ms = parseDuration(said[1]!);
    if (ms !== null) return check({ ms: Math.ceil(ms), from: 'error message' });
  }
  return direct ?? metaDirect ?? null;
}

/** When a quota named in `input` resets, as an ISO time, or null. */
export function resetTime(input: RateLimitInput, nowEpochMs: number): string | null {
  const w = serverWait(input, nowEpochMs, Number.POSITIVE_INFINITY);
  return w && 'ms' in w ? new Date(nowEpochMs + w.ms).toISOString() : null;
}
