import { LintErrors } from '../../errors/lint-catalog.ts';
import { defineRule } from '../rule.ts';

export const drillVerdictBalance = defineRule({
  id: 'drill-verdict-balance',
  defaultSeverity: 'error',
  entry: LintErrors.DrillVerdictsOneSided,
  kinds: ['drill'],
  docs: {
    summary:
      'A drill\'s key does not give the same verdict on every diff. One specific rejection says more than three accepted diffs, and a drill where every diff should be rejected rewards rejecting without reading as surely as one where every diff is fine rewards waving everything through. It is reported at the last diff\'s verdict.',
    bad: 'diffs:\n  - id: broad-except\n    key: { verdict: reject, ... }\n  - id: sleep-in-async\n    key: { verdict: reject, ... }\n  - id: default-on\n    key: { verdict: reject, ... }',
    good: 'diffs:\n  - id: broad-except\n    key: { verdict: reject, ... }\n  - id: test-count\n    key: { verdict: accept-with-change, ... }\n  - id: final-raise\n    key: { verdict: accept, ... }',
  },
  check(ctx) {
    const verdicts = new Set(ctx.packet.diffs.map((d) => d.key.verdict));
    if (ctx.packet.diffs.length < 2 || verdicts.size !== 1) return [];
    return [{ place: ctx.field('assistant', ['diffs', ctx.packet.diffs.length - 1, 'key', 'verdict']), params: { verdict: [...verdicts][0]! } }];
  },
});
