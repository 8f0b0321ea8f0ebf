import { z } from 'astro/zod';
import { LintErrors } from '../../errors/lint-catalog.ts';
import { defineRule } from '../rule.ts';

export const failuresCount = defineRule({
  id: 'failures-count',
  defaultSeverity: 'error',
  entry: LintErrors.TooFewFailureModes,
  kinds: ['takehome'],
  options: z.strictObject({
    /** Fewest failure modes. */
    min: z.int().positive().default(2),
  }),
  docs: {
    summary:
      'The failure catalog names at least two ways the task dies. One mode is an anecdote; two real death modes, each with a signal you can grep and a mutant the tests must kill, show the packet was rehearsed against more than one wrong answer. It is reported at `modes:`.',
    bad: 'modes:\n  - id: raw-line-cache\n    title: Cache keyed on the raw line',
    good: 'modes:\n  - id: raw-line-cache\n    title: Cache keyed on the raw line\n  - id: fake-info\n    title: A dead endpoint becomes INFO',
    options: { min: 'fewest modes (2)' },
  },
  check(ctx) {
    const failures = ctx.packet.failures;
    const count = failures.data.modes.length;
    const { min } = ctx.options;
    return count < min ? [{ place: ctx.field('failures', ['modes'], 'key'), params: { count, min } }] : [];
  },
});
