import { LintErrors } from '../../errors/lint-catalog.ts';
import { defineRule } from '../rule.ts';

export const labKeyBalance = defineRule({
  id: 'lab-key-balance',
  defaultSeverity: 'error',
  entry: LintErrors.LabKeyOneSided,
  kinds: ['lab'],
  docs: {
    summary:
      'A lab\'s key does not make the same choice on every suggestion. The round scores judgement: someone who accepts every suggestion is not reviewing, and a lab whose assistant is always right (or always wrong) cannot tell them from someone who is. It is reported at the last suggestion\'s key.',
    bad: 'suggestions:\n  - id: a\n    key: { choice: accept, ... }\n  - id: b\n    key: { choice: accept, ... }\n  - id: c\n    key: { choice: accept, ... }',
    good: 'suggestions:\n  - id: a\n    key: { choice: accept, ... }\n  - id: b\n    key: { choice: revise, ... }\n  - id: c\n    key: { choice: reject, ... }',
  },
  check(ctx) {
    const suggestions = ctx.packet.assistant.data.suggestions ?? [];
    const choices = new Set(suggestions.map((s) => s.key.choice));
    if (suggestions.length < 2 || choices.size !== 1) return [];
    return [{ place: ctx.field('assistant', ['suggestions', suggestions.length - 1, 'key', 'choice']), params: { choice: [...choices][0]! } }];
  },
});
