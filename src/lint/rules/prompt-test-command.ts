import { LintErrors } from '../../errors/lint-catalog.ts';
import { visitText } from '../../packets/markdown-tree.ts';
import { defineRule } from '../rule.ts';

export const promptTestCommand = defineRule({
  id: 'prompt-test-command',
  defaultSeverity: 'error',
  entry: LintErrors.TestCommandNotShown,
  kinds: ['takehome', 'lab'],
  docs: {
    summary:
      'The frontmatter\'s `test` command appears, exactly, in a code block or in inline code of the prompt body. The candidate is graded by that command: they should be able to copy it, not reconstruct it. It is reported at `test:` in the frontmatter.',
    bad: 'test: python3 -m unittest discover -s tests -t . -q\n---\nRun the unit tests before you hand in.',
    good: 'test: python3 -m unittest discover -s tests -t . -q\n---\nRun the tests with:\n\n```bash\npython3 -m unittest discover -s tests -t . -q\n```',
  },
  check(ctx) {
    const command = ctx.packet.prompt.data.test;
    const parsed = ctx.body('prompt');
    let inCode = false;
    let inProse = false;
    visitText(parsed.tree, (node) => {
      if (!node.value.includes(command)) return;
      if (node.type === 'text') inProse = true;
      else inCode = true;
    });
    return inCode ? [] : [{ place: ctx.field('prompt', ['test']), params: { command, inProse } }];
  },
});
