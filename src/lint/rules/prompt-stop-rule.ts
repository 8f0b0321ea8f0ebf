import type { Nodes } from 'mdast';
import { LintErrors } from '../../errors/lint-catalog.ts';
import { isHiddenNode, plainText } from '../../packets/markdown-tree.ts';
import { defineRule } from '../rule.ts';

const UNITS =
  '(minutes?|mins?|hours?|hrs?|seconds?|attempts?|tries|calls?|model calls?|requests?|tokens?|iterations?|runs?|retries|steps?|turns?|rounds?|edits?|tests? runs?)';

/** Phrases that state when to stop. Matched on the text of the tree, never on Markdown source. */
export const STOP_PHRASES: readonly RegExp[] = [
  /\bstop(s|ping)?\b[^.!?\n]*?\b(after|when|once|if|at|as soon as|before|on)\b/i,
  /\bhalt(s|ed|ing)?\b/i,
  /\bgiv(e|es|ing)[ -]up\b/i,
  /\bgive_up\b/,
  /\btime[- ]?box(ed)?\b/i,
  new RegExp(`\\b(at most|no more than|up to|a cap of|a budget of|a limit of|capped at|budget:?)\\s+\\d[\\d,.]*\\s*${UNITS}\\b`, 'i'),
  new RegExp(`\\b\\d[\\d,.]*\\s*${UNITS}\\s+(at most|max(imum)?|cap|budget|limit)\\b`, 'i'),
];
/** Headings that announce a stop rule. */
const STOP_HEADING = /\b(stop rule|stop condition|when to stop|stopping|budget)\b/i;

export const promptStopRule = defineRule({
  id: 'prompt-stop-rule',
  defaultSeverity: 'warning',
  entry: LintErrors.PromptNoStopRule,
  kinds: ['takehome', 'lab'],
  docs: {
    summary:
      'The prompt says when to stop: a cap, a budget or a give-up condition. Without one an agent loops until the endpoint or the candidate runs out, and the reviewer cannot tell a clean stop from an abandoned run. It passes with a heading such as "Stop rule" or "When to stop" that has text under it, or with a sentence that says "stop after/when/if ...", "halt", "give up", "time box", or a cap with a unit ("at most 8 model calls", "a budget of 40000 tokens"). It is reported at the start of the body.',
    bad: '## Goal\n\nKeep iterating until every test is green.',
    good: '## Stop rule\n\nStop after 8 model calls that do not change a test result, then give up and write what you saw in `NOTES.md`.',
  },
  check(ctx) {
    const parsed = ctx.body('prompt');
    const blocks: string[] = [];
    let stopHeading = false;
    const nodes = parsed.tree.children.filter((n) => !isHiddenNode(n));
    nodes.forEach((node, i) => {
      if (node.type === 'heading' && STOP_HEADING.test(plainText(node))) {
        const next = nodes[i + 1];
        if (next && next.type !== 'heading' && plainText(next).trim()) stopHeading = true;
      }
    });
    if (stopHeading) return [];
    const collect = (n: Nodes) => {
      if (isHiddenNode(n) || n.type === 'code') return;
      if (n.type === 'paragraph' || n.type === 'heading' || n.type === 'tableCell') {
        blocks.push(plainText(n));
        return;
      }
      if ('children' in n) for (const c of n.children as Nodes[]) collect(c);
    };
    collect(parsed.tree);
    if (blocks.some((text) => STOP_PHRASES.some((re) => re.test(text)))) return [];
    return [{ place: parsed.start, params: {} }];
  },
});
