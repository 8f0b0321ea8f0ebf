/**
 * Some servers stream server-sent events even when asked for `stream: false`. The kit reads such
 * a body as the completion it stands for: the deltas' text joined, their reasoning kept apart,
 * the last finish reason, usage and model, and any error event. A stream that stops before its
 * end (no finish reason, no `[DONE]`) is a cut body, not an answer.
 */

/** Does this body look like an event stream? */
export function looksLikeEventStream(body: string, contentType: string | null): boolean {
  if ((contentType ?? '').includes('text/event-stream')) return true;
  return /^\s*(data|event):/.test(body) || /^\s*:[^\n]*\n\s*(data|event):/.test(body);
}

/** An event stream read back into one chat completion body. */
export interface AssembledStream {
  /** A chat completion object, as a non-streaming server would have sent it. */
  completion: Record<string, unknown>;
  /** The stream reached its end (`[DONE]` or a finish reason). */
  complete: boolean;
  /** Data events read. */
  events: number;
}

function partsText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '')).join('');
  return '';
}

/** Read an event-stream body; null when it holds no data event at all. */
export function assembleEventStream(body: string): AssembledStream | null {
  let content = '';
  let reasoning = '';
  let finish: string | null = null;
  let usage: unknown;
  let model: unknown;
  let id: unknown;
  let error: unknown;
  let done = false;
  let events = 0;
  for (const block of body.replace(/\r\n?/g, '\n').split(/\n\n+/)) {
    const data = block
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    if (!data) continue;
    events++;
    if (data.trim() === '[DONE]') {
      done = true;
      continue;
    }
    let chunk: Record<string, unknown>;
    try {
      chunk = JSON.parse(data) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (!chunk || typeof chunk !== 'object') continue;
    if (chunk.error !== undefined) error = chunk.error;
    if (typeof chunk.model === 'string') model = chunk.model;
    if (typeof chunk.id === 'string') id = chunk.id;
    if (chunk.usage && typeof chunk.usage === 'object') usage = chunk.usage;
    const choice = Array.isArray(chunk.choices) ? (chunk.choices[0] as Record<string, unknown> | undefined) : undefined;
    if (!choice) continue;
    for (const key of ['delta', 'message'] as const) {
      const d = choice[key] as Record<string, unknown> | undefined;
      if (!d || typeof d !== 'object') continue;
      content += partsText(d.content);
      reasoning += typeof d.reasoning_content === 'string' ? d.reasoning_content : typeof d.reasoning === 'string' ? d.reasoning : '';
    }
    if (typeof choice.finish_reason === 'string') finish = choice.finish_reason;
  }
  if (!events) return null;
  const message: Record<string, unknown> = { role: 'assistant', content };
  if (reasoning) message.reasoning_content = reasoning;
  const completion: Record<string, unknown> = {
    id: id ?? 'stream',
    object: 'chat.completion',
    model: model ?? null,
    choices: [{ index: 0, message, finish_reason: finish }],
  };
  if (usage) completion.usage = usage;
  if (error !== undefined) completion.error = error;
  return { completion, complete: done || finish !== null || error !== undefined, events };
}
