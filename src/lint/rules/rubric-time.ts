import { z } from 'astro/zod';
import { LintErrors } from '../../errors/lint-catalog.ts';
import { defineRule, type RubricView, type Finding } from '../rule.ts';

type Params = Parameters<typeof LintErrors.RubricOverTime.message>[0];

const OPTIONS = z.strictObject({
  /** Most minutes a rubric may ask for. */
  maxMinutes: z.number().positive().default(15),
  /** Minutes a row takes when it does not say. */
  rowMinutes: z.number().positive().default(2.5),
});

export const rubricTime = defineRule({
  id: 'rubric-time',
  defaultSeverity: 'error',
  entry: LintErrors.RubricOverTime,
  options: OPTIONS,
  docs: {
    summary:
      'A human scores the card in its time: the rubric\'s `minutes` is at most 15, and the rows\' minutes (each row\'s `minutes`, 2.5 when it does not say) add up to no more than it. Both are reported at the rubric\'s `minutes:`.',
    bad: 'minutes: 20\nrows: # six rows at the default 2.5 minutes each',
    good: 'minutes: 10\nrows: # three rows at 2.5 minutes, and one at 2',
    options: { maxMinutes: 'most minutes for the card (15)', rowMinutes: 'minutes of a row that does not say (2.5)' },
  },
  kinds: ['takehome', 'lab', 'drill'],
  check: (ctx) => checkRubric({ rubric: ctx.packet.rubric.data, options: ctx.options, field: (path, which) => ctx.field('rubric', path, which) }),
});

function checkRubric(ctx: RubricView<z.output<typeof OPTIONS>>) {
  const { maxMinutes, rowMinutes } = ctx.options;
  const { rows, minutes } = ctx.rubric;
  const out: Finding<Params>[] = [];
  const place = ctx.field(['minutes']);
  if (minutes > maxMinutes) out.push({ place, params: { problem: 'card', minutes, max: maxMinutes } });
  const needed = Math.round(rows.reduce((sum, r) => sum + (r.minutes ?? rowMinutes), 0) * 100) / 100;
  if (needed > minutes) out.push({ place, params: { problem: 'rows', needed, minutes, rows: rows.length } });
  return out;
}
