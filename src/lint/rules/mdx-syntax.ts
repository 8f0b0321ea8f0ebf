import { LintErrors } from '../../errors/lint-catalog.ts';
import { defineRule, type Finding } from '../rule.ts';

export const mdxSyntax = defineRule({
  id: 'mdx-syntax',
  defaultSeverity: 'warning',
  entry: LintErrors.MdxSyntax,
  kinds: ['takehome', 'lab'],
  docs: {
    summary:
      'Each body parses as MDX, since the parts are .mdx files. MDX reads `{` as the start of an expression and `<` before a letter as a tag, and refuses HTML comments. When a body is not valid MDX, the other rules still run on it, parsed as plain Markdown, and this rule reports where MDX gave up.',
    bad: 'Return {"ok": true} when healthy. <!-- TODO -->',
    good: 'Return `{"ok": true}` when healthy. {/* TODO */}',
  },
  check(ctx) {
    const out: Finding<{ reason: string }>[] = [];
    for (const name of ctx.parts) {
      const error = ctx.body(name).mdxError;
      if (error) out.push({ place: error.place, params: { reason: error.reason } });
    }
    return out;
  },
});
