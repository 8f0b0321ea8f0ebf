import { LintErrors } from '../../errors/lint-catalog.ts';
import { diffLines } from '../../packets/diff-lines.ts';
import { defineRule, type Finding } from '../rule.ts';

export const drillDiffContext = defineRule({
  id: 'drill-diff-context',
  defaultSeverity: 'warning',
  entry: LintErrors.DrillDiffNoContext,
  kinds: ['drill'],
  docs: {
    summary:
      'Each diff of a drill keeps some unchanged lines around its change (lines that start with a space), so the reviewer can see where it sits: inside which function, before which return. A bare list of added lines asks the candidate to guess the context the verdict depends on. It is reported at the diff.',
    bad: 'diff: |\n  @@ def send(self, request):\n  +    time.sleep(self._sleep_for(attempt))',
    good: 'diff: |\n  @@ async def _retry_send(self, request):\n           except TransportError:\n  +            time.sleep(self._sleep_for(attempt))\n               continue',
  },
  check(ctx) {
    const out: Finding<{ diff: string }>[] = [];
    ctx.packet.diffs.forEach((d, i) => {
      const lines = diffLines(d.diff);
      if (Array.isArray(lines) && !lines.some((l) => l.kind === 'context' && l.text.trim())) out.push({ place: ctx.field('assistant', ['diffs', i, 'diff']), params: { diff: d.id } });
    });
    return out;
  },
});
