import type { Heading, RootContent } from 'mdast';
import { LintErrors } from '../../errors/lint-catalog.ts';
import { isHiddenNode, plainText } from '../../packets/markdown-tree.ts';
import { defineRule, type Finding } from '../rule.ts';

type Params = Parameters<typeof LintErrors.FailureNotNarrated.message>[0];

function normalize(s: string): string {
  return s.toLowerCase().replace(/[`*_"'’]/g, '').replace(/\s+/g, ' ').trim();
}

export const failureNarrative = defineRule({
  id: 'failure-narrative',
  defaultSeverity: 'warning',
  entry: LintErrors.FailureNotNarrated,
  kinds: ['takehome'],
  docs: {
    summary:
      'The failures body tells the story of every mode: a heading whose text is the mode\'s `title` (or contains its `id`), with text under it that mentions the `id`, so grepping the catalog for an id finds the story as well as the frontmatter. A mode with no section is reported at its `title:` in the frontmatter; a section that never names the id, at its heading.',
    bad: 'modes:\n  - id: accepts-garbage\n    title: Bad input becomes zero\n---\nThe parser has some problems with bad input.',
    good: 'modes:\n  - id: accepts-garbage\n    title: Bad input becomes zero\n---\n## Bad input becomes zero\n\nIn accepts-garbage every parse error becomes `return 0`; the reviewer sees a caller sleep for zero seconds.',
  },
  check(ctx) {
    const failures = ctx.packet.failures;
    const parsed = ctx.body('failures');
    const nodes = parsed.tree.children.filter((n) => !isHiddenNode(n));
    const sections: { heading: Heading; text: string; content: RootContent[] }[] = [];
    nodes.forEach((node, i) => {
      if (node.type !== 'heading') return;
      const content: RootContent[] = [];
      for (let j = i + 1; j < nodes.length; j++) {
        const next = nodes[j]!;
        if (next.type === 'heading' && next.depth <= node.depth) break;
        content.push(next);
      }
      sections.push({ heading: node, text: normalize(plainText(node)), content });
    });
    const out: Finding<Params>[] = [];
    failures.data.modes.forEach((mode, i) => {
      const title = normalize(mode.title);
      const section = sections.find((s) => s.text === title || s.text.includes(mode.id) || s.text.includes(title));
      const body = section?.content.map(plainText).join('\n') ?? '';
      if (!section || !body.trim()) {
        out.push({ place: ctx.field('failures', ['modes', i, 'title']), params: { mode: mode.id, title: mode.title, problem: 'no-section' } });
      } else if (!section.text.includes(mode.id) && !body.includes(mode.id)) {
        out.push({ place: parsed.placeOfNode(section.heading), params: { mode: mode.id, title: mode.title, problem: 'no-id' } });
      }
    });
    return out;
  },
});
