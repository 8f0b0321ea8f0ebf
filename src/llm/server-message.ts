/**
 * What the server said, in its own words: the message of an error body (OpenAI's
 * `{"error": {"message"}}`, vLLM's top-level `message`, LM Studio's `{"error": "..."}`, a
 * FastAPI `detail`, OpenRouter's provider message in `error.metadata.raw`), the title of an HTML
 * page, or the start of a plain-text body. It is cut short and scrubbed of anything that looks
 * like a key or an Authorization value before it reaches a receipt, a report or the console.
 */

/** The longest message kept, in characters. */
export const MESSAGE_MAX_CHARS = 300;

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v : undefined;
}

/** The message inside a parsed JSON error body, or undefined. */
export function jsonErrorMessage(value: unknown): string | undefined {
  if (Array.isArray(value)) return value.length ? jsonErrorMessage(value[0]) : undefined;
  if (!value || typeof value !== 'object') return undefined;
  const v = value as { error?: unknown; message?: unknown; detail?: unknown };
  const e = v.error;
  if (str(e)) return str(e);
  if (e && typeof e === 'object') {
    const o = e as { message?: unknown; metadata?: { raw?: unknown; provider_name?: unknown } };
    const message = str(o.message);
    const raw = str(o.metadata?.raw);
    if (message && raw && !message.includes(raw)) return `${message} (provider: ${raw})`;
    if (message ?? raw) return message ?? raw;
  }
  if (str(v.message)) return str(v.message);
  if (str(v.detail)) return str(v.detail);
  if (Array.isArray(v.detail) && v.detail.length) {
    const first = v.detail[0] as { msg?: unknown };
    if (str(first?.msg)) return str(first.msg);
  }
  return undefined;
}

/** The server's message from a response body, cut to {@link MESSAGE_MAX_CHARS}; null when the body says nothing readable. */
export function serverMessage(body: string | null, contentType: string | null): string | null {
  if (!body || !body.trim()) return null;
  const text = body.trim();
  let found: string | undefined;
  if (/^[[{]/.test(text)) {
    try {
      found = jsonErrorMessage(JSON.parse(text));
    } catch {
      found = undefined;
    }
  }
  if (found === undefined && ((contentType ?? '').includes('html') || /^<(!doctype|html|head|body)\b/i.test(text))) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
    found = title?.trim() || text.replace(/<[^>]*>/g, ' ');
  }
  if (found === undefined && /^(data|event|id|retry|:)/m.test(text) && !/^[[{]/.test(text)) {
    // An event stream: the first event that carries an error.
    for (const line of text.split('\n')) {
      if (!line.startsWith('data:')) continue;
      try {
        found = jsonErrorMessage(JSON.parse(line.slice(5)));
      } catch {
        found = undefined;
      }
      if (found !== undefined) break;
    }
    if (found === undefined) return null;
  }
  if (found === undefined && !/^[[{]/.test(text)) found = text;
  if (found === undefined) return null;
  return cut(found.replace(/\s+/g, ' ').trim());
}

/** Cut a message to {@link MESSAGE_MAX_CHARS}, marking the cut. */
export function cut(text: string, max = MESSAGE_MAX_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/**
 * Remove what looks like a credential from a server's message: the known keys (and any piece of
 * one 8 characters or longer), `sk-...` tokens, Bearer values, and `key=`/`token:` pairs. Servers
 * echo keys more often than one would think ("Incorrect API key provided: sk-...").
 */
export function scrubMessage(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) {
    if (!s || s.length < 4) continue;
    out = out.split(s).join('[redacted]');
    // A key the server shortened or masked still shows long runs of it.
    for (let len = Math.min(s.length - 1, 24); len >= 8; len--) {
      for (let i = 0; i + len <= s.length; i++) {
        const piece = s.slice(i, i + len);
        if (out.includes(piece)) out = out.split(piece).join('[redacted]');
      }
    }
  }
  return out
    .replace(/\bBearer\s+[^\s"',;]+/gi, 'Bearer [redacted]')
    .replace(/\b(sk|gsk|xai|hf)[-_][A-Za-z0-9_*\-][A-Za-z0-9_*.\-]{4,}[A-Za-z0-9_*\-]/g, '$1-[redacted]')
    .replace(/\b(api[_-]?key|access[_-]?token|token|key|authorization|password|secret)(["']?\s*[:=]\s*["']?)(?!Bearer\b|\[redacted\])[^\s"'&,;)]+/gi, '$1$2[redacted]');
}
