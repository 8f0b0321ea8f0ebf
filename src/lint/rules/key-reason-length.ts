import { z } from 'astro/zod';
import { LintErrors } from '../../errors/lint-catalog.ts';
import { defineRule, type Finding } from '../rule.ts';

type Params = { what: string; words: number; min: number };

const words = (text: string) => text.trim().split(/\s+/).filter(Boolean).length;

export const keyReasonLength = defineRule({
  id: 'key-reason-length',
  defaultSeverity: 'warning',
  entry: LintErrors.KeyReasonShort,
  kinds: ['lab', 'drill'],
  options: z.strictObject({
    /** Fewest words in a key's reason or consequence. */
    min: z.int().positive().default(8),
  }),
  docs: {
    summary:
      'Each key reason of a lab suggestion and each consequence of a drill diff is long enough to name what would go wrong in production (8 words by default). The reviewer scores the candidate\'s reason against it: "wrong" or "bad default" gives the reviewer nothing to compare. It is reported at the reason.',
    bad: 'key:\n  verdict: reject\n  consequence: Bad default.',
    good: 'key:\n  verdict: reject\n  consequence: Every existing user gets retries on upgrade, including on non-idempotent POSTs.',
    options: { min: 'fewest words (8)' },
  },
  check(ctx) {
    const out: Finding<Params>[] = [];
    ctx.packet.assistant.data.suggestions?.forEach((s, i) => {
      const n = words(s.key.reason);
      if (n < ctx.options.min) out.push({ place: ctx.field('assistant', ['suggestions', i, 'key', 'reason']), params: { what: `key reason of "${s.id}"`, words: n, min: ctx.options.min } });
    });
    if (ctx.packet.kind !== 'drill') return out;
    ctx.packet.diffs.forEach((d, i) => {
      const n = words(d.key.consequence);
      if (n < ctx.options.min) out.push({ place: ctx.field('assistant', ['diffs', i, 'key', 'consequence']), params: { what: `consequence of "${d.id}"`, words: n, min: ctx.options.min } });
    });
    return out;
  },
});
