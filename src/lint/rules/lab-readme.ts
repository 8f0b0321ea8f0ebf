import { LintErrors } from '../../errors/lint-catalog.ts';
import { defineRule } from '../rule.ts';

export const labReadme = defineRule({
  id: 'lab-readme',
  defaultSeverity: 'error',
  entry: LintErrors.LabReadmeMissing,
  kinds: ['lab'],
  docs: {
    summary:
      'A lab\'s starter has a README.md with the rules of the feature. The candidate builds to those rules and judges each of the assistant\'s suggestions against them; a suggestion can only be "wrong in the ways real ones are" against rules the candidate can read. It is reported at the prompt\'s `kind: lab`.',
    bad: 'starter/\n  signup.py\n  tests/test_signup.py',
    good: 'starter/\n  README.md      # the rules: usernames are 3-20 characters, ...\n  signup.py\n  tests/test_signup.py',
  },
  check(ctx) {
    const has = ctx.packet.trees.starter.some((f) => f.toLowerCase() === 'readme.md');
    return has ? [] : [{ place: ctx.field('prompt', ['kind']), params: {} }];
  },
});
