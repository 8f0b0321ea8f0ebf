import { describe, expect, it } from 'vitest';
import { classifyThrown, classifyWire, classInfo, emptyWire, ERROR_CLASSES, looksTruncated, readCompletion, type WireRecord } from '../../../src/llm/error-class.ts';

const wire = (w: Partial<WireRecord>): WireRecord => ({ ...emptyWire(), ...w });
const json = (status: number, body: unknown, extra: Partial<WireRecord> = {}) =>
  wire({ status, contentType: 'application/json', body: typeof body === 'string' ? body : JSON.stringify(body), ...extra });
const completion = (over: Record<string, unknown> = {}) => ({
  id: 'c',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
  ...over,
});
/** What undici throws: a TypeError whose cause carries the errno code. */
const fetchFailed = (cause: object) => Object.assign(new TypeError('fetch failed'), { cause });

describe('classifying failures that got no response', () => {
  it('tells a DNS failure from a refused connection, without resolving anything', () => {
    // A synthetic ENOTFOUND, as getaddrinfo reports it: no name is looked up here.
    const dns = fetchFailed(Object.assign(new Error('getaddrinfo ENOTFOUND api.invalid'), { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: 'api.invalid' }));
    expect(classifyThrown(dns)).toBe('dns');
    expect(classifyThrown(fetchFailed(Object.assign(new Error('getaddrinfo EAI_AGAIN x'), { code: 'EAI_AGAIN' })))).toBe('dns');
    const refused = fetchFailed(new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:9'), { code: 'ECONNREFUSED' }), Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' })]));
    expect(classifyThrown(refused)).toBe('refused');
  });

  it('names timeouts, broken connections and the deadline', () => {
    expect(classifyThrown(fetchFailed(Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' })))).toBe('timeout');
    expect(classifyThrown(Object.assign(new Error('aborted'), { name: 'AbortError' }))).toBe('timeout');
    expect(classifyThrown(fetchFailed(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })))).toBe('network');
    expect(classifyThrown(fetchFailed(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })), { attemptTimedOut: true })).toBe('timeout');
    expect(classifyThrown(new Error('x'), { deadlinePassed: true })).toBe('deadline');
    expect(classifyThrown(undefined)).toBe('unknown');
  });
});

describe('classifying responses', () => {
  it('keeps rate limits apart from an exhausted quota', () => {
    expect(classifyWire(json(429, { error: { type: 'requests', code: 'rate_limit_exceeded' } }, { retryAfter: '1' })).error).toBe('rate-limit');
    expect(classifyWire(json(429, { error: { type: 'insufficient_quota', code: 'insufficient_quota' } })).error).toBe('insufficient-quota');
    expect(classifyWire(json(429, 'Too Many Requests')).error).toBe('rate-limit');
  });

  it('names status classes', () => {
    expect(classifyWire(json(500, { error: {} })).error).toBe('server-error');
    expect(classifyWire(wire({ status: 502, contentType: 'text/html', body: '<html>bad gateway</html>' })).error).toBe('server-error');
    expect(classifyWire(json(401, { error: {} })).error).toBe('auth');
    expect(classifyWire(json(404, { error: { code: 'model_not_found' } })).error).toBe('bad-request');
    expect(classifyWire(json(408, '')).error).toBe('timeout');
  });

  it('tells an HTML page, garbage and a truncated body apart', () => {
    expect(classifyWire(wire({ status: 200, contentType: 'text/html; charset=utf-8', body: '<!DOCTYPE html><html></html>' })).error).toBe('html-body');
    expect(classifyWire(wire({ status: 200, contentType: 'application/json', body: '<html><body>login</body></html>' })).error).toBe('html-body');
    expect(classifyWire(json(200, 'ok: {{ not json')).error).toBe('non-json');
    expect(classifyWire(json(200, '{{{garbage')).error).toBe('non-json');
    const full = JSON.stringify(completion());
    expect(classifyWire(json(200, full.slice(0, full.length / 2))).error).toBe('truncated-json');
    // The status arrived, then the socket closed mid-body.
    expect(classifyWire(json(200, full.slice(0, 20), { thrown: new TypeError('terminated') })).error).toBe('truncated-json');
  });

  it('reads completions: empty choices, no text, length, missing usage', () => {
    expect(classifyWire(json(200, completion({ choices: [] }))).error).toBe('empty-choices');
    expect(classifyWire(json(200, completion({ choices: [{ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'stop' }] }))).error).toBe('empty-choices');
    expect(classifyWire(json(200, completion({ choices: [{ index: 0, message: { role: 'assistant', content: 'cut' }, finish_reason: 'length' }] }))).error).toBe('length');
    const noUsage = classifyWire(json(200, completion({ usage: undefined })));
    expect(noUsage.error).toBe('missing-usage');
    expect(noUsage.completion).toEqual({ content: 'hello', finishReason: 'stop', usage: null });
    expect(classifyWire(json(200, completion({ usage: { prompt_tokens: 'x' } }))).error).toBe('missing-usage');
    const ok = classifyWire(json(200, completion()));
    expect(ok.error).toBeNull();
    expect(ok.completion?.usage).toEqual({ prompt_tokens: 3, completion_tokens: 2 });
    expect(readCompletion([1, 2])).toEqual({ ok: false, error: 'non-json', usage: null });
    // A reply cut at the token limit was still paid for: its usage is kept.
    const cut = classifyWire(json(200, completion({ choices: [{ index: 0, message: { role: 'assistant', content: 'cu' }, finish_reason: 'length' }] })));
    expect(cut).toEqual({ error: 'length', usage: { prompt_tokens: 3, completion_tokens: 2 } });
  });

  it('knows which classes are worth a retry and which replies are still usable', () => {
    const retryable = ERROR_CLASSES.filter((c) => classInfo(c).retryable);
    expect(retryable).toEqual(['timeout', 'network', 'rate-limit', 'server-error', 'html-body', 'non-json', 'truncated-json', 'empty-choices']);
    expect(ERROR_CLASSES.filter((c) => classInfo(c).usable)).toEqual(['missing-usage']);
    expect(ERROR_CLASSES.filter((c) => !classInfo(c).tokensUnknown)).toEqual(['refused', 'dns', 'rate-limit', 'insufficient-quota', 'server-error', 'auth', 'bad-request']);
  });

  it('calls a JSON prefix truncated and anything else not', () => {
    expect(looksTruncated('{"a": [1, 2')).toBe(true);
    expect(looksTruncated('{"a": "unterminated')).toBe(true);
    expect(looksTruncated('{"a": 1}')).toBe(false);
    expect(looksTruncated('hello')).toBe(false);
    expect(looksTruncated('{"a" 1}')).toBe(false);
  });
});
