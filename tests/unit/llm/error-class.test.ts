import { describe, expect, it } from 'vitest';
import { classifyThrown, classifyWire, classInfo, emptyWire, ERROR_CLASSES, isQuotaError, looksTruncated, readCompletion, type WireRecord } from '../../../src/llm/error-class.ts';
import { MESSAGE_MAX_CHARS, scrubMessage, serverMessage } from '../../../src/llm/server-message.ts';
import { assembleEventStream, looksLikeEventStream } from '../../../src/llm/sse.ts';

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
    expect(classifyWire(json(429, { error: { type: 'requests', code: 'rate_limit_exceeded' } }, { headers: { 'retry-after': '1' } })).error).toBe('rate-limit');
    expect(classifyWire(json(429, { error: { type: 'insufficient_quota', code: 'insufficient_quota' } })).error).toBe('quota');
    expect(classifyWire(json(429, 'Too Many Requests')).error).toBe('rate-limit');
  });

  it('names status classes', () => {
    expect(classifyWire(json(500, { error: {} })).error).toBe('server-error');
    expect(classifyWire(wire({ status: 502, contentType: 'text/html', body: '<html>bad gateway</html>' })).error).toBe('server-error');
    expect(classifyWire(json(401, { error: {} })).error).toBe('auth');
    expect(classifyWire(json(404, { error: { code: 'model_not_found' } })).error).toBe('not-found');
    expect(classifyWire(json(422, { error: { message: 'messages: field required' } })).error).toBe('bad-request');
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
    expect(noUsage.completion).toEqual({ content: 'hello', reasoning: null, finishReason: 'stop', usage: null, model: null });
    expect(classifyWire(json(200, completion({ usage: { prompt_tokens: 'x' } }))).error).toBe('missing-usage');
    const ok = classifyWire(json(200, completion()));
    expect(ok.error).toBeNull();
    expect(ok.completion?.usage).toEqual({ prompt_tokens: 3, completion_tokens: 2 });
    expect(readCompletion([1, 2])).toEqual({ ok: false, error: 'non-json', usage: null });
    // A reply cut at the token limit was still paid for: its usage is kept.
    const cut = classifyWire(json(200, completion({ choices: [{ index: 0, message: { role: 'assistant', content: 'cu' }, finish_reason: 'length' }] })));
    expect(cut).toEqual({ error: 'length', usage: { prompt_tokens: 3, completion_tokens: 2 }, finishReason: 'length', model: null });
  });

  it('knows which classes are worth a retry and which replies are still usable', () => {
    const retryable = ERROR_CLASSES.filter((c) => classInfo(c).retryable);
    expect(retryable).toEqual(['timeout', 'network', 'rate-limit', 'server-error', 'html-body', 'non-json', 'truncated-json', 'empty-choices', 'generation-error']);
    expect(ERROR_CLASSES.filter((c) => classInfo(c).usable)).toEqual(['missing-usage']);
    expect(ERROR_CLASSES.filter((c) => !classInfo(c).tokensUnknown)).toEqual(['refused', 'dns', 'rate-limit', 'quota', 'server-error', 'auth', 'not-found', 'context-length', 'bad-request']);
    // Every class says what it means and what to do.
    for (const c of ERROR_CLASSES) expect(classInfo(c).hint.length, c).toBeGreaterThan(20);
  });

  it('calls a JSON prefix truncated and anything else not', () => {
    expect(looksTruncated('{"a": [1, 2')).toBe(true);
    expect(looksTruncated('{"a": "unterminated')).toBe(true);
    expect(looksTruncated('{"a": 1}')).toBe(false);
    expect(looksTruncated('hello')).toBe(false);
    expect(looksTruncated('{"a" 1}')).toBe(false);
  });
});

describe('generation errors are endpoint failures, never answers', () => {
  const choice = (finish: string | null, content: unknown = 'half a fi') => ({ index: 0, message: { role: 'assistant', content }, finish_reason: finish });

  it('classifies finish reasons that are not a normal stop', () => {
    expect(classifyWire(json(200, completion({ choices: [choice('error')] }))).error).toBe('generation-error');
    expect(classifyWire(json(200, completion({ choices: [choice('content_filter')] }))).error).toBe('content-filter');
    expect(classifyWire(json(200, completion({ choices: [choice('tool_calls', null)] }))).error).toBe('abnormal-finish');
    expect(classifyWire(json(200, completion({ choices: [choice('abort')] }))).error).toBe('abnormal-finish');
    for (const normal of ['stop', 'eos', 'end_turn', null]) expect(classifyWire(json(200, completion({ choices: [choice(normal, 'ok')] }))).error, String(normal)).toBeNull();
  });

  it('never uses a 200 that carries an error object, with or without choices', () => {
    const midway = classifyWire(json(200, completion({ choices: [choice('error')], error: { message: 'Provider returned error', code: 502 } })));
    expect(midway).toMatchObject({ error: 'generation-error', usage: { prompt_tokens: 3, completion_tokens: 2 }, finishReason: 'error' });
    expect(classifyWire(json(200, completion({ error: { message: 'upstream', code: 500 } }))).error).toBe('generation-error');
    expect(classifyWire(json(200, { error: { message: 'The model is overloaded.', type: 'server_error' } })).error).toBe('generation-error');
    expect(classifyWire(json(200, [{ error: { message: 'x', code: 500 } }])).error).toBe('generation-error');
    // An error code of 429 or 402 inside a 200 is a rate limit or a quota, read as such.
    expect(classifyWire(json(200, { error: { message: 'Rate limit exceeded: free-models-per-min.', code: 429 } })).error).toBe('rate-limit');
    expect(classifyWire(json(200, { error: { message: 'Rate limit exceeded: free-models-per-day.', code: 429 } })).error).toBe('quota');
    expect(classifyWire(json(200, { error: { message: 'Insufficient credits', code: 402 } })).error).toBe('quota');
    // Null, empty: no error.
    expect(classifyWire(json(200, completion({ error: null }))).error).toBeNull();
  });
});

describe('quotas, missing models and context windows', () => {
  it('tells a spent quota from a rate limit', () => {
    expect(classifyWire(json(402, { error: { message: 'Insufficient credits.', code: 402 } })).error).toBe('quota');
    expect(classifyWire(json(429, { error: { message: 'Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day', code: 429, metadata: { headers: {} } } })).error).toBe('quota');
    expect(classifyWire(json(429, { error: { message: 'Rate limit reached for model `m` on requests per day (RPD): Limit 1000, Used 1000' } })).error).toBe('quota');
    expect(classifyWire(json(429, { error: { message: 'Rate limit exceeded: free-models-per-min.', code: 429 } })).error).toBe('rate-limit');
    expect(isQuotaError(429, { error: 'You have exceeded your daily quota' })).toBe(true);
  });

  it('names a context-length error and a missing model', () => {
    expect(classifyWire(json(400, { object: 'error', message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.", type: 'BadRequestError', code: 400 })).error).toBe('context-length');
    expect(classifyWire(json(400, { error: { message: 'the request exceeds the available context size, try increasing it (n_ctx)' } })).error).toBe('context-length');
    expect(classifyWire(json(404, { error: { message: 'model "llama3" not found, try pulling it first' } })).error).toBe('not-found');
    expect(classifyWire(json(400, { error: 'No models loaded.' })).error).toBe('bad-request');
    expect(classifyWire(wire({ status: 301, body: '' })).error).toBe('bad-request');
  });
});

describe('bodies in other shapes', () => {
  const sse = (events: unknown[], done = true) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');
  const delta = (d: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) => ({ object: 'chat.completion.chunk', model: 'm-served', choices: [{ index: 0, delta: d, finish_reason: finish }], ...extra });

  it('reads an event stream sent though none was asked for', () => {
    const body = ': keep-alive\n\n' + sse([delta({ role: 'assistant', content: '' }), delta({ reasoning_content: 'hm' }), delta({ content: 'hel' }), delta({ content: 'lo' }), delta({}, 'stop', { usage: { prompt_tokens: 4, completion_tokens: 2 } })]);
    expect(looksLikeEventStream(body, 'text/event-stream')).toBe(true);
    const v = classifyWire(wire({ status: 200, contentType: 'text/event-stream', body }));
    expect(v).toMatchObject({ error: null, streamed: true, model: 'm-served', completion: { content: 'hello', reasoning: { sources: ['reasoning-field'], text: 'hm' }, usage: { prompt_tokens: 4, completion_tokens: 2 } } });
    // Without its content type, still recognised.
    expect(classifyWire(wire({ status: 200, contentType: 'application/json', body })).error).toBeNull();
  });

  it('calls a stream cut before its end truncated, and an error event a generation error', () => {
    expect(classifyWire(wire({ status: 200, contentType: 'text/event-stream', body: sse([delta({ content: 'hel' })], false) })).error).toBe('truncated-json');
    const failed = sse([delta({ content: 'hel' }), { error: { message: 'Provider disconnected', code: 502 }, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }] }]);
    expect(classifyWire(wire({ status: 200, contentType: 'text/event-stream', body: failed })).error).toBe('generation-error');
    expect(assembleEventStream('event: ping\n\n')).toBeNull();
  });

  it('reads content given as text parts', () => {
    const parts = completion({ choices: [{ index: 0, message: { role: 'assistant', content: [{ type: 'text', text: 'hel' }, { type: 'text', text: 'lo' }] }, finish_reason: 'stop' }] });
    expect(classifyWire(json(200, parts))).toMatchObject({ error: null, completion: { content: 'hello' } });
  });
});

describe('what the server said', () => {
  it('finds the message in every error shape', () => {
    expect(serverMessage(JSON.stringify({ error: { message: 'Invalid model', type: 'invalid_request_error' } }), 'application/json')).toBe('Invalid model');
    expect(serverMessage(JSON.stringify({ object: 'error', message: "This model's maximum context length is 4096 tokens.", code: 400 }), null)).toBe("This model's maximum context length is 4096 tokens.");
    expect(serverMessage(JSON.stringify({ error: 'No models loaded.' }), null)).toBe('No models loaded.');
    expect(serverMessage(JSON.stringify({ detail: 'Not Found' }), null)).toBe('Not Found');
    expect(serverMessage(JSON.stringify({ error: { message: 'Provider returned error', code: 502, metadata: { raw: 'upstream timed out', provider_name: 'X' } } }), null)).toBe('Provider returned error (provider: upstream timed out)');
    expect(serverMessage('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>', 'text/html')).toBe('502 Bad Gateway');
    expect(serverMessage('upstream connect error\n  or disconnect', 'text/plain')).toBe('upstream connect error or disconnect');
    expect(serverMessage('data: {"error": {"message": "Provider disconnected"}}\n\n', 'text/event-stream')).toBe('Provider disconnected');
    expect(serverMessage('', null)).toBeNull();
    expect(serverMessage('x'.repeat(1000), null)).toHaveLength(MESSAGE_MAX_CHARS);
  });

  it('scrubs keys and Authorization values out of a message', () => {
    const key = 'sk-or-v1-0123456789abcdef0123456789abcdef';
    expect(scrubMessage(`Incorrect API key provided: ${key}.`, [key])).toBe('Incorrect API key provided: [redacted].');
    expect(scrubMessage('Incorrect API key provided: sk-proj-****abcd1234.', [])).toBe('Incorrect API key provided: sk-[redacted].');
    // A piece of the key, as a masked echo shows it.
    expect(scrubMessage('key ends in ...89abcdef0123456789', [key])).not.toContain('89abcdef0123');
    expect(scrubMessage('got header Authorization: Bearer abc.def.ghi', [])).toBe('got header Authorization: Bearer [redacted]');
    expect(scrubMessage('bad api_key=hunter2hunter2&x=1', [])).toBe('bad api_key=[redacted]&x=1');
    expect(scrubMessage('max_tokens: 4096 is too many tokens', [])).toBe('max_tokens: 4096 is too many tokens');
  });
});
