/**
 * What went wrong with one model call, as a small closed set of classes. A failed call is data
 * (`{ output, error, usage }`), never an exception out of a session; the class decides whether
 * the kit retries, and it is what the ledger records.
 */
import { splitReasoning } from './reasoning.ts';
import { assembleEventStream, looksLikeEventStream } from './sse.ts';

/** Every class a call can end in, besides success. */
export const ERROR_CLASSES = [
  'refused',
  'dns',
  'timeout',
  'network',
  'rate-limit',
  'quota',
  'server-error',
  'auth',
  'not-found',
  'context-length',
  'bad-request',
  'html-body',
  'non-json',
  'truncated-json',
  'empty-choices',
  'generation-error',
  'content-filter',
  'abnormal-finish',
  'reasoning-only',
  'missing-usage',
  'length',
  'deadline',
  'unknown',
] as const;

/** One class of failure. */
export type ErrorClass = (typeof ERROR_CLASSES)[number];

/** How the kit treats a class. */
export interface ClassInfo {
  /** Worth another attempt (budget permitting). */
  retryable: boolean;
  /**
   * The reply can still be used. Only `missing-usage`: the content is there, the tokens are
   * unknown (recorded as unknown, never as zero).
   */
  usable: boolean;
  /**
   * A call ending in this class may have spent tokens that nobody reported, so without usage its
   * tokens are unknown. False for a complete error answer (4xx, 5xx: not billed by the API's
   * contract) and for a request that never left (refused, DNS). Its ledger line still says null,
   * never zero; the sum just does not call the total unknown because of it.
   */
  tokensUnknown: boolean;
  /** One line for reports. */
  meaning: string;
  /** What to do about it, in one sentence. */
  hint: string;
}

/** The table behind {@link classInfo}. */
export const CLASS_INFO: Readonly<Record<ErrorClass, ClassInfo>> = {
  refused: {
    retryable: false,
    tokensUnknown: false,
    usable: false,
    meaning: 'connection refused: nothing listens at the endpoint',
    hint: 'Start the server, or check the host and port of --endpoint.',
  },
  dns: { retryable: false, tokensUnknown: false, usable: false, meaning: 'the endpoint host name does not resolve', hint: 'Check the host name of --endpoint.' },
  timeout: {
    retryable: true,
    tokensUnknown: true,
    usable: false,
    meaning: 'no answer within the per-attempt timeout',
    hint: 'A slow or loaded server: raise --attempt-timeout, or pick a smaller model.',
  },
  network: { retryable: true, tokensUnknown: true, usable: false, meaning: 'the connection broke before a response arrived', hint: 'Check the server is stable; a proxy may be cutting connections.' },
  'rate-limit': {
    retryable: true,
    tokensUnknown: false,
    usable: false,
    meaning: 'HTTP 429: rate limited',
    hint: 'The kit waits as long as the server asks (Retry-After, reset headers) within the budget; raise --max-seconds or try later.',
  },
  quota: {
    retryable: false,
    tokensUnknown: false,
    usable: false,
    meaning: 'the account\'s quota or credits are spent (HTTP 402, insufficient_quota, or a per-day limit)',
    hint: 'Not retried: retrying spends nothing but time. Wait for the quota to reset (the message says when, if the server did), add credits, or use another key or model.',
  },
  'server-error': { retryable: true, tokensUnknown: false, usable: false, meaning: 'HTTP 5xx from the endpoint', hint: 'The server failed; its message says why. Retried with backoff.' },
  auth: { retryable: false, tokensUnknown: false, usable: false, meaning: 'HTTP 401/403: the key is missing, wrong or not allowed', hint: 'Export the key in the variable --api-key-env names (default OPENAI_API_KEY).' },
  'not-found': {
    retryable: false,
    tokensUnknown: false,
    usable: false,
    meaning: 'HTTP 404: no such model, or no such route',
    hint: 'Check the model id (GET /v1/models lists them; Ollama needs the model pulled) and that the endpoint URL ends in /v1.',
  },
  'context-length': {
    retryable: false,
    tokensUnknown: false,
    usable: false,
    meaning: 'the prompt and max_tokens do not fit the model\'s context window',
    hint: 'Use a model with a longer context, start the server with a larger context size, or lower --max-reply-tokens.',
  },
  'bad-request': { retryable: false, tokensUnknown: false, usable: false, meaning: 'HTTP 4xx: the endpoint rejected the request', hint: 'Read the server\'s message: it names the field or the state it objects to.' },
  'html-body': { retryable: true, tokensUnknown: true, usable: false, meaning: 'an HTML page instead of JSON (a proxy or login page?)', hint: 'The URL may point at a web page or a proxy, not at the API; it usually ends in /v1.' },
  'non-json': { retryable: true, tokensUnknown: true, usable: false, meaning: 'a body that is not JSON', hint: 'The server answered something that is not a chat completion; check the URL and the server\'s logs.' },
  'truncated-json': { retryable: true, tokensUnknown: true, usable: false, meaning: 'the body (JSON or event stream) was cut off', hint: 'The connection or the server stopped mid-answer; retried.' },
  'empty-choices': { retryable: true, tokensUnknown: true, usable: false, meaning: 'a completion with no choice or no message text', hint: 'The server answered without text; retried.' },
  'generation-error': {
    retryable: true,
    tokensUnknown: true,
    usable: false,
    meaning: 'the server reported an error during generation (finish_reason "error", or an error object in a 200 answer)',
    hint: 'The reply is not used (it may be cut anywhere); retried. The server\'s message names the provider\'s failure.',
  },
  'content-filter': {
    retryable: false,
    tokensUnknown: true,
    usable: false,
    meaning: 'finish_reason "content_filter": the server withheld or cut the reply',
    hint: 'The reply is not used. The same prompt is filtered again, so it is not retried; try another model.',
  },
  'abnormal-finish': {
    retryable: false,
    tokensUnknown: true,
    usable: false,
    meaning: 'a finish_reason that is not a normal stop (tool_calls, abort, ...)',
    hint: 'The reply is not used; the server\'s finish reason is in usage.jsonl.',
  },
  'reasoning-only': {
    retryable: false,
    tokensUnknown: true,
    usable: false,
    meaning: 'the reply holds reasoning and no final answer',
    hint: 'The model spent its reply thinking: raise --max-reply-tokens, or use the model without reasoning.',
  },
  'missing-usage': {
    retryable: false,
    tokensUnknown: true,
    usable: true,
    meaning: 'the completion carries no token usage; tokens are unknown',
    hint: 'The reply is used; its tokens count as unknown in ledger.json and as their estimate for the budget.',
  },
  length: {
    retryable: false,
    tokensUnknown: true,
    usable: false,
    meaning: 'finish_reason "length": the reply was cut at the token limit',
    hint: 'A cut reply is never applied: raise --max-reply-tokens if the budget allows.',
  },
  deadline: { retryable: false, tokensUnknown: true, usable: false, meaning: 'the whole-run deadline passed during the call', hint: 'Raise the packet\'s wallSeconds, or use a faster endpoint.' },
  unknown: { retryable: false, tokensUnknown: true, usable: false, meaning: 'an error the kit does not recognise', hint: 'Read the server\'s message and usage.jsonl.' },
};

/** How the kit treats a class. */
export function classInfo(c: ErrorClass): ClassInfo {
  return CLASS_INFO[c];
}

/** What crossed the wire for one attempt, as the counting fetch saw it. */
export interface WireRecord {
  /** Request body bytes sent. */
  bytesOut: number;
  /** Response body bytes received as they crossed the wire, compressed or not (up to a failure, when the body was cut). */
  bytesIn: number;
  /** HTTP status, or null when no response arrived. */
  status: number | null;
  /** The response's Content-Type, lower case. */
  contentType: string | null;
  /** The response's rate-limit headers (Retry-After, retry-after-ms, x-ratelimit-*, ratelimit-*), names in lower case, values verbatim. */
  headers: Record<string, string>;
  /** The response body as text, decompressed (up to a failure). */
  body: string | null;
  /** What fetch threw, before or while reading the body. */
  thrown: unknown;
}

/** An empty record, before the attempt starts. */
export function emptyWire(): WireRecord {
  return { bytesOut: 0, bytesIn: 0, status: null, contentType: null, headers: {}, body: null, thrown: undefined };
}

/** The errno-style codes and names along an error's cause chain (and inside AggregateErrors). */
export function errorCodes(err: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number) => {
    if (!e || typeof e !== 'object' || seen.has(e) || depth > 8) return;
    seen.add(e);
    const o = e as { code?: unknown; name?: unknown; cause?: unknown; errors?: unknown; message?: unknown };
    if (typeof o.code === 'string') out.push(o.code);
    if (typeof o.name === 'string') out.push(o.name);
    if (typeof o.message === 'string' && o.message === 'terminated') out.push('terminated');
    visit(o.cause, depth + 1);
    if (Array.isArray(o.errors)) for (const x of o.errors) visit(x, depth + 1);
  };
  visit(err, 0);
  return out;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EAI_NODATA']);
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'TimeoutError',
  'APIConnectionTimeoutError',
]);

/** Classify a failure to get any response: refused, DNS, timeout, or another network error. */
export function classifyThrown(err: unknown, context: { deadlinePassed?: boolean; attemptTimedOut?: boolean } = {}): ErrorClass {
  const codes = errorCodes(err);
  if (codes.includes('ECONNREFUSED')) return 'refused';
  if (codes.some((c) => DNS_CODES.has(c))) return 'dns';
  if (context.deadlinePassed) return 'deadline';
  if (context.attemptTimedOut || codes.some((c) => TIMEOUT_CODES.has(c))) return 'timeout';
  if (codes.includes('AbortError')) return 'timeout';
  if (codes.length) return 'network';
  return 'unknown';
}

/** True when a JSON parse failure happened at the very end of the text: the body was cut, not garbage. */
export function looksTruncated(body: string): boolean {
  const text = body.trimEnd();
  if (!/^\s*[[{]/.test(text)) return false;
  try {
    JSON.parse(text);
    return false;
  } catch (err) {
    const message = (err as Error).message;
    if (/end of JSON input|Unterminated/i.test(message)) return true;
    const at = /position (\d+)/.exec(message);
    return at ? Number(at[1]) >= text.length - 1 : false;
  }
}

/** A parsed JSON body, or undefined. */
function parseJson(body: string | null): unknown {
  if (!body) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** The error object (or string) of an error body: `{"error": ...}`, or the first of a list of them. */
function errorOf(value: unknown): { type?: unknown; code?: unknown; message?: unknown; metadata?: unknown } | string | undefined {
  const top = Array.isArray(value) ? value[0] : value;
  if (!top || typeof top !== 'object') return undefined;
  const e = (top as { error?: unknown }).error;
  if (typeof e === 'string') return e;
  return e && typeof e === 'object' ? (e as { type?: unknown; code?: unknown; message?: unknown; metadata?: unknown }) : undefined;
}

const QUOTA_WORDS = /insufficient[_ ](quota|credits?|balance)|quota (exceeded|exhausted)|exceeded your (current )?quota|per[- _]day|per day|daily (limit|quota)|requests per day|\bRPD\b|out of credits|credits? (exhausted|depleted)|free-models-per-day/i;

/**
 * Is this error a spent quota (daily limit, credits, insufficient_quota) rather than a rate
 * limit that passes in seconds? Read from the error's code and type, its message, and
 * OpenRouter's metadata.
 */
export function isQuotaError(status: number | null, value: unknown): boolean {
  if (status === 402) return true;
  const e = errorOf(value);
  if (e === undefined) return false;
  if (typeof e === 'string') return QUOTA_WORDS.test(e);
  if (e.code === 402 || e.code === '402' || e.code === 'insufficient_quota' || e.type === 'insufficient_quota') return true;
  const words = [typeof e.message === 'string' ? e.message : '', e.metadata && typeof e.metadata === 'object' ? JSON.stringify(e.metadata) : ''].join(' ');
  return QUOTA_WORDS.test(words);
}

const CONTEXT_WORDS = /context (length|window)|maximum context|context_length_exceeded|too many tokens|prompt is too long|exceeds the (model's )?(maximum|max)|n_ctx|input is too long/i;

/** The class of an HTTP error status, read with its body where the body tells more. */
export function classifyStatus(status: number, body: string | null): ErrorClass {
  const value = parseJson(body);
  const e = errorOf(value);
  const said = [typeof e === 'string' ? e : typeof e?.message === 'string' ? e.message : '', typeof (value as { message?: unknown } | undefined)?.message === 'string' ? (value as { message: string }).message : '', e && typeof e === 'object' && typeof e.code === 'string' ? e.code : ''].join(' ');
  if (status === 429) return isQuotaError(status, value) ? 'quota' : 'rate-limit';
  if (status === 402) return 'quota';
  if (status >= 500) return 'server-error';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408) return 'timeout';
  if (status === 404) return 'not-found';
  if ((status === 400 || status === 413 || status === 422) && CONTEXT_WORDS.test(said)) return 'context-length';
  return 'bad-request';
}

/** A parsed chat completion, as far as the kit reads it. */
export interface CompletionShape {
  /** The final answer: the message text, reasoning removed. */
  content: string;
  /** The reasoning kept apart: where it came from, and its text. */
  reasoning: { sources: ReasoningSource[]; text: string } | null;
  finishReason: string | null;
  usage: { prompt_tokens: number; completion_tokens: number } | null;
  /** The model the server says answered. */
  model: string | null;
}

/** Where a reply's reasoning was found. */
export type ReasoningSource = 'think-tags' | 'reasoning-field' | 'content-parts';

/** The usage object of a completion body, when it is well formed. */
function readUsage(v: { usage?: unknown }): CompletionShape['usage'] {
  const u = v.usage as { prompt_tokens?: unknown; completion_tokens?: unknown } | undefined;
  return u && typeof u === 'object' && Number.isInteger(u.prompt_tokens) && Number.isInteger(u.completion_tokens) && (u.prompt_tokens as number) >= 0 && (u.completion_tokens as number) >= 0
    ? { prompt_tokens: u.prompt_tokens as number, completion_tokens: u.completion_tokens as number }
    : null;
}

/** Finish reasons that mean the model stopped by itself (or the server did not say). */
export const NORMAL_FINISH = new Set(['stop', 'eos', 'end_turn', 'stop_sequence']);

function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(textOf).join('');
  if (v && typeof v === 'object' && typeof (v as { text?: unknown }).text === 'string') return (v as { text: string }).text;
  return '';
}

/** A message's content as text parts (`[{type: "text", text}]`) or a string: the answer's text and any reasoning parts. */
function readContent(content: unknown): { text: string | null; reasoning: string } {
  if (typeof content === 'string') return { text: content, reasoning: '' };
  if (!Array.isArray(content)) return { text: null, reasoning: '' };
  let text = '';
  let reasoning = '';
  for (const part of content) {
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    if (!part || typeof part !== 'object') continue;
    const p = part as { type?: unknown; text?: unknown; thinking?: unknown; reasoning?: unknown };
    if (p.type === 'thinking' || p.type === 'reasoning') reasoning += textOf(p.thinking ?? p.reasoning ?? p.text);
    else if ((p.type === 'text' || p.type === 'output_text' || p.type === undefined) && typeof p.text === 'string') text += p.text;
  }
  return { text, reasoning };
}

/** The reasoning a server put in its own field: vLLM and others' `reasoning_content`, OpenRouter's `reasoning` and `reasoning_details`. */
function reasoningField(message: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof message.reasoning_content === 'string') parts.push(message.reasoning_content);
  if (typeof message.reasoning === 'string') parts.push(message.reasoning);
  else if (Array.isArray(message.reasoning_details)) parts.push(message.reasoning_details.map(textOf).join(''));
  return parts.filter((p) => p.trim()).join('\n');
}

/**
 * Read the parts of a completion the kit needs; a class when it is not a usable completion. The
 * usage comes back either way when the body reports it (a reply cut at the token limit was
 * still paid for). Generation errors are classes, never answers: finish_reason `error`,
 * `content_filter` or any other abnormal stop, and an error object in the body.
 */
export function readCompletion(
  value: unknown,
  status: number | null = 200,
): { ok: true; completion: CompletionShape } | { ok: false; error: ErrorClass; usage: CompletionShape['usage']; finishReason?: string | null; model?: string | null } {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    if (Array.isArray(value) && errorOf(value) !== undefined) return { ok: false, error: 'generation-error', usage: null };
    return { ok: false, error: 'non-json', usage: null };
  }
  const v = value as { choices?: unknown; usage?: unknown; error?: unknown; model?: unknown };
  const usage = readUsage(v);
  const model = typeof v.model === 'string' ? v.model : null;
  const choice = Array.isArray(v.choices) ? (v.choices[0] as { message?: Record<string, unknown>; finish_reason?: unknown } | undefined) : undefined;
  const finishReason = typeof choice?.finish_reason === 'string' ? choice.finish_reason : null;
  const fail = (error: ErrorClass) => ({ ok: false as const, error, usage, finishReason, model });
  // An error object in a 200 answer: never an answer, whatever else the body holds.
  const hasError = v.error !== undefined && v.error !== null && v.error !== '' && !(typeof v.error === 'object' && Object.keys(v.error as object).length === 0);
  if (hasError) {
    const e = errorOf(value);
    const code = e && typeof e === 'object' ? Number(e.code) : NaN;
    if (code === 429) return fail(isQuotaError(429, value) ? 'quota' : 'rate-limit');
    if (code === 402 || isQuotaError(status, value)) return fail('quota');
    return fail('generation-error');
  }
  if (!choice) return fail('empty-choices');
  if (finishReason === 'length') return fail('length');
  if (finishReason === 'error') return fail('generation-error');
  if (finishReason === 'content_filter') return fail('content-filter');
  if (finishReason !== null && !NORMAL_FINISH.has(finishReason)) return fail('abnormal-finish');
  const message = choice.message && typeof choice.message === 'object' ? choice.message : {};
  const { text, reasoning: partsReasoning } = readContent(message.content);
  const fieldReasoning = reasoningField(message);
  if (text === null || text.trim() === '') return fail(fieldReasoning || partsReasoning ? 'reasoning-only' : 'empty-choices');
  const split = splitReasoning(text);
  const sources: ReasoningSource[] = [];
  const texts: string[] = [];
  if (fieldReasoning) sources.push('reasoning-field'), texts.push(fieldReasoning);
  if (partsReasoning.trim()) sources.push('content-parts'), texts.push(partsReasoning);
  if (split.reasoning !== null) sources.push('think-tags'), texts.push(split.reasoning);
  if (split.answer.trim() === '') return fail('reasoning-only');
  return {
    ok: true,
    completion: { content: split.answer, reasoning: sources.length ? { sources, text: texts.join('\n\n') } : null, finishReason, usage, model },
  };
}

/** What the classifier read from one attempt. */
export interface WireVerdict {
  error: ErrorClass | null;
  completion?: CompletionShape;
  usage?: CompletionShape['usage'];
  /** The finish reason the server gave, when it gave one. */
  finishReason?: string | null;
  /** The model the server says answered. */
  model?: string | null;
  /** The body was an event stream (read as the completion it stands for). */
  streamed?: boolean;
}

/**
 * Classify one attempt from what crossed the wire. Returns null for a usable completion with
 * usage, `missing-usage` for a usable one without, and the failure class otherwise. The wire is
 * read directly, so the verdict does not depend on how the SDK parsed (or refused to parse) it.
 */
export function classifyWire(wire: WireRecord, context: { deadlinePassed?: boolean; attemptTimedOut?: boolean } = {}): WireVerdict {
  if (wire.status === null) return { error: classifyThrown(wire.thrown, context) };
  const status = wire.status;
  if (status >= 400 || (status >= 300 && status < 400)) return { error: status >= 400 ? classifyStatus(status, wire.body) : 'bad-request' };
  if (wire.thrown !== undefined) {
    // The status line arrived, then the body broke off.
    if (context.deadlinePassed) return { error: 'deadline' };
    if (context.attemptTimedOut) return { error: 'timeout' };
    return { error: 'truncated-json' };
  }
  const body = wire.body ?? '';
  const type = wire.contentType ?? '';
  let parsed: unknown;
  let streamed = false;
  if (looksLikeEventStream(body, type)) {
    const stream = assembleEventStream(body);
    if (!stream) return { error: 'non-json', streamed: true };
    if (!stream.complete) return { error: 'truncated-json', streamed: true, usage: readUsage(stream.completion) };
    parsed = stream.completion;
    streamed = true;
  } else {
    if (type.includes('html') || /^\s*<(!doctype|html|head|body)\b/i.test(body)) return { error: 'html-body' };
    try {
      parsed = JSON.parse(body);
    } catch {
      return { error: looksTruncated(body) ? 'truncated-json' : 'non-json' };
    }
  }
  const read = readCompletion(parsed, status);
  const extra = streamed ? { streamed } : {};
  if (!read.ok) return { error: read.error, usage: read.usage, finishReason: read.finishReason ?? null, model: read.model ?? null, ...extra };
  const c = read.completion;
  return { error: c.usage ? null : 'missing-usage', completion: c, usage: c.usage, finishReason: c.finishReason, model: c.model, ...extra };
}
