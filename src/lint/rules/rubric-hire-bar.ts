import { LintErrors } from '../../errors/lint-catalog.ts';
import { defineRule } from '../rule.ts';

export const rubricHireBar = defineRule({
  id: 'rubric-hire-bar',
  defaultSeverity: 'error',
  entry: LintErrors.HireBarMisplaced,
  docs: {
    summary:
      'The hire bar is reachable and means something: at most the total of the rows\' `max`, and at least half of it. A bar above the total hires nobody (validation reports it too, as PK121); a bar below half hires a submission that failed most of the card. It is reported at `hireBar:`.',
    bad: 'rows: # 3 + 3 + 2 = 8 points\nhireBar: 3',
    good: 'rows: # 3 + 3 + 2 = 8 points\nhireBar: 6',
  },
  check(ctx) {
    const { rows, hireBar } = ctx.packet.rubric.data;
    const total = rows.reduce((sum, r) => sum + r.max, 0);
    const place = ctx.field('rubric', ['hireBar']);
    if (hireBar > total) return [{ place, params: { problem: 'out-of-reach' as const, hireBar, total } }];
    if (hireBar < total / 2) return [{ place, params: { problem: 'too-low' as const, hireBar, total } }];
    return [];
  },
});
