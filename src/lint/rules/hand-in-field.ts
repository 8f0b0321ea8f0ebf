import { LintErrors } from '../../errors/lint-catalog.ts';
import { defineRule } from '../rule.ts';

export const handInField = defineRule({
  id: 'hand-in-field',
  defaultSeverity: 'warning',
  entry: LintErrors.HandInMissing,
  kinds: ['lab', 'drill'],
  docs: {
    summary:
      "A lab's or a drill's prompt says where the candidate sends the answer sheet they export: `handIn.to`, the hiring lead's address or a link, as text. The round ends in one file the candidate must send somewhere; without `handIn` the page and the zip can only say \"the person who sent you this packet\". It is reported at the prompt's `kind`.",
    bad: 'kind: lab\nminutes: 45\nversion: 1.0.0\nseed: free-time-1',
    good: 'kind: lab\nminutes: 45\nversion: 1.0.0\nseed: free-time-1\nhandIn: { to: "hiring@example.com", note: "Put the packet id in the subject line." }',
  },
  check(ctx) {
    if (ctx.packet.prompt.data.handIn) return [];
    return [{ place: ctx.field('prompt', ['kind']), params: { kind: ctx.packet.kind } }];
  },
});
