import { catalogEntries, type CatalogEntry } from './catalog.ts';

/** The areas of the catalog, by the code's first digit. */
export const AREAS: Record<string, string> = {
  '1': 'Load and validate',
  '2': 'Lint',
  '3': 'Bundle',
  '4': 'Rehearse',
  '5': 'Grade',
  '6': 'Model',
  '8': 'Command line',
  '9': 'Internal',
};

/** The area an entry belongs to: `Load and validate (PK1xx)`. */
export function areaOf(e: Pick<CatalogEntry<any>, 'code'>): string {
  const digit = e.code[2] ?? '';
  return `${AREAS[digit] ?? 'Other'} (PK${digit}xx)`;
}

/** Render an entry's message or hint with its parameter names as placeholders: `"<field>" is not...`. */
export function template(fn: (p: Record<string, unknown>) => string): string {
  const params = new Proxy({} as Record<string, unknown>, {
    get: (_, key) => (typeof key === 'string' ? `<${key}>` : undefined),
    has: () => true,
  });
  return fn(params).replace(/NaN/g, '<n>');
}

/** What the reference adds to an entry that a lint rule reports: the rule, what it checks, a bad and a good example. */
export interface EntryExample {
  /** The lint rule's id. */
  rule: string;
  /** What the rule checks and why. */
  summary: string;
  /** An example that the rule reports. */
  bad: string;
  /** The same example, fixed. */
  good: string;
}

/** One entry as Markdown; with an example, the rule's id, summary and its bad and good example. */
export function entryMarkdown(e: CatalogEntry<any>, example?: EntryExample): string {
  const out = [`### ${e.code} ${e.name}: ${e.title}`, '', `${e.severity === 'warning' ? 'Warning. ' : ''}${template(e.message)}`, '', `**Fix:** ${template(e.hint)}`, ''];
  if (example) {
    out.push(`**Rule** \`${example.rule}\`: ${example.summary}`, '', 'Reported:', '', '```text', example.bad, '```', '', 'Fixed:', '', '```text', example.good, '```', '');
  }
  return out.join('\n');
}

/** The whole error reference, grouped by area, generated from the catalog; `examples` by code. */
export function errorReferenceMarkdown(examples: ReadonlyMap<string, EntryExample> = new Map()): string {
  const out: string[] = [];
  let area = '';
  for (const e of catalogEntries()) {
    const a = areaOf(e);
    if (a !== area) {
      out.push(`#### ${a}\n`);
      area = a;
    }
    out.push(entryMarkdown(e, examples.get(e.code)));
  }
  return out.join('\n');
}
