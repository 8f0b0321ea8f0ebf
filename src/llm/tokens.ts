/**
 * Token estimates before a call, with a real tokenizer: `gpt-tokenizer`'s cl100k_base, pure
 * JavaScript, its encoding shipped inside the package (nothing is downloaded at run time) and
 * loaded on first use. Free endpoints serve models with their own tokenizers, so the count is a
 * proxy: the budget multiplies it by a calibration factor (see budget.ts) that starts with a
 * margin and then follows what the endpoint reports.
 */

/** The tokenizer, as receipts and reports name it. */
// Stryker disable next-line StringLiteral: message text; the label printed for the tokenizer.
export const TOKENIZER = 'cl100k_base (gpt-tokenizer)';

/** Tokens a chat message adds around its text (role and separators), and the reply's priming. */
export const PER_MESSAGE_TOKENS = 4;
export const REPLY_PRIMING_TOKENS = 3;

/**
 * Runs without whitespace longer than this are counted in pieces. BPE cost grows with the square
 * of a run's length (a 200,000-character run took 26 s), and a test log can hold such runs;
 * counting pieces apart can only add tokens, so the estimate stays on the high side.
 */
export const MAX_RUN = 200;

type Counter = (text: string) => number;
let counter: Counter | undefined;

/** Load the encoding once (about 0.2 s). */
export async function loadTokenizer(): Promise<Counter> {
  // Stryker disable next-line ConditionalExpression: equivalent; loading again gives the same counter, only slower.
  if (!counter) {
    const { countTokens } = await import('gpt-tokenizer/encoding/cl100k_base');
    // Text is counted as text: `<|endoftext|>` inside a file is not a special token here.
    const options = { disallowedSpecial: new Set<string>() };
    counter = (text) => countTokens(text, options);
  }
  return counter;
}

/** Tokens of a text, long runs counted in pieces of {@link MAX_RUN} characters. */
export function countWith(count: Counter, text: string): number {
  const long = new RegExp(`\\S{${MAX_RUN + 1},}`, 'g');
  let total = 0;
  let last = 0;
  for (const m of text.matchAll(long)) {
    total += count(text.slice(last, m.index));
    // Stryker disable next-line EqualityOperator: equivalent; the extra piece `<=` adds is empty and counts 0.
    for (let i = 0; i < m[0].length; i += MAX_RUN) total += count(m[0].slice(i, i + MAX_RUN));
    last = m.index + m[0].length;
  }
  return total + count(text.slice(last));
}

/** Tokens of a chat prompt: each message's text plus its overhead, plus the reply's priming. */
export async function countChatTokens(messages: readonly { role: string; content: string }[]): Promise<number> {
  const count = await loadTokenizer();
  let total = REPLY_PRIMING_TOKENS;
  for (const m of messages) total += PER_MESSAGE_TOKENS + countWith(count, m.role) + countWith(count, m.content);
  return total;
}

/** Tokens of a text. */
export async function countTextTokens(text: string): Promise<number> {
  return countWith(await loadTokenizer(), text);
}
