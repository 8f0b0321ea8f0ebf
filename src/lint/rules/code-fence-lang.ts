import type { Nodes } from 'mdast';
import { LintErrors } from '../../errors/lint-catalog.ts';
import { defineRule, type Finding } from '../rule.ts';

export const codeFenceLang = defineRule({
  id: 'code-fence-lang',
  defaultSeverity: 'warning',
  entry: LintErrors.CodeFenceNoLang,
  kinds: ['takehome', 'lab'],
  docs: {
    summary:
      'Every code block in the four bodies names its language (```bash, ```python, ```text). The site highlights by it, and a reader tells a command from its output at a glance. Indented code blocks cannot carry a language, so they are reported too. It is reported at the block\'s first line.',
    bad: '```\npython3 -m unittest discover -s tests -t . -q\n```',
    good: '```bash\npython3 -m unittest discover -s tests -t . -q\n```',
  },
  check(ctx) {
    const out: Finding<{ fenced: boolean }>[] = [];
    for (const name of ctx.parts) {
      const parsed = ctx.body(name);
      const walk = (n: Nodes) => {
        if (n.type === 'code' && !n.lang) {
          const raw = parsed.source.slice(n.position?.start.offset ?? 0, n.position?.end.offset ?? 0);
          out.push({ place: parsed.placeOfNode(n), params: { fenced: /^\s*(`{3,}|~{3,})/.test(raw) } });
        }
        if ('children' in n) for (const c of n.children as Nodes[]) walk(c);
      };
      walk(parsed.tree);
    }
    return out;
  },
});
