/**
 * The OpenAI-compatible client: the official `openai` SDK with its own retries off, a fetch
 * that counts the bytes out and in and keeps what crossed the wire, and the kit's retry loop
 * around it. `complete` never throws: a failed call comes back as data.
 */
import { createHash } from 'node:crypto';
import OpenAI from 'openai';
import type { BudgetMeter } from './budget.ts';
import { classInfo, classifyWire, emptyWire, type ErrorClass, type WireRecord } from './error-class.ts';
import type { Ledger, UsageLine } from './ledger.ts';
import { retryLoop, type RetryPolicy, type StopReason, type WaitPlan } from './retry.ts';

/** One chat message. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Token usage as the endpoint reported it. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** A fetch-compatible function. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Wrap `inner` so every call fills `record`: the request body's size, then the status, the
 * headers the retry loop reads, and the body, read here (counted chunk by chunk, so a body cut
 * off midway still reports the bytes that came). The SDK gets a fresh Response with the same
 * status, headers and bytes.
 */
export function countingFetch(inner: FetchLike, record: WireRecord & { requestBody?: string }): FetchLike {
  return async (input, init) => {
    const body = typeof init?.body === 'string' ? init.body : init?.body instanceof Uint8Array ? new TextDecoder().decode(init.body) : '';
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
    record.contentType = response.headers.get('content-type')?.toLowerCase() ?? null;
    record.retryAfter = response.headers.get('retry-after');
    record.retryAfterMs = response.headers.get('retry-after-ms');
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

/** How to reach an endpoint. */
export interface ClientOptions {
  /** The API base URL, ending in `/v1` for most servers. */
  baseURL: string;
  /** The API key, or null for endpoints that need none. Never logged or written. */
  apiKey: string | null;
  /** The underlying fetch (default: the global one). */
  fetch?: FetchLike;
  /** Per-attempt timeout in ms. */
  attemptTimeoutMs: number;
  /** Query parameters sent with every request. */
  defaultQuery?: Record<string, string>;
}

/** What a call needs from its run: the budget, the ledger, the retry policy and the clocks. */
export interface CallContext {
  model: string;
  turn: number;
  meter: BudgetMeter;
  ledger: Ledger;
  policy: RetryPolicy;
  random: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Wall clock (epoch ms): ledger timestamps and HTTP-date Retry-After. */
  nowEpochMs: () => number;
  /** Monotonic clock in ms. */
  now: () => number;
  onWait?: (plan: WaitPlan, retry: number) => void;
}

/** The result of one logical call (all its attempts). Failures are data. */
export interface CallResult {
  /** The reply text, when a usable completion came back. */
  output: string | null;
  /** The final error class; `missing-usage` comes with an output. */
  error: ErrorClass | null;
  /** Usage of the final attempt; null when unknown. */
  usage: Usage | null;
  /** Attempts made (each one a model call and a ledger line). */
  attempts: number;
  /** Set when a budget cap stopped the call. */
  stop?: { reason: StopReason; detail: string };
  /** Why the call failed for good, in words. */
  detail?: string;
  /** The ledger lines of this call. */
  lines: UsageLine[];
}

/** One attempt, as data. */
interface Attempt {
  wire: WireRecord;
  error: ErrorClass | null;
  output: string | null;
  usage: Usage | null;
}

/** The client: one SDK instance per attempt, each with its own counting fetch. */
export interface ModelClient {
  complete(messages: readonly ChatMessage[], ctx: CallContext): Promise<CallResult>;
}

/** Make a client. No network traffic until a call. */
export function createModelClient(options: ClientOptions): ModelClient {
  const inner: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const sdk = (fetchImpl: FetchLike, timeout: number) =>
    new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey ?? 'none',
      organization: null,
      project: null,
      maxRetries: 0,
      // Uncompressed answers, so the bytes counted in are the bytes that crossed the wire.
      defaultHeaders: { 'accept-encoding': 'identity' },
      ...(options.defaultQuery && Object.keys(options.defaultQuery).length ? { defaultQuery: options.defaultQuery } : {}),
      timeout: Math.max(1, Math.floor(timeout)),
      fetch: fetchImpl as never,
    });

  async function attemptOnce(messages: readonly ChatMessage[], ctx: CallContext): Promise<Attempt> {
    const wire: WireRecord & { requestBody?: string } = emptyWire();
    const timeout = Math.min(options.attemptTimeoutMs, Math.max(1, ctx.meter.remainingMs()));
    // When the run's deadline, not the per-attempt limit, sets this attempt's timeout, a timeout is the deadline.
    const cutByDeadline = timeout < options.attemptTimeoutMs;
    const t0 = ctx.now();
    try {
      await sdk(countingFetch(inner, wire), timeout).chat.completions.create({ model: ctx.model, messages: messages.map((m) => ({ role: m.role, content: m.content })) });
    } catch {
      // Classified from the wire below; the SDK's own reading is not needed.
    }
    const elapsed = ctx.now() - t0;
    const timedOut = elapsed >= timeout - 5;
    const verdict = classifyWire(wire, { attemptTimedOut: timedOut, deadlinePassed: ctx.meter.remainingMs() <= 0 || (cutByDeadline && timedOut) });
    // No connection, no bytes on the wire: a refused or unresolved request sent nothing.
    if (verdict.error === 'refused' || verdict.error === 'dns') wire.bytesOut = 0;
    return { wire, error: verdict.error, output: verdict.completion?.content ?? null, usage: verdict.usage ?? null };
  }

  return {
    async complete(messages, ctx) {
      const lines: UsageLine[] = [];
      const result = await retryLoop<Attempt>({
        policy: ctx.policy,
        random: ctx.random,
        sleep: ctx.sleep,
        nowEpochMs: ctx.nowEpochMs,
        remainingMs: () => ctx.meter.remainingMs(),
        capReached: () => ctx.meter.capReached(),
        ...(ctx.onWait ? { onWait: ctx.onWait } : {}),
        attempt: async (n) => {
          const ts = new Date(ctx.nowEpochMs()).toISOString();
          const t0 = ctx.now();
          const a = await attemptOnce(messages, ctx);
          const usable = a.error === null || classInfo(a.error).usable;
          ctx.meter.record({ error: a.error, usable, errorKey: a.error ? `${a.error}|${a.wire.status ?? '-'}` : null, usage: a.usage });
          const body = (a.wire as { requestBody?: string }).requestBody ?? '';
          lines.push(
            await ctx.ledger.append({
              ts,
              model: ctx.model,
              turn: ctx.turn,
              attempt: n,
              prompt_tokens: a.usage?.prompt_tokens ?? null,
              completion_tokens: a.usage?.completion_tokens ?? null,
              bytes_out: a.wire.bytesOut,
              bytes_in: a.wire.bytesIn,
              status: a.wire.status,
              error: a.error,
              request: createHash('sha256').update(body).digest('hex').slice(0, 16),
              ms: Math.round(ctx.now() - t0),
            }),
          );
          if (usable) return { ok: true, value: a };
          return { ok: false, error: a.error!, headers: { retryAfter: a.wire.retryAfter, retryAfterMs: a.wire.retryAfterMs }, value: a };
        },
      });
      if (result.kind === 'ok') {
        const a = result.value;
        return { output: a.output, error: a.error, usage: a.usage, attempts: result.attempts, lines };
      }
      if (result.kind === 'failed' && result.error === 'deadline') {
        // The run's wall clock ran out mid-call: a cap, not an endpoint failure.
        return { output: null, error: 'deadline', usage: null, attempts: result.attempts, stop: { reason: 'wall-clock', detail: 'the wall-clock budget ran out during a call' }, lines };
      }
      if (result.kind === 'failed') {
        const why = result.why === 'not-retryable' ? 'not worth retrying' : `still failing after ${result.attempts} attempts`;
        return {
          output: null,
          error: result.error,
          usage: null,
          attempts: result.attempts,
          detail: `${result.error} (${classInfo(result.error).meaning}), ${why}`,
          lines,
        };
      }
      return {
        output: null,
        error: result.last?.error ?? null,
        usage: null,
        attempts: result.attempts,
        stop: { reason: result.reason, detail: result.detail },
        lines,
      };
    },
  };
}
