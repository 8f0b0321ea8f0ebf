/**
 * The answer, not the thinking. Reasoning models served without a reasoning parser (DeepSeek R1,
 * Qwen3 and others on Ollama, llama.cpp or vLLM) put their reasoning inside `content`, between
 * `<think>` and `</think>` (or `<thinking>`), and some chat templates open the block in the
 * prompt so the reply starts inside it and only the closing tag shows. The reasoning may hold
 * drafts, whole files and code fences left open; none of it is part of the answer. Only what
 * follows is parsed for files.
 *
 * Rules, in order:
 * - A closing tag before any opening tag: everything before it is reasoning.
 * - An opening tag at the start of a line outside a code fence of the answer: reasoning up to
 *   the matching closing tag, found as plain text (a fence left open inside the reasoning does
 *   not hide the closing tag, so it cannot swallow the answer).
 * - An opening tag never closed: the rest of the reply is reasoning.
 */

/** A reply split into its answer and its reasoning. */
export interface SplitReply {
  /** The final answer: the reply with every reasoning block removed. */
  answer: string;
  /** The reasoning removed, blocks joined by a blank line; null when there was none. */
  reasoning: string | null;
  /** A reasoning block was opened and never closed (the answer is what came before it). */
  unclosed: boolean;
}

const OPEN_AT_LINE = /^[ \t]*<(think|thinking)>/i;
const ANY_OPEN = /<(think|thinking)>/i;
const ANY_CLOSE = /<\/(think|thinking)>/i;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** Split a reply's text into its answer and its reasoning (see the module comment). */
export function splitReasoning(content: string): SplitReply {
  const reasoning: string[] = [];
  let text = content;
  let unclosed = false;
  // A template that opened the block in the prompt: the reply begins inside it.
  const close = ANY_CLOSE.exec(text);
  const open = ANY_OPEN.exec(text);
  if (close && (!open || close.index < open.index)) {
    reasoning.push(text.slice(0, close.index));
    text = text.slice(close.index + close[0].length);
  }
  const lines = text.split('\n');
  const out: string[] = [];
  let fence: { char: string; length: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence) {
      out.push(line);
      const closing = new RegExp(`^ {0,3}${fence.char === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
      if (closing.test(line.replace(/\r$/, ''))) fence = null;
      continue;
    }
    const m = OPEN_AT_LINE.exec(line);
    if (m) {
      const closeTag = new RegExp(`</${m[1]}>`, 'i');
      const buf: string[] = [];
      let rest = line.slice(m[0].length);
      for (;;) {
        const c = closeTag.exec(rest);
        if (c) {
          buf.push(rest.slice(0, c.index));
          const after = rest.slice(c.index + c[0].length);
          // Whatever follows the closing tag on its line is answer again: look at it afresh.
          if (after.trim()) {
            lines[i] = after;
            i--;
          }
          break;
        }
        buf.push(rest);
        i++;
        if (i >= lines.length) {
          unclosed = true;
          break;
        }
        rest = lines[i]!;
      }
      reasoning.push(buf.join('\n'));
      continue;
    }
    const f = FENCE_OPEN.exec(line.replace(/\r$/, ''));
    if (f && !(f[1]![0] === '`' && f[2]!.includes('`'))) fence = { char: f[1]![0]!, length: f[1]!.length };
    out.push(line);
  }
  const kept = reasoning.map((r) => r.trim()).filter(Boolean);
  return { answer: out.join('\n'), reasoning: kept.length ? kept.join('\n\n') : reasoning.length ? '' : null, unclosed };
}
