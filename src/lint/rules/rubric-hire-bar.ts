import { LintErrors } from '../../errors/lint-catalog.ts';
import { defineRule, type RubricView, type Finding } from '../rule.ts';

type Params = Parameters<typeof LintErrors.HireBarMisplaced.message>[0];

export const rubricHireBar = defineRule({
  id: 'rubric-hire-bar',
  defaultSeverity: 'error',
  entry: LintErrors.HireBarMisplaced,
  docs: {
    summary:
      'The hire bar is within reach and means something. Out of reach: a veto whose `atMost` is at or above its row\'s `max` fires at every score, so nobody can be hired (reported at that `atMost`); a bar above the total of the rows is out of reach too, and validation already reports it as PK121, so this rule does not repeat it. Too low: a bar below half the total hires a submission that failed most of the card (reported at `hireBar`).',
    bad: 'rows: # correctness max 3, refusal max 3, notes max 2: 8 points\nhireBar: 3\nvetoes:\n  - row: notes\n    atMost: 2\n    note: Bad notes are a no.',
    good: 'rows: # correctness max 3, refusal max 3, notes max 2: 8 points\nhireBar: 6\nvetoes:\n  - row: refusal\n    atMost: 0\n    note: Green tests with garbage accepted is a no.',
  },
  kinds: ['takehome', 'lab', 'drill'],
  check: (ctx) => checkRubric({ rubric: ctx.packet.rubric.data, options: ctx.options, field: (path, which) => ctx.field('rubric', path, which) }),
});

function checkRubric(ctx: RubricView<Record<string, never>>) {
  const { rows, hireBar, vetoes } = ctx.rubric;
  const out: Finding<Params>[] = [];
  vetoes.forEach((veto, i) => {
    const row = rows.find((r) => r.id === veto.row);
    if (row && veto.atMost >= row.max) {
      out.push({ place: ctx.field(['vetoes', i, 'atMost']), params: { problem: 'veto', row: row.id, atMost: veto.atMost, max: row.max } });
    }
  });
  const total = rows.reduce((sum, r) => sum + r.max, 0);
  // hireBar > total is PK121 (validation); it is not repeated here.
  if (hireBar < total / 2) out.push({ place: ctx.field(['hireBar']), params: { problem: 'too-low', hireBar, total } });
  return out;
}
