/**
 * A fetch for the SDK that sees the wire. The global fetch decompresses a gzip or brotli body
 * before anyone can count it, and some servers and proxies compress whatever the request's
 * Accept-Encoding says; so the kit makes its requests with node:http(s), counts the response
 * bytes as they arrive, and decompresses them itself. It fills a {@link WireRecord} as it goes:
 * the request body, the status, the content type, the rate-limit headers, the body (up to a
 * failure) and what broke. Redirects are not followed (the key would travel with them): a 3xx
 * comes back as it is.
 */
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import type { WireRecord } from './error-class.ts';
import { isRateLimitHeader } from './rate-limit.ts';

/** A fetch-compatible function. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The request body as text, from what the SDK passes. */
export function bodyText(body: RequestInit['body'] | undefined): string {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  if (body instanceof ArrayBuffer) return new TextDecoder().decode(new Uint8Array(body));
  return '';
}

/** Keep the response headers the kit reads. */
export function recordHeaders(record: WireRecord, headers: Iterable<[string, string]>): void {
  for (const [name, value] of headers) {
    const n = name.toLowerCase();
    if (n === 'content-type') record.contentType = value.toLowerCase();
    if (isRateLimitHeader(n)) record.headers[n] = value;
  }
}

/** Decompress a body by its Content-Encoding; a cut stream gives what could be read. */
export function decodeBody(bytes: Buffer, encoding: string | undefined, partial = false): Buffer {
  const e = (encoding ?? '').trim().toLowerCase();
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  try {
    if (e === 'gzip' || e === 'x-gzip') return zlib.gunzipSync(bytes, partial ? flush : {});
    if (e === 'deflate') return zlib.inflateSync(bytes, partial ? flush : {});
    if (e === 'br') return zlib.brotliDecompressSync(bytes, partial ? { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH } : {});
    if (e === 'zstd' && typeof zlib.zstdDecompressSync === 'function') return zlib.zstdDecompressSync(bytes);
  } catch (err) {
    if (!partial) throw err;
    return Buffer.alloc(0);
  }
  return bytes;
}

function abortError(signal: AbortSignal): Error {
  const reason = signal.reason as unknown;
  if (reason instanceof Error) return reason;
  return Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' });
}

/** A fetch over node:http(s) that fills `record` with what crossed the wire. */
export function wireFetch(record: WireRecord & { requestBody?: string }): FetchLike {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      const body = bodyText(init.body);
      record.requestBody = body;
      record.bytesOut = Buffer.byteLength(body);
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((v, k) => {
        headers[k] = v;
      });
      if (body) headers['content-length'] = String(Buffer.byteLength(body));
      const signal = init.signal ?? undefined;
      const fail = (err: unknown) => {
        record.thrown = err;
        reject(err);
      };
      if (signal?.aborted) return fail(abortError(signal));
      const lib = url.protocol === 'https:' ? https : http;
      const req = lib.request(url, { method: init.method ?? 'GET', headers });
      const onAbort = () => req.destroy(abortError(signal!));
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      req.on('error', (err) => {
        done();
        fail(err);
      });
      req.on('response', (res) => {
        record.status = res.statusCode ?? null;
        const pairs: [string, string][] = [];
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        recordHeaders(record, pairs);
        const encoding = res.headers['content-encoding'];
        const chunks: Buffer[] = [];
        let settled = false;
        const broke = (err: unknown) => {
          if (settled) return;
          settled = true;
          done();
          record.body = decodeBody(Buffer.concat(chunks), encoding, true).toString('utf8');
          fail(err);
        };
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          record.bytesIn += chunk.byteLength;
        });
        res.on('aborted', () => broke(Object.assign(new Error('terminated'), { code: 'UND_ERR_SOCKET' })));
        res.on('error', (err) => broke(err));
        res.on('close', () => {
          if (!res.complete) broke(Object.assign(new Error('terminated'), { code: 'UND_ERR_SOCKET' }));
        });
        res.on('end', () => {
          if (settled) return;
          settled = true;
          done();
          let bytes: Buffer;
          try {
            bytes = decodeBody(Buffer.concat(chunks), encoding);
          } catch (err) {
            record.body = '';
            return fail(err);
          }
          record.body = bytes.toString('utf8');
          const status = res.statusCode ?? 0;
          const out = new Headers();
          for (const [k, v] of pairs) if (!/^(content-encoding|content-length|transfer-encoding|connection|keep-alive)$/i.test(k)) out.append(k, v);
          const empty = status === 204 || status === 304 || status < 200;
          resolve(new Response(empty ? null : new Uint8Array(bytes), { status: status < 200 || status > 599 ? 502 : status, statusText: res.statusMessage ?? '', headers: out }));
        });
      });
      req.end(body || undefined);
    });
}

/**
 * Wrap another fetch so every call fills `record` (for a fetch given by the caller, as tests
 * do): bytes are counted as that fetch hands them over, after its own decompression.
 */
export function countingFetch(inner: FetchLike, record: WireRecord & { requestBody?: string }): FetchLike {
  return async (input, init) => {
    const body = bodyText(init?.body);
    record.requestBody = body;
    record.bytesOut = Buffer.byteLength(body);
    let response: Response;
    try {
      response = await inner(input, init);
    } catch (err) {
      record.thrown = err;
      throw err;
    }
    record.status = response.status;
    recordHeaders(record, response.headers);
    const chunks: Uint8Array[] = [];
    try {
      if (response.body) {
        const reader = response.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(value);
          record.bytesIn += value.byteLength;
        }
      }
    } catch (err) {
      record.thrown = err;
      record.body = Buffer.concat(chunks).toString('utf8');
      throw err;
    }
    const bytes = Buffer.concat(chunks);
    record.body = bytes.toString('utf8');
    const empty = response.status === 204 || response.status === 304;
    return new Response(empty ? null : bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
