import { LintErrors } from '../../errors/lint-catalog.ts';
import { defineRule } from '../rule.ts';

export const sampleLabel = defineRule({
  id: 'sample-label',
  defaultSeverity: 'error',
  entry: LintErrors.SampleNotLabeled,
  kinds: ['takehome'],
  docs: {
    summary:
      'The sample\'s `label` contains the word "sample" (any case). The sample is one acceptable answer, allowed to look like a first draft; shown without the label it reads as the answer, and candidates copy its shape. It is reported at `label:`.',
    bad: 'label: Solution',
    good: 'label: Sample solution (one acceptable answer, not the only one)',
  },
  check(ctx) {
    const sample = ctx.packet.sample;
    const label = sample.data.label;
    return /\bsamples?\b/i.test(label) ? [] : [{ place: ctx.field('sample', ['label']), params: { label } }];
  },
});
