import { z } from 'astro/zod';
import { LintErrors } from '../../errors/lint-catalog.ts';
import { visitText } from '../../packets/markdown-tree.ts';
import { defineRule, type Finding, type PartKey } from '../rule.ts';

/** Commercial model families, by the name authors write. Versions and suffixes are matched too (GPT-4o, Llama 3.1). */
export const MODEL_NAMES = ['GPT', 'ChatGPT', 'Claude', 'Gemini', 'Bard', 'Llama', 'Mistral', 'Mixtral', 'Codestral', 'Grok', 'DeepSeek', 'Qwen', 'PaLM'];

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One regular expression for a list of names, each with an optional version (`-4o`, ` 3.1`, `-turbo`). */
export function modelNamePattern(names: readonly string[]): RegExp {
  const alternatives = [...names].sort((a, b) => b.length - a.length).map(escape).join('|');
  return new RegExp(`(?<![\\p{L}\\p{N}_-])(?:${alternatives})(?:[- ]?\\d+(?:\\.\\d+)?[a-z]?)?(?:-(?:turbo|mini|pro|flash|instruct))?(?![\\p{L}\\p{N}_])`, 'giu');
}

type Params = { name: string; part: string };

export const noModelNames = defineRule({
  id: 'no-model-names',
  defaultSeverity: 'error',
  entry: LintErrors.CommercialModelName,
  kinds: ['takehome', 'lab'],
  options: z.strictObject({
    /** More names to refuse. */
    names: z.array(z.string().min(1)).default([]),
    /** Names from the built-in list to allow, e.g. "Llama" for a packet about an open-weights runtime. */
    allow: z.array(z.string().min(1)).default([]),
  }),
  docs: {
    summary:
      'The prompt and the rubric (bodies and frontmatter text, except `pattern` fields, which may forbid a name on purpose) name no commercial model: GPT, ChatGPT, Claude, Gemini, Bard, Llama, Mistral, Mixtral, Codestral, Grok, DeepSeek, Qwen, PaLM, with their versions. Names move and the pin should not: a packet is rehearsed against whatever model `--model` names, and a rubric that rewards a vendor grades the vendor. Case is ignored; a name inside a longer word (`llama_cpp`) is not matched.',
    bad: 'Use GPT-4o through the endpoint to classify each line.',
    good: 'Call the OpenAI-compatible endpoint in `$LLM_ENDPOINT` to classify each line.',
    options: { names: 'more names to refuse ([])', allow: 'built-in names to allow ([])' },
  },
  check(ctx) {
    const allow = new Set(ctx.options.allow.map((n) => n.toLowerCase()));
    const names = [...MODEL_NAMES.filter((n) => !allow.has(n.toLowerCase())), ...ctx.options.names];
    if (!names.length) return [];
    const pattern = modelNamePattern(names);
    const out: Finding<Params>[] = [];
    for (const part of ['prompt', 'rubric'] as const satisfies readonly PartKey[]) {
      const label = part === 'prompt' ? 'prompt' : 'rubric';
      // Frontmatter text: titles, criteria, level descriptors, notes.
      const walk = (value: unknown, path: PropertyKey[]) => {
        if (typeof value === 'string') {
          for (const m of value.matchAll(pattern)) out.push({ place: ctx.field(part, path), params: { name: m[0], part: `${label} frontmatter ("${path.map(String).join('.')}")` } });
        } else if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
        else if (value && typeof value === 'object') {
          // `pattern` fields are regular expressions that may forbid a model name on purpose.
          for (const [k, v] of Object.entries(value)) if (k !== 'pattern') walk(v, [...path, k]);
        }
      };
      walk(ctx.packet[part].data, []);
      const parsed = ctx.body(part);
      visitText(parsed.tree, (node) => {
        for (const m of node.value.matchAll(pattern)) out.push({ place: parsed.placeInValue(node, m.index, m[0]), params: { name: m[0], part: label } });
      });
    }
    return out;
  },
});
