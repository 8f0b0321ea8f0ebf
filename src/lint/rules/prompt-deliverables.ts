import type { Nodes } from 'mdast';
import { LintErrors } from '../../errors/lint-catalog.ts';
import { isHiddenNode, plainText, visitText } from '../../packets/markdown-tree.ts';
import { defineRule } from '../rule.ts';

export const promptDeliverables = defineRule({
  id: 'prompt-deliverables',
  defaultSeverity: 'error',
  entry: LintErrors.DeliverableNotNamed,
  kinds: ['takehome', 'lab'],
  docs: {
    summary:
      'Every entry of the frontmatter\'s `deliverables` appears in the prompt body, exactly as written (in text, inline code or a code block). The candidate reads the body, not the frontmatter, and the grader looks for exactly these names. It is reported at the deliverable in the frontmatter.',
    bad: 'deliverables: [src/duration.py, NOTES.md]\n---\nFix the parser and explain your change.',
    good: 'deliverables: [src/duration.py, NOTES.md]\n---\n## Deliverables\n\n- `src/duration.py`, fixed.\n- `NOTES.md`: what was wrong and how you checked it.',
  },
  check(ctx) {
    const parsed = ctx.body('prompt');
    const texts: string[] = [];
    visitText(parsed.tree, (node) => texts.push(node.value));
    // Block texts too, so a name split by emphasis or a link still counts.
    const collect = (n: Nodes) => {
      if (isHiddenNode(n)) return;
      if (n.type === 'paragraph' || n.type === 'heading' || n.type === 'tableCell') texts.push(plainText(n));
      else if ('children' in n) for (const c of n.children as Nodes[]) collect(c);
    };
    collect(parsed.tree);
    return ctx.packet.prompt.data.deliverables.flatMap((deliverable, i) =>
      texts.some((t) => t.includes(deliverable)) ? [] : [{ place: ctx.field('prompt', ['deliverables', i]), params: { deliverable } }],
    );
  },
});
