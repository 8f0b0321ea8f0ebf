import { z } from 'astro/zod';
import { LintErrors } from '../../errors/lint-catalog.ts';
import { visitText, type TextNode } from '../../packets/markdown-tree.ts';
import { defineRule, type Finding } from '../rule.ts';

/** A word: a run of non-space characters with at least one letter or digit. */
const WORD = /\S+/g;
const HAS_LETTER = /[\p{L}\p{N}]/u;
/** A run of characters longer than this counts as one word per this many characters: a 10 MB line is not one word. */
export const WORD_CHARS = 40;

export const promptLength = defineRule({
  id: 'prompt-length',
  defaultSeverity: 'error',
  entry: LintErrors.PromptTooLong,
  kinds: ['takehome', 'lab'],
  options: z.strictObject({
    /** Most words the prompt body may have. */
    max: z.int().positive().default(300),
    /** Count the words of code blocks too: the candidate reads them. */
    countCode: z.boolean().default(true),
  }),
  docs: {
    summary:
      'The prompt body has at most `max` words (300 by default), code blocks included. A bounded prompt leaves a model nowhere to hide and a candidate nothing to skim; an unbounded one is how a take-home turns into a weekend. Words are runs of text with a letter or digit, in text, inline code and code blocks (a run longer than 40 characters counts as one word per 40, so one huge line is not one word); comments do not count. The diagnostic points at the first word over the limit.',
    bad: 'A 2,000-word prompt with the history of the service, three alternative designs and a glossary.',
    good: 'A goal in two sentences, "Hard limits" and "Stop rule" lists, the deliverables and the test command: under 300 words.',
    options: { max: 'most words allowed (300)', countCode: 'count code blocks (true)' },
  },
  check(ctx) {
    const { max, countCode } = ctx.options;
    const parsed = ctx.body('prompt');
    let words = 0;
    let over: { node: TextNode; word: string; index: number } | undefined;
    visitText(
      parsed.tree,
      (node) => {
        for (const m of node.value.matchAll(WORD)) {
          if (!HAS_LETTER.test(m[0])) continue;
          const before = words;
          words += Math.ceil(m[0].length / WORD_CHARS);
          if (before <= max && words > max) over = { node, word: m[0].slice(0, WORD_CHARS), index: m.index };
        }
      },
      { code: countCode },
    );
    if (!over) return [];
    const place = parsed.placeInValue(over.node, over.index, over.word);
    const finding: Finding<{ words: number; max: number }> = { place, params: { words, max } };
    return [finding];
  },
});
