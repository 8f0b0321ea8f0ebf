import { z } from 'astro/zod';
import { LintErrors } from '../../errors/lint-catalog.ts';
import { defineRule, type RubricView, type Finding } from '../rule.ts';

type Params = Parameters<typeof LintErrors.RubricRowsOutOfShape.message>[0];

const OPTIONS = z.strictObject({
  /** Fewest rows. */
  min: z.int().positive().default(3),
  /** Most rows. */
  max: z.int().positive().default(6),
  /** Most points one row may be worth. */
  maxPoints: z.int().positive().default(3),
});

export const rubricRows = defineRule({
  id: 'rubric-rows',
  defaultSeverity: 'error',
  entry: LintErrors.RubricRowsOutOfShape,
  options: OPTIONS,
  docs: {
    summary:
      'The rubric fits on a card: 3 to 6 rows, none worth more than 3 points. Fewer rows cannot separate a hire from a no; more rows, or rows with ten levels, become fan fiction that no reviewer scores the same way twice. A wrong count is reported at `rows:`, a row worth too much at its `max`.',
    bad: 'rows:\n  - id: quality\n    criterion: The code is good.\n    max: 10',
    good: 'rows:\n  - id: token-shape\n    max: 3\n  - id: failure-handling\n    max: 2\n  - id: notes\n    max: 2',
    options: { min: 'fewest rows (3)', max: 'most rows (6)', maxPoints: 'most points per row (3)' },
  },
  kinds: ['takehome', 'lab', 'drill'],
  check: (ctx) => checkRubric({ rubric: ctx.packet.rubric.data, options: ctx.options, field: (path, which) => ctx.field('rubric', path, which) }),
});

function checkRubric(ctx: RubricView<z.output<typeof OPTIONS>>) {
  const { min, max, maxPoints } = ctx.options;
  const rows = ctx.rubric.rows;
  const out: Finding<Params>[] = [];
  if (rows.length < min || rows.length > max) {
    out.push({ place: ctx.field(['rows'], 'key'), params: { problem: 'count', count: rows.length, min, max } });
  }
  rows.forEach((row, i) => {
    if (row.max > maxPoints) out.push({ place: ctx.field(['rows', i, 'max']), params: { problem: 'points', row: row.id, points: row.max, maxPoints } });
  });
  return out;
}
