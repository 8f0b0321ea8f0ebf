/**
 * The OpenAI-compatible client: the official `openai` SDK with its own retries off, a fetch
 * that sees the wire (bytes as they crossed it, rate-limit headers, the body), and the kit's
 * retry loop around it. Before each call the budget is asked whether the call could cross the
 * token cap (the prompt counted with a real tokenizer, plus the request's max_tokens); a call
 * that could is not made. `complete` never throws: a failed call comes back as data, with the
 * class, the HTTP status and the server's own message.
 */
import { createHash } from 'node:crypto';
import OpenAI from 'openai';
import type { BudgetMeter } from './budget.ts';
import type { AttemptGate } from './endpoint-gate.ts';
import { classInfo, classifyWire, emptyWire, errorCodes, type ErrorClass, type ReasoningSource, type WireRecord } from './error-class.ts';
import type { Ledger, UsageLine } from './ledger.ts';
import { resetTime, serverWait } from './rate-limit.ts';
import { retryLoop, type CallEstimate, type RetryPolicy, type StopReason, type WaitPlan } from './retry.ts';
import { cut, scrubMessage, serverMessage } from './server-message.ts';
import { countChatTokens, countTextTokens } from './tokens.ts';
import { countingFetch, wireFetch, type FetchLike } from './wire-fetch.ts';

export type { FetchLike } from './wire-fetch.ts';

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

/**
 * The max_tokens a request sends unless told otherwise. The request uses `max_tokens`, not
 * `max_completion_tokens`: every server the kit targets (Ollama's and llama.cpp's /v1, vLLM,
 * LM Studio, OpenRouter) honours `max_tokens`, while older builds of some ignore the newer name
 * without a word, and an ignored limit would make the budget's upper bound a guess.
 */
export const DEFAULT_MAX_REPLY_TOKENS = 4096;

/** How to reach an endpoint. */
export interface ClientOptions {
  /** The API base URL, ending in `/v1` for most servers. */
  baseURL: string;
  /** The API key, or null for endpoints that need none. Never logged or written. */
  apiKey: string | null;
  /** The underlying fetch (default: the kit's own over node:http, which counts compressed bytes as sent). */
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
  /** The request's max_tokens (default {@link DEFAULT_MAX_REPLY_TOKENS}). */
  maxReplyTokens?: number;
  onWait?: (plan: WaitPlan, retry: number) => void;
  /** The endpoint's gate, shared by every session calling it (concurrency and rate-limit pauses). */
  gate?: AttemptGate;
}

/** A failed attempt as the server put it. */
export interface Failure {
  error: ErrorClass;
  /** HTTP status, or null when no response arrived. */
  status: number | null;
  /** The server's message (cut, scrubbed of keys), or what broke the connection. */
  message: string | null;
}

/** The result of one logical call (all its attempts). Failures are data. */
export interface CallResult {
  /** The final answer, reasoning removed, when a usable completion came back. */
  output: string | null;
  /** The reasoning kept apart from the answer: where it was, and how long. */
  reasoning: { sources: ReasoningSource[]; chars: number } | null;
  /** The final error class; `missing-usage` comes with an output. */
  error: ErrorClass | null;
  /** Usage of the final attempt; null when unknown. */
  usage: Usage | null;
  /** Attempts made (each one a model call and a ledger line). */
  attempts: number;
  /** Set when a budget cap stopped the call. */
  stop?: { reason: StopReason; detail: string; estimate?: CallEstimate };
  /** Why the call failed for good, in words. */
  detail?: string;
  /** The last failed attempt, when one failed. */
  failure?: Failure;
  /** The model the server says answered, when it is not the one asked for. */
  servedModel: string | null;
  /** The ledger lines of this call. */
  lines: UsageLine[];
}

/** One attempt, as data. */
interface Attempt {
  wire: WireRecord;
  error: ErrorClass | null;
  output: string | null;
  reasoning: { sources: ReasoningSource[]; text: string } | null;
  usage: Usage | null;
  finishReason: string | null;
  model: string | null;
  message: string | null;
}

/** The client: one SDK instance per attempt, each with its own recording fetch. */
export interface ModelClient {
  complete(messages: readonly ChatMessage[], ctx: CallContext): Promise<CallResult>;
}

/** A failure in words: class, meaning, HTTP status and the server's message. */
export function describeFailure(f: Failure): string {
  const what = `${f.error} (${classInfo(f.error).meaning})`;
  if (f.status === null) return f.message ? `${what}; no response (${f.message})` : what;
  return `${what}; the server said HTTP ${f.status}${f.message ? `: "${f.message}"` : ''}`;
}

/** Make a client. No network traffic until a call. */
export function createModelClient(options: ClientOptions): ModelClient {
  const secrets = options.apiKey ? [options.apiKey] : [];
  const sdk = (fetchImpl: FetchLike, timeout: number) =>
    new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey ?? 'none',
      organization: null,
      project: null,
      maxRetries: 0,
      // Uncompressed answers where the server obliges; the bytes are counted as sent either way.
      defaultHeaders: { 'accept-encoding': 'identity' },
      ...(options.defaultQuery && Object.keys(options.defaultQuery).length ? { defaultQuery: options.defaultQuery } : {}),
      timeout: Math.max(1, Math.floor(timeout)),
      fetch: fetchImpl as never,
    });

  async function attemptOnce(messages: readonly ChatMessage[], ctx: CallContext, maxTokens: number): Promise<Attempt> {
    const wire: WireRecord & { requestBody?: string } = emptyWire();
    const timeout = Math.min(options.attemptTimeoutMs, Math.max(1, ctx.meter.remainingMs()));
    // When the run's deadline, not the per-attempt limit, sets this attempt's timeout, a timeout is the deadline.
    const cutByDeadline = timeout < options.attemptTimeoutMs;
    const t0 = ctx.now();
    try {
      const fetchImpl = options.fetch ? countingFetch(options.fetch, wire) : wireFetch(wire);
      await sdk(fetchImpl, timeout).chat.completions.create({
        model: ctx.model,
        messages: messages.map((m) => ({ role: m.role, content: m.content })),
        max_tokens: maxTokens,
        stream: false,
      });
    } catch {
      // Classified from the wire below; the SDK's own reading is not needed.
    }
    const elapsed = ctx.now() - t0;
    const timedOut = elapsed >= timeout - 5;
    const verdict = classifyWire(wire, { attemptTimedOut: timedOut, deadlinePassed: ctx.meter.remainingMs() <= 0 || (cutByDeadline && timedOut) });
    // No connection, no bytes on the wire: a refused or unresolved request sent nothing.
    if (verdict.error === 'refused' || verdict.error === 'dns') wire.bytesOut = 0;
    let message: string | null = null;
    if (verdict.error && verdict.error !== 'missing-usage') {
      if (wire.status === null) message = [...new Set(errorCodes(wire.thrown))].slice(0, 3).join(', ') || null;
      else if (wire.status >= 300 && wire.status < 400) message = `a redirect (HTTP ${wire.status}); give the URL it redirects to`;
      else message = serverMessage(wire.body, wire.contentType);
      if (message) message = cut(scrubMessage(message, secrets));
    }
    const c = verdict.completion;
    return {
      wire,
      error: verdict.error,
      output: c?.content ?? null,
      reasoning: c?.reasoning ?? null,
      usage: verdict.usage ?? null,
      finishReason: verdict.finishReason ?? null,
      model: verdict.model ?? null,
      message,
    };
  }

  return {
    async complete(messages, ctx) {
      const lines: UsageLine[] = [];
      const maxTokens = ctx.maxReplyTokens ?? DEFAULT_MAX_REPLY_TOKENS;
      const promptCount = await countChatTokens(messages);
      let lastFailure: Failure | undefined;
      const result = await retryLoop<Attempt>({
        policy: ctx.policy,
        random: ctx.random,
        sleep: ctx.sleep,
        nowEpochMs: ctx.nowEpochMs,
        remainingMs: () => ctx.meter.remainingMs(),
        // Every cap, and the token cap with this call's estimate: a call that could cross it is not made.
        capReached: () => ctx.meter.capReached() ?? ctx.meter.nextCallStop(promptCount, maxTokens),
        ...(ctx.onWait ? { onWait: ctx.onWait } : {}),
        ...(ctx.gate ? { gate: ctx.gate } : {}),
        attempt: async (n) => {
          const ts = new Date(ctx.nowEpochMs()).toISOString();
          const t0 = ctx.now();
          const a = await attemptOnce(messages, ctx, maxTokens);
          const usable = a.error === null || classInfo(a.error).usable;
          const hints = { headers: a.wire.headers, body: a.wire.body };
          // A rate limit that says when to come back, within the time left, is a wait, not a repeated error.
          const said = a.error === 'rate-limit' ? serverWait(hints, ctx.nowEpochMs(), ctx.policy.maxRetryAfterMs) : null;
          const waits = said !== null && 'ms' in said && said.ms < ctx.meter.remainingMs();
          // Tokens nobody reported still count against the cap, as their estimate: the reply's text, or max_tokens when none came.
          let unreported = 0;
          if (!a.usage && (a.error === null || classInfo(a.error).tokensUnknown)) {
            const text = (a.output ?? '') + (a.reasoning?.text ?? '');
            unreported = ctx.meter.calibrated(promptCount) + (text ? Math.min(maxTokens, await countTextTokens(text)) : maxTokens);
          }
          ctx.meter.record({ error: a.error, usable, errorKey: a.error && !waits ? `${a.error}|${a.wire.status ?? '-'}` : null, usage: a.usage, promptCount, unreported });
          const body = (a.wire as { requestBody?: string }).requestBody ?? '';
          const served = a.model && a.model !== ctx.model ? a.model : null;
          lines.push(
            await ctx.ledger.append({
              ts,
              model: ctx.model,
              served_model: served,
              turn: ctx.turn,
              attempt: n,
              prompt_tokens: a.usage?.prompt_tokens ?? null,
              completion_tokens: a.usage?.completion_tokens ?? null,
              prompt_estimate: promptCount,
              max_tokens: maxTokens,
              bytes_out: a.wire.bytesOut,
              bytes_in: a.wire.bytesIn,
              status: a.wire.status,
              error: a.error,
              message: a.message,
              finish_reason: a.finishReason,
              reasoning_chars: a.reasoning ? a.reasoning.text.length : null,
              request: createHash('sha256').update(body).digest('hex').slice(0, 16),
              ms: Math.round(ctx.now() - t0),
            }),
          );
          if (usable) return { ok: true, value: a };
          lastFailure = { error: a.error!, status: a.wire.status, message: a.message };
          return { ok: false, error: a.error!, hints, value: a };
        },
      });
      const servedModel = lines.map((l) => l.served_model).findLast((m) => m !== null) ?? null;
      const base = { servedModel, lines, ...(lastFailure ? { failure: lastFailure } : {}) };
      if (result.kind === 'ok') {
        const a = result.value;
        const reasoning = a.reasoning ? { sources: a.reasoning.sources, chars: a.reasoning.text.length } : null;
        return { output: a.output, reasoning, error: a.error, usage: a.usage, attempts: result.attempts, ...base };
      }
      if (result.kind === 'failed' && result.error === 'deadline') {
        // The run's wall clock ran out mid-call: a cap, not an endpoint failure.
        return { output: null, reasoning: null, error: 'deadline', usage: null, attempts: result.attempts, stop: { reason: 'wall-clock', detail: 'the wall-clock budget ran out during a call' }, ...base };
      }
      if (result.kind === 'failed') {
        const why = result.why === 'not-retryable' ? 'not worth retrying' : `still failing after ${result.attempts} attempts`;
        const f = lastFailure ?? { error: result.error, status: result.value.wire.status, message: result.value.message };
        const reset = result.error === 'quota' ? resetTime({ headers: result.value.wire.headers, body: result.value.wire.body }, ctx.nowEpochMs()) : null;
        return {
          output: null,
          reasoning: null,
          error: result.error,
          usage: null,
          attempts: result.attempts,
          detail: `${describeFailure(f)}, ${why}${reset ? `; the quota resets at ${reset}` : ''}`,
          ...base,
        };
      }
      return {
        output: null,
        reasoning: null,
        error: result.last?.error ?? null,
        usage: null,
        attempts: result.attempts,
        stop: { reason: result.reason, detail: result.detail, ...(result.estimate ? { estimate: result.estimate } : {}) },
        ...base,
      };
    },
  };
}
