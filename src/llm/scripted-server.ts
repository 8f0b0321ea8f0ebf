/**
 * The embedded default endpoint: an OpenAI-compatible server on 127.0.0.1 that answers from a
 * packet's `replies/` (model `scripted:<packet>/<reply>`), plus fault models that misbehave in
 * one named way each, for tests: among them the quirks of the free servers (reasoning in the
 * content, generation errors in a 200, rate limits that say when only in reset headers or error
 * metadata, daily quotas, streams nobody asked for, compressed bodies). It honours max_tokens,
 * answers every field the OpenAI schema requires, and records every request it saw, so a test
 * can hold the client's ledger against the server's own count.
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';

/** Where scripted replies come from. */
export interface ReplyStore {
  /** The reply text, or undefined when there is no such packet or reply. */
  get(packet: string, reply: string): Promise<string | undefined>;
  /** Every `<packet>/<reply>` the store holds, sorted. */
  list(): Promise<string[]>;
}

/**
 * Replies read from packet folders: `<dir>/replies/<reply>.md`. `replies` lists each packet's reply
 * files (relative to replies/); `render`, when given, is applied to each reply's text (a packet
 * with variants serves its first variant's replies, their placeholders written in).
 */
export function replyStoreFromDirs(packets: ReadonlyMap<string, { dir: string; replies: readonly string[]; render?: (text: string) => string }>): ReplyStore {
  return {
    async get(packet, reply) {
      const p = packets.get(packet);
      if (!p || !p.replies.includes(`${reply}.md`)) return undefined;
      const text = await readFile(path.join(p.dir, 'replies', `${reply}.md`), 'utf8').catch(() => undefined);
      return text !== undefined && p.render ? p.render(text) : text;
    },
    async list() {
      const out: string[] = [];
      for (const [id, p] of packets) for (const r of p.replies) if (r.endsWith('.md') && !r.includes('/')) out.push(`${id}/${r.slice(0, -3)}`);
      return out.sort();
    },
  };
}

/** The fault models, each failing in one way. */
export const FAULT_MODELS = {
  'fault:reset': 'hangs up before answering (a network error)',
  'fault:429-retry-after': 'HTTP 429 with Retry-After: 1',
  'fault:429-retry-after-date': 'HTTP 429 with Retry-After as an HTTP date 2 s ahead',
  'fault:429-absurd': 'HTTP 429 with Retry-After: 99999999 (absurd, to be ignored)',
  'fault:insufficient-quota': 'HTTP 429 with error code insufficient_quota',
  'fault:401': 'HTTP 401: bad key',
  'fault:500': 'HTTP 500',
  'fault:slow': 'answers after the server\'s slow delay',
  'fault:garbage-json': 'HTTP 200, application/json, a body that is not JSON',
  'fault:truncated-json': 'HTTP 200, application/json, the first half of a completion',
  'fault:cut-body': 'HTTP 200, promises more bytes than it sends, then hangs up',
  'fault:html': 'HTTP 200, an HTML page',
  'fault:empty-choices': 'a completion with no choices',
  'fault:no-usage': 'a completion without usage',
  'fault:length': 'a completion cut at the token limit (finish_reason "length")',
  'fault:429-reset-requests': 'HTTP 429 that says when only in x-ratelimit-reset-requests: 8s (no Retry-After)',
  'fault:429-reset-epoch': 'HTTP 429 with x-ratelimit-reset as an epoch time in ms, 3 s ahead',
  'fault:429-metadata-reset': 'HTTP 429 whose error.metadata.headers hold X-RateLimit-Reset, 5 s ahead (a per-minute limit)',
  'fault:429-daily-quota': 'HTTP 429 for a per-day free-model limit, reset at midnight UTC (error.metadata says so)',
  'fault:402': 'HTTP 402: the credits are spent',
  'fault:context-length': 'HTTP 400 with a context-length error as a top-level message, as vLLM answers',
  'fault:no-models-loaded': 'HTTP 400 with "No models loaded" as an error string, as LM Studio answers',
  'fault:404-not-pulled': 'HTTP 404: "model not found, try pulling it first", as Ollama answers',
  'fault:finish-error': 'HTTP 200, the reply cut midway, finish_reason "error" and a top-level error (a mid-generation failure)',
  'fault:content-filter': 'HTTP 200, the reply cut midway, finish_reason "content_filter"',
  'fault:error-200': 'HTTP 200 whose body is only an error object',
  'fault:think': 'the reply after a <think> block with a draft and a code fence left open',
  'fault:think:<reply>': 'the reply after a <think> block holding the packet\'s reply <reply> as a draft',
  'fault:think-no-open': 'the reply after reasoning whose <think> the chat template opened (only </think> shows)',
  'fault:reasoning-field': 'the reply, with a draft in message.reasoning_content',
  'fault:content-parts': 'the reply as an array of text parts',
  'fault:sse': 'the reply as server-sent events, though the request says stream: false',
  'fault:served-model': 'the reply, from another model than the one asked for',
  'fault:gzip': 'the reply gzip-compressed, whatever the request\'s Accept-Encoding',
} as const;

/** A fault model's name. */
export type FaultModel = keyof typeof FAULT_MODELS;

/** What the server saw of one request. */
export interface SeenRequest {
  method: string;
  path: string;
  /** The model requested, when the body named one. */
  model: string | null;
  /** The request body as received. */
  body: string;
  /** Request body bytes received (the client's bytes out). */
  bytesIn: number;
  /** Response body bytes written (the client's bytes in). */
  bytesOut: number;
  /** Status sent, or null when the server hung up without one. */
  status: number | null;
  /** The Authorization header, kept in memory only (tests check a key arrived, and went nowhere else). */
  authorization: string | null;
  /** The Accept-Encoding header the client sent. */
  acceptEncoding: string | null;
  /** The request's max_tokens (or max_completion_tokens), when it sent one. */
  maxTokens: number | null;
  /** The request's `stream` field, when it sent one. */
  stream: boolean | null;
}

/** A running server. */
export interface ScriptedServer {
  /** Base URL for an OpenAI client: `http://127.0.0.1:<port>/v1`. */
  url: string;
  port: number;
  /** Every request seen, in arrival order. */
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** Options of {@link startScriptedServer}. */
export interface ScriptedServerOptions {
  replies: ReplyStore;
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Delay of `fault:slow`, ms (default 30 000). */
  slowMs?: number;
  /** Wall clock, for HTTP-date Retry-After. */
  nowEpochMs?: () => number;
}

const MAX_BODY = 8 * 1024 * 1024;
const FAULT_TEXT = 'This is a fault model of packet-kit. It changes no file.';

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** What shapes one completion body. */
interface CompletionExtra {
  finish?: string;
  usage?: boolean;
  choices?: boolean;
  /** The request's max_tokens: a longer reply is cut there, finish_reason "length". */
  maxTokens?: number | null;
  /** Fields added to the message (reasoning_content, a content given as parts). */
  message?: Record<string, unknown>;
  /** Fields added to the body (an error object). */
  body?: Record<string, unknown>;
  /** Tokens the reply spent beyond its text (reasoning). */
  extraTokens?: number;
}

/** A chat completion with every field the OpenAI schema requires (choices[].logprobs, message.refusal). */
function completion(model: string, n: number, content: string, promptTokens: number, extra: CompletionExtra = {}): Record<string, unknown> {
  let text = content;
  let finish = extra.finish ?? 'stop';
  if (extra.maxTokens && estimateTokens(text) > extra.maxTokens) {
    text = text.slice(0, extra.maxTokens * 4);
    finish = 'length';
  }
  const body: Record<string, unknown> = {
    id: `chatcmpl-scripted-${n}`,
    object: 'chat.completion',
    created: 0,
    model,
    choices: extra.choices === false ? [] : [{ index: 0, message: { role: 'assistant', content: text, refusal: null, ...extra.message }, logprobs: null, finish_reason: finish }],
    ...extra.body,
  };
  if (extra.usage !== false) {
    const c = estimateTokens(text) + (extra.extraTokens ?? 0);
    body.usage = { prompt_tokens: promptTokens, completion_tokens: c, total_tokens: promptTokens + c };
  }
  return body;
}

/** The reply as server-sent events, as a streaming server sends it. */
function eventStream(model: string, n: number, content: string, promptTokens: number): string {
  const chunk = (delta: Record<string, unknown>, finish: string | null, usage?: unknown) =>
    `data: ${JSON.stringify({ id: `chatcmpl-scripted-${n}`, object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
  const third = Math.ceil(content.length / 3);
  const c = estimateTokens(content);
  return [
    ': keep-alive\n\n',
    chunk({ role: 'assistant', content: '' }, null),
    chunk({ content: content.slice(0, third) }, null),
    chunk({ content: content.slice(third, 2 * third) }, null),
    chunk({ content: content.slice(2 * third) }, null),
    chunk({}, 'stop', { prompt_tokens: promptTokens, completion_tokens: c, total_tokens: promptTokens + c }),
    'data: [DONE]\n\n',
  ].join('');
}

const DRAFT_SKETCH = ['I should look at the failing test first, then sketch the change.', '', '```python', 'def sketch(text):', '    # an unfinished idea, the fence is never closed', ''].join('\n');

function apiError(message: string, type: string, code: string | null): string {
  return JSON.stringify({ error: { message, type, param: null, code } });
}

/** Start the server on 127.0.0.1. Close it when done (tests: in afterAll). */
export async function startScriptedServer(options: ScriptedServerOptions): Promise<ScriptedServer> {
  const requests: SeenRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const flakyCounts = new Map<string, number>();
  const nowEpochMs = options.nowEpochMs ?? (() => Date.now());
  let served = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const seen: SeenRequest = { method: req.method ?? '', path: (req.url ?? '').split('?')[0]!, model: null, body, bytesIn: size, bytesOut: 0, status: null, authorization: req.headers.authorization ?? null, acceptEncoding: req.headers['accept-encoding'] ?? null, maxTokens: null, stream: null };
      requests.push(seen);
      const send = (status: number, text: string, headers: Record<string, string> = {}) => {
        seen.status = status;
        seen.bytesOut = Buffer.byteLength(text);
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(seen.bytesOut), ...headers });
        res.end(text);
      };
      if (size > MAX_BODY) return send(413, apiError('request body too large', 'invalid_request_error', null));
      if (req.method === 'GET' && seen.path === '/v1/models') {
        void options.replies.list().then((list) => {
          const ids = [...list.map((r) => `scripted:${r}`), ...Object.keys(FAULT_MODELS).filter((k) => !k.includes('<'))];
          send(200, JSON.stringify({ object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'packet-kit' })) }));
        });
        return;
      }
      if (req.method !== 'POST' || seen.path !== '/v1/chat/completions') return send(404, apiError(`no route ${req.method} ${seen.path}`, 'invalid_request_error', 'not_found'));
      let parsed: { model?: unknown; messages?: unknown };
      try {
        parsed = JSON.parse(body) as typeof parsed;
      } catch {
        return send(400, apiError('the request body is not JSON', 'invalid_request_error', null));
      }
      if (typeof parsed.model !== 'string' || !Array.isArray(parsed.messages)) return send(400, apiError('model and messages are required', 'invalid_request_error', null));
      seen.model = parsed.model;
      const p = parsed as { max_tokens?: unknown; max_completion_tokens?: unknown; stream?: unknown };
      const max = typeof p.max_tokens === 'number' ? p.max_tokens : typeof p.max_completion_tokens === 'number' ? p.max_completion_tokens : null;
      seen.maxTokens = max !== null && Number.isInteger(max) && max > 0 ? max : null;
      seen.stream = typeof p.stream === 'boolean' ? p.stream : null;
      const promptText = (parsed.messages as { content?: unknown }[]).map((m) => (typeof m?.content === 'string' ? m.content : '')).join('\n');
      const promptTokens = estimateTokens(promptText);
      const n = ++served;
      void answer(parsed.model, n, promptTokens, seen, send, res, req);
    });
  });

  async function scripted(model: string): Promise<string | undefined> {
    const m = /^scripted:([^/]+)\/(.+)$/.exec(model);
    if (!m) return undefined;
    return options.replies.get(m[1]!, m[2]!);
  }

  async function answer(
    model: string,
    n: number,
    promptTokens: number,
    seen: SeenRequest,
    send: (status: number, text: string, headers?: Record<string, string>) => void,
    res: http.ServerResponse,
    req: http.IncomingMessage,
  ): Promise<void> {
    const flaky = /^flaky:(\d+):(.+)$/.exec(model);
    if (flaky) {
      const count = (flakyCounts.get(model) ?? 0) + 1;
      flakyCounts.set(model, count);
      if (count <= Number(flaky[1])) return send(503, apiError('the server is warming up', 'server_error', null), { 'retry-after': '0' });
      model = flaky[2]!;
    }
    const [fault, inner] = model.includes('@') ? [model.slice(0, model.indexOf('@')), model.slice(model.indexOf('@') + 1)] : [model, null];
    const content = async () => (inner ? await scripted(inner) : FAULT_TEXT) ?? FAULT_TEXT;
    const maxTokens = seen.maxTokens;
    const ok = async (extra: CompletionExtra = {}, text?: string) => send(200, JSON.stringify(completion(model, n, text ?? (await content()), promptTokens, { maxTokens, ...extra })));
    const raw = (status: number, text: string, headers: Record<string, string>) => {
      seen.status = status;
      seen.bytesOut = Buffer.byteLength(text);
      res.writeHead(status, { 'content-length': String(seen.bytesOut), ...headers });
      res.end(text);
    };
    const draft = /^fault:think:(.+)$/.exec(fault);
    if (draft) {
      // A draft from another reply of the same packet, inside the reasoning; the answer after it.
      const packet = /^scripted:([^/]+)\//.exec(inner ?? '')?.[1];
      const draftText = (packet ? await options.replies.get(packet, draft[1]!) : undefined) ?? FAULT_TEXT;
      return ok({}, `<think>\nA first draft:\n\n${draftText}\nOn second thought the final answer differs from this draft.\n</think>\n\n${await content()}`);
    }
    switch (fault) {
      case 'fault:reset':
        seen.status = null;
        req.socket.destroy();
        return;
      case 'fault:429-retry-after':
        return send(429, apiError('Rate limit reached. Try again in 1s.', 'requests', 'rate_limit_exceeded'), { 'retry-after': '1' });
      case 'fault:429-retry-after-date':
        return send(429, apiError('Rate limit reached.', 'requests', 'rate_limit_exceeded'), { 'retry-after': new Date(nowEpochMs() + 2000).toUTCString() });
      case 'fault:429-absurd':
        return send(429, apiError('Rate limit reached.', 'requests', 'rate_limit_exceeded'), { 'retry-after': '99999999' });
      case 'fault:429-reset-requests':
        return send(429, apiError('Rate limit reached for requests.', 'requests', 'rate_limit_exceeded'), {
          'x-ratelimit-limit-requests': '30',
          'x-ratelimit-remaining-requests': '0',
          'x-ratelimit-reset-requests': '8s',
          'x-ratelimit-limit-tokens': '6000',
          'x-ratelimit-remaining-tokens': '5400',
          'x-ratelimit-reset-tokens': '1m30s',
        });
      case 'fault:429-reset-epoch':
        return send(429, apiError('Rate limit exceeded.', 'requests', 'rate_limit_exceeded'), { 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(nowEpochMs() + 3000) });
      case 'fault:429-metadata-reset':
        return send(
          429,
          JSON.stringify({ error: { message: 'Rate limit exceeded: free-models-per-min.', code: 429, metadata: { headers: { 'X-RateLimit-Limit': '20', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(nowEpochMs() + 5000) }, provider_name: null } } }),
        );
      case 'fault:429-daily-quota': {
        const midnight = new Date(nowEpochMs());
        midnight.setUTCHours(24, 0, 0, 0);
        return send(
          429,
          JSON.stringify({
            error: {
              message: 'Rate limit exceeded: free-models-per-day. Add credits to unlock more free model requests per day.',
              code: 429,
              metadata: { headers: { 'X-RateLimit-Limit': '50', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(midnight.getTime()) }, provider_name: null },
            },
          }),
        );
      }
      case 'fault:insufficient-quota':
        return send(429, apiError('You exceeded your current quota.', 'insufficient_quota', 'insufficient_quota'));
      case 'fault:402':
        return send(402, JSON.stringify({ error: { message: 'Insufficient credits. Add more credits to your account to continue.', code: 402 } }));
      case 'fault:401': {
        // Some servers and proxies echo the key they were given; the kit must not write it down.
        const token = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
        return send(401, apiError(`Incorrect API key provided: ${token}. Check the key and try again.`, 'invalid_request_error', 'invalid_api_key'));
      }
      case 'fault:500':
        return send(500, apiError('The server had an error while processing your request.', 'server_error', null));
      case 'fault:context-length':
        return send(
          400,
          JSON.stringify({
            object: 'error',
            message: `This model's maximum context length is 4096 tokens. However, you requested ${promptTokens + (maxTokens ?? 0)} tokens (${promptTokens} in the messages, ${maxTokens ?? 0} in the completion). Please reduce the length of the messages or completion.`,
            type: 'BadRequestError',
            param: null,
            code: 400,
          }),
        );
      case 'fault:no-models-loaded':
        return send(400, JSON.stringify({ error: 'No models loaded. Please load a model in the developer page or use the `lms load` command.' }));
      case 'fault:404-not-pulled':
        return send(404, JSON.stringify({ error: { message: `model "${inner ?? 'llama3'}" not found, try pulling it first`, type: 'api_error', param: null, code: null } }));
      case 'fault:slow': {
        const text = await content();
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) send(200, JSON.stringify(completion(model, n, text, promptTokens, { maxTokens })));
        }, options.slowMs ?? 30_000);
        timers.add(timer);
        res.on('close', () => {
          clearTimeout(timer);
          timers.delete(timer);
        });
        return;
      }
      case 'fault:garbage-json':
        return send(200, 'ok: here is your completion {{ not json');
      case 'fault:truncated-json': {
        const full = JSON.stringify(completion(model, n, FAULT_TEXT, promptTokens));
        return send(200, full.slice(0, Math.floor(full.length / 2)));
      }
      case 'fault:cut-body': {
        const full = JSON.stringify(completion(model, n, FAULT_TEXT, promptTokens));
        const half = full.slice(0, Math.floor(full.length / 2));
        seen.status = 200;
        seen.bytesOut = Buffer.byteLength(half);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(full)) });
        res.write(half, () => setTimeout(() => res.socket?.destroy(), 5));
        return;
      }
      case 'fault:html':
        return raw(200, '<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><p>Please sign in to continue.</p></body></html>\n', { 'content-type': 'text/html; charset=utf-8' });
      case 'fault:empty-choices':
        return send(200, JSON.stringify(completion(model, n, '', promptTokens, { choices: false })));
      case 'fault:no-usage':
        return ok({ usage: false });
      case 'fault:length': {
        const text = (await content()).slice(0, 40);
        return ok({ finish: 'length' }, text);
      }
      case 'fault:finish-error': {
        const text = await content();
        return ok({ finish: 'error', body: { error: { message: 'Provider returned error: upstream connection reset during generation', code: 502 } } }, text.slice(0, Math.floor(text.length / 2)));
      }
      case 'fault:content-filter': {
        const text = await content();
        return ok({ finish: 'content_filter' }, text.slice(0, Math.floor(text.length / 2)));
      }
      case 'fault:error-200':
        return send(200, JSON.stringify({ error: { message: 'The model is overloaded. Please try again later.', type: 'server_error', code: 503 } }));
      case 'fault:think':
        return ok({ extraTokens: estimateTokens(DRAFT_SKETCH) }, `<think>\n${DRAFT_SKETCH}\n</think>\n\n${await content()}`);
      case 'fault:think-no-open':
        return ok({ extraTokens: estimateTokens(DRAFT_SKETCH) }, `${DRAFT_SKETCH}\n</think>\n\n${await content()}`);
      case 'fault:reasoning-field':
        return ok({ message: { reasoning_content: `${DRAFT_SKETCH}\n\n\`\`\`python path=src/not_the_answer.py\nraise SystemExit(1)\n\`\`\`\n` } });
      case 'fault:content-parts': {
        const text = await content();
        const half = Math.floor(text.length / 2);
        return ok({ message: { content: [{ type: 'text', text: text.slice(0, half) }, { type: 'text', text: text.slice(half) }] } }, text);
      }
      case 'fault:sse':
        return raw(200, eventStream(model, n, await content(), promptTokens), { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      case 'fault:served-model': {
        const body = completion('packet-kit/fallback-model', n, await content(), promptTokens, { maxTokens });
        return send(200, JSON.stringify(body));
      }
      case 'fault:gzip': {
        const zipped = zlib.gzipSync(JSON.stringify(completion(model, n, await content(), promptTokens, { maxTokens })));
        seen.status = 200;
        seen.bytesOut = zipped.byteLength;
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(zipped.byteLength) });
        res.end(zipped);
        return;
      }
    }
    const text = await scripted(model);
    if (text === undefined) {
      return send(404, apiError(`The model "${model}" does not exist. Use scripted:<packet>/<reply> or a fault model (GET /v1/models lists them).`, 'invalid_request_error', 'model_not_found'));
    }
    send(200, JSON.stringify(completion(model, n, text, promptTokens, { maxTokens })));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
