/**
 * What went wrong with one model call, as a small closed set of classes. A failed call is data
 * (`{ output, error, usage }`), never an exception out of a session; the class decides whether
 * the kit retries, and it is what the ledger records.
 */

/** Every class a call can end in, besides success. */
export const ERROR_CLASSES = [
  'refused',
  'dns',
  'timeout',
  'network',
  'rate-limit',
  'insufficient-quota',
  'server-error',
  'auth',
  'bad-request',
  'html-body',
  'non-json',
  'truncated-json',
  'empty-choices',
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
}

/** The table behind {@link classInfo}. */
export const CLASS_INFO: Readonly<Record<ErrorClass, ClassInfo>> = {
  refused: { retryable: false, tokensUnknown: false, usable: false, meaning: 'connection refused: nothing listens at the endpoint' },
  dns: { retryable: false, tokensUnknown: false, usable: false, meaning: 'the endpoint host name does not resolve' },
  timeout: { retryable: true, tokensUnknown: true, usable: false, meaning: 'no answer within the per-attempt timeout' },
  network: { retryable: true, tokensUnknown: true, usable: false, meaning: 'the connection broke before a response arrived' },
  'rate-limit': { retryable: true, tokensUnknown: false, usable: false, meaning: 'HTTP 429: rate limited' },
  'insufficient-quota': { retryable: false, tokensUnknown: false, usable: false, meaning: 'HTTP 429 insufficient_quota: the account has no quota left' },
  'server-error': { retryable: true, tokensUnknown: false, usable: false, meaning: 'HTTP 5xx from the endpoint' },
  auth: { retryable: false, tokensUnknown: false, usable: false, meaning: 'HTTP 401/403: the key is missing, wrong or not allowed' },
  'bad-request': { retryable: false, tokensUnknown: false, usable: false, meaning: 'HTTP 4xx: the endpoint rejected the request (unknown model?)' },
  'html-body': { retryable: true, tokensUnknown: true, usable: false, meaning: 'an HTML page instead of JSON (a proxy or login page?)' },
  'non-json': { retryable: true, tokensUnknown: true, usable: false, meaning: 'a body that is not JSON' },
  'truncated-json': { retryable: true, tokensUnknown: true, usable: false, meaning: 'the JSON body was cut off' },
  'empty-choices': { retryable: true, tokensUnknown: true, usable: false, meaning: 'a completion with no choice or no message text' },
  'missing-usage': { retryable: false, tokensUnknown: true, usable: true, meaning: 'the completion carries no token usage; tokens are unknown' },
  length: { retryable: false, tokensUnknown: true, usable: false, meaning: 'finish_reason "length": the reply was cut at the token limit' },
  deadline: { retryable: false, tokensUnknown: true, usable: false, meaning: 'the whole-run deadline passed during the call' },
  unknown: { retryable: false, tokensUnknown: true, usable: false, meaning: 'an error the kit does not recognise' },
};

/** How the kit treats a class. */
export function classInfo(c: ErrorClass): ClassInfo {
  return CLASS_INFO[c];
}

/** What crossed the wire for one attempt, as the counting fetch saw it. */
export interface WireRecord {
  /** Request body bytes sent. */
  bytesOut: number;
  /** Response body bytes received (up to a failure, when the body was cut). */
  bytesIn: number;
  /** HTTP status, or null when no response arrived. */
  status: number | null;
  /** The response's Content-Type, lower case. */
  contentType: string | null;
  /** The response's Retry-After header, verbatim. */
  retryAfter: string | null;
  /** The response's retry-after-ms header, verbatim (sent by some OpenAI-compatible servers). */
  retryAfterMs: string | null;
  /** The response body as text (up to a failure). */
  body: string | null;
  /** What fetch threw, before or while reading the body. */
  thrown: unknown;
}

/** An empty record, before the attempt starts. */
export function emptyWire(): WireRecord {
  return { bytesOut: 0, bytesIn: 0, status: null, contentType: null, retryAfter: null, retryAfterMs: null, body: null, thrown: undefined };
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

/** The error object of an OpenAI-style error body, when there is one. */
function errorBody(body: string | null): { type?: unknown; code?: unknown } | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    return parsed && typeof parsed === 'object' && parsed.error && typeof parsed.error === 'object' ? (parsed.error as { type?: unknown; code?: unknown }) : undefined;
  } catch {
    return undefined;
  }
}

/** A parsed chat completion, as far as the kit reads it. */
export interface CompletionShape {
  content: string;
  finishReason: string | null;
  usage: { prompt_tokens: number; completion_tokens: number } | null;
}

/** The usage object of a completion body, when it is well formed. */
function readUsage(v: { usage?: unknown }): CompletionShape['usage'] {
  const u = v.usage as { prompt_tokens?: unknown; completion_tokens?: unknown } | undefined;
  return u && typeof u === 'object' && Number.isInteger(u.prompt_tokens) && Number.isInteger(u.completion_tokens) && (u.prompt_tokens as number) >= 0 && (u.completion_tokens as number) >= 0
    ? { prompt_tokens: u.prompt_tokens as number, completion_tokens: u.completion_tokens as number }
    : null;
}

/**
 * Read the parts of a completion the kit needs; a class when it is not a usable completion. The
 * usage comes back either way when the body reports it (a reply cut at the token limit was
 * still paid for).
 */
export function readCompletion(value: unknown): { ok: true; completion: CompletionShape } | { ok: false; error: ErrorClass; usage: CompletionShape['usage'] } {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: 'non-json', usage: null };
  const v = value as { choices?: unknown; usage?: unknown };
  const usage = readUsage(v);
  if (!Array.isArray(v.choices) || v.choices.length === 0) return { ok: false, error: 'empty-choices', usage };
  const choice = v.choices[0] as { message?: { content?: unknown }; finish_reason?: unknown } | undefined;
  const finishReason = typeof choice?.finish_reason === 'string' ? choice.finish_reason : null;
  if (finishReason === 'length') return { ok: false, error: 'length', usage };
  const content = choice?.message?.content;
  if (typeof content !== 'string' || content.trim() === '') return { ok: false, error: 'empty-choices', usage };
  return { ok: true, completion: { content, finishReason, usage } };
}

/**
 * Classify one attempt from what crossed the wire. Returns null for a usable completion with
 * usage, `missing-usage` for a usable one without, and the failure class otherwise. The wire is
 * read directly, so the verdict does not depend on how the SDK parsed (or refused to parse) it.
 */
export function classifyWire(
  wire: WireRecord,
  context: { deadlinePassed?: boolean; attemptTimedOut?: boolean } = {},
): { error: ErrorClass | null; completion?: CompletionShape; usage?: CompletionShape['usage'] } {
  if (wire.status === null) return { error: classifyThrown(wire.thrown, context) };
  const status = wire.status;
  if (status === 429) {
    const e = errorBody(wire.body);
    const quota = e && (e.code === 'insufficient_quota' || e.type === 'insufficient_quota');
    return { error: quota ? 'insufficient-quota' : 'rate-limit' };
  }
  if (status >= 500) return { error: 'server-error' };
  if (status === 401 || status === 403) return { error: 'auth' };
  if (status === 408) return { error: 'timeout' };
  if (status >= 400) return { error: 'bad-request' };
  if (wire.thrown !== undefined) {
    // The status line arrived, then the body broke off.
    if (context.deadlinePassed) return { error: 'deadline' };
    if (context.attemptTimedOut) return { error: 'timeout' };
    return { error: 'truncated-json' };
  }
  const body = wire.body ?? '';
  const type = wire.contentType ?? '';
  if (type.includes('html') || /^\s*<(!doctype|html|head|body)\b/i.test(body)) return { error: 'html-body' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { error: looksTruncated(body) ? 'truncated-json' : 'non-json' };
  }
  const read = readCompletion(parsed);
  if (!read.ok) return { error: read.error, usage: read.usage };
  return { error: read.completion.usage ? null : 'missing-usage', completion: read.completion, usage: read.completion.usage };
}
