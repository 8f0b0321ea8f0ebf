/**
 * The embedded default endpoint: an OpenAI-compatible server on 127.0.0.1 that answers from a
 * packet's `replies/` (model `scripted:<packet>/<reply>`), plus fault models that misbehave in
 * one named way each, for tests. It records every request it saw, so a test can hold the
 * client's ledger against the server's own count.
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/** Where scripted replies come from. */
export interface ReplyStore {
  /** The reply text, or undefined when there is no such packet or reply. */
  get(packet: string, reply: string): Promise<string | undefined>;
  /** Every `<packet>/<reply>` the store holds, sorted. */
  list(): Promise<string[]>;
}

/** Replies read from packet folders: `<dir>/replies/<reply>.md`. `replies` lists each packet's reply files (relative to replies/). */
export function replyStoreFromDirs(packets: ReadonlyMap<string, { dir: string; replies: readonly string[] }>): ReplyStore {
  return {
    async get(packet, reply) {
      const p = packets.get(packet);
      if (!p || !p.replies.includes(`${reply}.md`)) return undefined;
      return readFile(path.join(p.dir, 'replies', `${reply}.md`), 'utf8').catch(() => undefined);
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

function completion(model: string, n: number, content: string, promptTokens: number, extra: { finish?: string; usage?: boolean; choices?: boolean } = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: `chatcmpl-scripted-${n}`,
    object: 'chat.completion',
    created: 0,
    model,
    choices: extra.choices === false ? [] : [{ index: 0, message: { role: 'assistant', content }, finish_reason: extra.finish ?? 'stop' }],
  };
  if (extra.usage !== false) {
    const c = estimateTokens(content);
    body.usage = { prompt_tokens: promptTokens, completion_tokens: c, total_tokens: promptTokens + c };
  }
  return body;
}

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
      const seen: SeenRequest = { method: req.method ?? '', path: (req.url ?? '').split('?')[0]!, model: null, body, bytesIn: size, bytesOut: 0, status: null, authorization: req.headers.authorization ?? null, acceptEncoding: req.headers['accept-encoding'] ?? null };
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
          const ids = [...list.map((r) => `scripted:${r}`), ...Object.keys(FAULT_MODELS)];
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
      case 'fault:insufficient-quota':
        return send(429, apiError('You exceeded your current quota.', 'insufficient_quota', 'insufficient_quota'));
      case 'fault:401':
        return send(401, apiError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
      case 'fault:500':
        return send(500, apiError('The server had an error while processing your request.', 'server_error', null));
      case 'fault:slow': {
        const text = await content();
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) send(200, JSON.stringify(completion(model, n, text, promptTokens)));
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
      case 'fault:html': {
        const page = '<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><p>Please sign in to continue.</p></body></html>\n';
        seen.status = 200;
        seen.bytesOut = Buffer.byteLength(page);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(seen.bytesOut) });
        res.end(page);
        return;
      }
      case 'fault:empty-choices':
        return send(200, JSON.stringify(completion(model, n, '', promptTokens, { choices: false })));
      case 'fault:no-usage':
        return send(200, JSON.stringify(completion(model, n, await content(), promptTokens, { usage: false })));
      case 'fault:length': {
        const text = (await content()).slice(0, 40);
        return send(200, JSON.stringify(completion(model, n, text, promptTokens, { finish: 'length' })));
      }
    }
    const text = await scripted(model);
    if (text === undefined) {
      return send(404, apiError(`The model "${model}" does not exist. Use scripted:<packet>/<reply> or a fault model (GET /v1/models lists them).`, 'invalid_request_error', 'model_not_found'));
    }
    send(200, JSON.stringify(completion(model, n, text, promptTokens)));
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
