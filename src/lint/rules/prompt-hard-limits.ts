import type { Heading, List, Nodes, RootContent } from 'mdast';
import { LintErrors } from '../../errors/lint-catalog.ts';
import { isHiddenNode, plainText } from '../../packets/markdown-tree.ts';
import { defineRule } from '../rule.ts';

/** Words that name a list of limits, in a heading or in the paragraph that leads into a list. */
const LIMITS_TITLE =
  /\b(hard limits?|limits?|constraints?|do[- ]?nots?|don'?ts|must[- ]nots?|rules|ground rules|boundaries|guardrails|out of scope|non-goals|forbidden|restrictions?)\b/i;
/** A list item that forbids something. */
const PROHIBITION = /^\s*(do not|don't|never|no\b|must not|only\b|avoid)/i;

function hasItems(list: List): boolean {
  return list.children.some((item) => plainText(item).trim() !== '');
}

export const promptHardLimits = defineRule({
  id: 'prompt-hard-limits',
  defaultSeverity: 'warning',
  entry: LintErrors.PromptNoHardLimits,
  kinds: ['takehome', 'lab'],
  docs: {
    summary:
      'The prompt has a list of hard limits: what must not change, what is off limits, what must never happen. It passes with a heading that names limits ("Hard limits", "Constraints", "Do not", "Rules", ...) followed by a bullet list in its section, with a paragraph ending in ":" that names them ("Hard limits:") right before a list, or with a list of at least two prohibitions ("Do not ...", "Never ...", "No ..."). A limits heading whose section has no list is reported at the heading; no limits at all, at the start of the body.',
    bad: '## Goal\n\nMake the tests pass. Try not to change too much, and be careful with the network.',
    good: '## Hard limits\n\n- Do not change the tests under `tests/`.\n- Standard library only.\n- No network except the endpoint you are given.',
  },
  check(ctx) {
    const parsed = ctx.body('prompt');
    const nodes = parsed.tree.children.filter((n) => !isHiddenNode(n));
    let emptyHeading: Heading | undefined;
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i]!;
      if (node.type === 'heading' && LIMITS_TITLE.test(plainText(node))) {
        const section: RootContent[] = [];
        for (let j = i + 1; j < nodes.length; j++) {
          const next = nodes[j]!;
          if (next.type === 'heading' && next.depth <= node.depth) break;
          section.push(next);
        }
        if (section.some((n) => n.type === 'list' && hasItems(n))) return [];
        emptyHeading ??= node;
      }
      if (node.type === 'paragraph' && /:\s*$/.test(plainText(node)) && LIMITS_TITLE.test(plainText(node))) {
        const next = nodes[i + 1];
        if (next?.type === 'list' && hasItems(next)) return [];
      }
    }
    // A list of prohibitions counts without a heading.
    let found = false;
    const visitLists = (n: Nodes) => {
      if (found) return;
      if (n.type === 'list' && n.children.filter((item) => PROHIBITION.test(plainText(item))).length >= 2) found = true;
      if ('children' in n) for (const c of n.children as Nodes[]) visitLists(c);
    };
    visitLists(parsed.tree);
    if (found) return [];
    if (emptyHeading) return [{ place: parsed.placeOfNode(emptyHeading), params: { heading: plainText(emptyHeading).trim() } }];
    return [{ place: parsed.start, params: {} }];
  },
});
