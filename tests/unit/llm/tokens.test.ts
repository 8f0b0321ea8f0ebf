import { describe, expect, it } from 'vitest';
import { countChatTokens, countTextTokens, countWith, loadTokenizer, MAX_RUN, PER_MESSAGE_TOKENS, REPLY_PRIMING_TOKENS } from '../../../src/llm/tokens.ts';

describe('the tokenizer', () => {
  it('counts with cl100k_base, shipped in the package', async () => {
    expect(await countTextTokens('Hello, world!')).toBe(4);
    expect(await countTextTokens('')).toBe(0);
    // Special tokens in a file are text, not an error.
    expect(await countTextTokens('x = "<|endoftext|>"')).toBeGreaterThan(3);
  });

  it('adds each message\'s overhead and the reply\'s priming', async () => {
    const text = 'Fix the retry loop.';
    const bare = await countTextTokens(text);
    const role = await countTextTokens('user');
    expect(await countChatTokens([{ role: 'user', content: text }])).toBe(bare + role + PER_MESSAGE_TOKENS + REPLY_PRIMING_TOKENS);
  });

  it('counts a long run in pieces, never fewer tokens than whole', async () => {
    const count = await loadTokenizer();
    for (const run of ['='.repeat(5000), 'ab'.repeat(3000), 'a1_'.repeat(900)]) {
      const text = `before ${run} after`;
      expect(countWith(count, text)).toBeGreaterThanOrEqual(count(text));
    }
    // 200,000 characters without a space: counted, in pieces of MAX_RUN.
    expect(countWith(count, 'x'.repeat(200_000))).toBe(Math.ceil(200_000 / MAX_RUN) * count('x'.repeat(MAX_RUN)));
  });
});

describe('the tokenizer at the run length', () => {
  it('counts a run of exactly MAX_RUN characters whole, in its text', async () => {
    const count = await loadTokenizer();
    for (const text of [`before ${'x'.repeat(MAX_RUN)} after`, `a ${'ab'.repeat(MAX_RUN / 2)}`, `${'='.repeat(MAX_RUN - 1)} b`]) {
      expect(countWith(count, text), text.slice(0, 12)).toBe(count(text));
    }
  });
});

describe('the tokenizer over a long run', () => {
  it('counts each piece of MAX_RUN characters on its own', async () => {
    const count = await loadTokenizer();
    const run = `a ${'ab'.repeat(150)}`;
    const piecewise = count('a ') + count(run.slice(2, 2 + MAX_RUN)) + count(run.slice(2 + MAX_RUN));
    expect(countWith(count, run)).toBe(piecewise);
    expect(piecewise).not.toBe(count(run));
  });
});
