import { LintErrors } from '../../errors/lint-catalog.ts';
import { defineRule, type RubricView } from '../rule.ts';

export const rubricLevels = defineRule({
  id: 'rubric-levels',
  defaultSeverity: 'error',
  entry: LintErrors.RubricLevelMissing,
  docs: {
    summary:
      'Every rubric row describes its lowest score (0) and its highest (`max`) under `levels`. The two ends are what make a score repeatable: without words for them, two reviewers give the same work different points. Scores in between are optional. It is reported at the row\'s `levels:`.',
    bad: '- id: refusal\n  max: 3\n  levels:\n    1: Some bad input is refused.',
    good: '- id: refusal\n  max: 3\n  levels:\n    0: Garbage parses to a number.\n    3: Anything that is not a duration is refused, with a message.',
  },
  kinds: ['takehome', 'lab', 'drill'],
  check: (ctx) => checkRubric({ rubric: ctx.packet.rubric.data, options: ctx.options, field: (path, which) => ctx.field('rubric', path, which) }),
});

function checkRubric(ctx: RubricView<Record<string, never>>) {
  return ctx.rubric.rows.flatMap((row, i) => {
    const missing = [...new Set([0, row.max])].filter((score) => !(String(score) in row.levels));
    if (!missing.length) return [];
    return [{ place: ctx.field(['rows', i, 'levels'], 'key'), params: { row: row.id, missing: missing.join(' and ') } }];
  });
}
