import { Document, isScalar, visit } from 'yaml';
import { drillPromptJsonSchema, partJsonSchema } from './json-schema.ts';
import { KINDS } from './kinds/index.ts';
import { PART_FILES, type PacketKind, type PartName } from './schema/index.ts';

/**
 * The packet format reference: every frontmatter field of every part, with its type, whether it
 * is required, its default, its description, its example and what each of its values means. It
 * is read from the JSON Schemas, which carry each field's documentation (schema/field-doc.ts),
 * and feeds docs/format.md and `packet explain <field>`.
 */

/** One documented frontmatter field. */
export interface FieldReference {
  /** The part file the field belongs to. */
  part: PartName;
  /** The field's path: `budget.identicalErrors`, `rows[].auto`. */
  path: string;
  /** The type in words: `whole number, more than 0`, `list of text`. */
  type: string;
  /** True when the field must be written (it has no default and is not optional). */
  required: boolean;
  /** The value used when the field is left out, if any. */
  default?: unknown;
  /** What it holds, from the schema; empty when a field lacks one (a test forbids that). */
  description: string;
  /** Example values. */
  examples: unknown[];
  /** What each value means, for a field with a fixed set of values. */
  values?: { value: string; meaning: string }[];
}

type JsonSchema = {
  type?: string;
  description?: string;
  examples?: unknown[];
  default?: unknown;
  enum?: unknown[];
  markdownEnumDescriptions?: string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  anyOf?: JsonSchema[];
  pattern?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  minItems?: number;
  minLength?: number;
  maxLength?: number;
};

const KNOWN_PATTERNS: Record<string, string> = {
  '^[a-z0-9]+(?:-[a-z0-9]+)*$': 'kebab-case id',
  '^\\d+\\.\\d+\\.\\d+(?:-[0-9A-Za-z.-]+)?$': 'version like 1.0.0',
  '^\\d{4}-\\d{2}-\\d{2}$': 'date like 2026-11-29',
  '^[imsu]*$': 'flags from i, m, s, u',
};

/** A JSON Schema type in words. */
export function typeWords(s: JsonSchema): string {
  if (s.enum) return `one of ${s.enum.map((v) => String(v)).join(', ')}`;
  if (s.anyOf) return [...new Set(s.anyOf.map(typeWords).filter((t) => t !== 'anything'))].join(' or ') || 'anything';
  switch (s.type) {
    case 'string':
      if (s.pattern && KNOWN_PATTERNS[s.pattern]) return KNOWN_PATTERNS[s.pattern]!;
      return s.maxLength && s.maxLength < 1000 ? `text, at most ${s.maxLength} characters` : 'text';
    case 'integer':
    case 'number': {
      const noun = s.type === 'integer' ? 'whole number' : 'number';
      const bounds: string[] = [];
      if (s.exclusiveMinimum !== undefined) bounds.push(`more than ${s.exclusiveMinimum}`);
      else if (s.minimum !== undefined) bounds.push(`at least ${s.minimum}`);
      if (s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER) bounds.push(`at most ${s.maximum}`);
      return [noun, bounds.join(' and ')].filter(Boolean).join(', ');
    }
    case 'boolean':
      return 'true or false';
    case 'array': {
      const item = s.items ? (s.items.type === 'object' && s.items.properties ? 'maps' : typeWords(s.items)) : 'anything';
      return `list of ${item}${s.minItems ? `, at least ${s.minItems}` : ''}`;
    }
    case 'object':
      if (s.properties) return 'map of the fields below';
      if (s.propertyNames && typeof s.additionalProperties === 'object') return `map of ${s.propertyNames.pattern === '^\\d+$' ? 'score' : typeWords(s.propertyNames)} to ${typeWords(s.additionalProperties)}`;
      return 'map';
    default:
      return 'anything';
  }
}

/** Every field of one part, depth first, in the schema's order. */
export function partFields(part: PartName): FieldReference[] {
  const out: FieldReference[] = [];
  const walk = (schema: JsonSchema, prefix: string) => {
    const required = new Set(schema.required ?? []);
    for (const [name, s] of Object.entries(schema.properties ?? {})) {
      const path = prefix ? `${prefix}.${name}` : name;
      const values = s.enum && s.markdownEnumDescriptions ? s.enum.map((v, i) => ({ value: String(v), meaning: s.markdownEnumDescriptions![i] ?? '' })) : undefined;
      out.push({
        part,
        path,
        type: typeWords(s),
        required: required.has(name) && s.default === undefined,
        ...(s.default !== undefined ? { default: s.default } : {}),
        description: s.description ?? '',
        examples: s.examples ?? [],
        ...(values ? { values } : {}),
      });
      if (s.type === 'object' && s.properties) walk(s, path);
      else if (s.type === 'array' && s.items?.type === 'object' && s.items.properties) walk(s.items, `${path}[]`);
      else if (s.type === 'object' && typeof s.additionalProperties === 'object' && s.additionalProperties.properties) walk(s.additionalProperties, `${path}.<name>`);
    }
  };
  walk(partJsonSchema(part) as JsonSchema, '');
  return out;
}

/** Every field of every part, in reading order: a take-home's four parts, then `assistant.mdx`. */
export function allFields(): FieldReference[] {
  return PART_FILES.flatMap((part) => partFields(part));
}

/** What each part file and tree of a packet folder is, in the order of a take-home's folder. */
export const PACKET_FILES: readonly { name: string; what: string }[] = [
  { name: 'prompt.mdx', what: 'What the candidate reads: the frontmatter (title, level, minutes, test command, workspace contract, budget) and the brief. A drill\'s holds the catalog fields only.' },
  { name: 'rubric.mdx', what: 'How the reviewer scores: 3 to 6 rows, a hire bar, vetoes. Its body is public (the zip\'s RUBRIC.md, the rubric page) but for its `## Reviewer notes` section, which only the reviewer bundle\'s KEY.md holds (see "The body of rubric.mdx" below the reference).' },
  { name: 'sample.mdx', what: 'A take-home\'s labeled sample solution, for the reviewer only, and the tests the starter must fail (`floor`).' },
  { name: 'failures.mdx', what: 'A take-home\'s named ways the task dies, each with a signal to grep, a mutant and the rubric row it caps. Reviewer only.' },
  { name: 'assistant.mdx', what: 'The scripted assistant of a lab (its `suggestions`, each replacing one region of a starter file) or of a drill (its `diffs` to review). The `key` of each entry is reviewer material.' },
  { name: 'starter/', what: 'Public: the code and the visible tests the candidate gets (a take-home or a lab); deliberately broken in a take-home.' },
  { name: 'sample/', what: 'Secret: the files of the sample solution, laid over starter/ (a take-home).' },
  { name: 'hidden/', what: 'Secret: held-out tests, laid over the workspace at grading and rehearsal time (a take-home or a lab).' },
  { name: 'mutants/', what: 'Secret: one folder per failure mode, `mutants/<mode>/`, laid over the sample to reproduce that failure (a take-home).' },
  { name: 'replies/', what: 'Secret: scripted model replies, `sample.md` and `<mode>.md`, served by the embedded endpoint in the rehearsal (a take-home).' },
  { name: 'lint.json', what: 'Optional: lint settings for this packet only, `{ "rules": { "<rule>": "warning" } }`.' },
];

/** The kinds whose folder holds a part file. */
function kindsWith(part: PartName): PacketKind[] {
  return KINDS.filter((k) => k.parts.includes(part)).map((k) => k.kind);
}

/** The fields of a drill's `prompt.mdx`, which has its own, smaller schema. */
export function drillPromptFieldNames(): string[] {
  return Object.keys((drillPromptJsonSchema() as JsonSchema).properties ?? {});
}

/** An example as the YAML an author writes: `identicalErrors: 3`, or a block for maps and lists. */
export function exampleYaml(f: Pick<FieldReference, 'path'>, value: unknown): string {
  const key = f.path.split('.').at(-1)!.replace(/\[\]$/, '');
  const doc = new Document({ [key]: value });
  // Lists of plain values read best on one line: `tags: [retries, budgets]`.
  visit(doc, { Seq: (_, node) => void (node.flow = node.items.every((item) => isScalar(item))) });
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false }).trimEnd();
}

/** Look fields up by what a person types: `budget.identicalErrors`, `prompt.budget`, `rows.auto`, `auto`, `rubric.mdx`. */
export function findFields(query: string): FieldReference[] {
  const q = query.trim().replace(/\[\]/g, '').replace(/^(prompt|rubric|sample|failures|assistant)\.mdx\b/, '$1').toLowerCase();
  const fields = allFields();
  const plain = (f: FieldReference) => f.path.replace(/\[\]/g, '').toLowerCase();
  if ((PART_FILES as readonly string[]).includes(q)) return fields.filter((f) => f.part === q);
  const full = fields.filter((f) => `${f.part}.${plain(f)}` === q);
  if (full.length) return full;
  const exact = fields.filter((f) => plain(f) === q);
  if (exact.length) return exact;
  return fields.filter((f) => plain(f).endsWith(`.${q}`));
}

/** One field as Markdown: a list item with the description, then its example and what each value means. */
function fieldMarkdown(f: FieldReference): string {
  const facts = [f.type, f.required ? 'required' : f.default !== undefined ? `default ${JSON.stringify(f.default)}` : 'optional'];
  const lines = [`- **\`${f.path}\`** (${facts.join('; ')}): ${f.description}`];
  const example = f.examples[0];
  if (example !== undefined) {
    const yaml = exampleYaml(f, example);
    lines.push('', yaml.includes('\n') ? `  Example:\n\n  \`\`\`yaml\n${yaml.replace(/^/gm, '  ')}\n  \`\`\`` : `  Example: \`${yaml}\``);
  }
  if (f.values?.length) lines.push('', ...f.values.map((v) => `  - \`${v.value}\`: ${v.meaning}`));
  return lines.join('\n') + '\n';
}

/** What a part file is and which kinds have it, in one paragraph. */
function partIntro(part: PartName): string {
  const what = PACKET_FILES.find((f) => f.name === `${part}.mdx`)!.what;
  const kinds = kindsWith(part);
  const where = kinds.length === 3 ? 'every kind of packet' : kinds.map((k) => (k === 'takehome' ? 'a take-home' : `a ${k}`)).join(' and ');
  return `${what} Found in ${where}.`;
}

/** The note on a drill's prompt: which of the prompt's fields it has. */
function drillPromptNote(): string {
  const names = drillPromptFieldNames().map((n) => `\`${n}\``);
  return `A drill runs no code, so its \`prompt.mdx\` has the catalog fields only: ${names.join(', ')} (\`kind: drill\`), as above; its JSON Schema is \`public/schemas/drill-prompt.schema.json\`.`;
}

/** The whole reference as Markdown: the files of a packet, then one section per part (`##` headings). */
export function formatReferenceMarkdown(): string {
  const files = ['## The files of a packet', '', '| file | what it holds |', '|---|---|', ...PACKET_FILES.map((f) => `| \`${f.name}\` | ${f.what.replace(/\|/g, '\\|')} |`), ''];
  const parts = PART_FILES.map((part) => {
    const note = part === 'prompt' ? `\n${drillPromptNote()}\n` : '';
    return `## \`${part}.mdx\`\n\n${partIntro(part)}\n${note}\n${partFields(part).map(fieldMarkdown).join('\n')}\n`;
  });
  return [files.join('\n'), ...parts].join('\n');
}

/**
 * What `packet explain` prints for a part file, a tree or a field: `assistant` and `assistant.mdx`
 * give the part's description and its every field, `starter` what the tree holds, a field path
 * the field. Undefined when the name is none of these.
 */
export function explainFormat(query: string): string | undefined {
  const q = query.trim().toLowerCase();
  const file = PACKET_FILES.find((f) => f.name === q || f.name.replace(/\/$/, '') === q);
  const part = (PART_FILES as readonly string[]).find((p) => p === q || `${p}.mdx` === q) as PartName | undefined;
  if (part) return [`${part}.mdx: ${partIntro(part)}\n`, ...partFields(part).map(fieldText)].join('\n');
  if (file) return `${file.name}: ${file.what}\n`;
  const fields = q === 'fields' ? allFields() : findFields(query);
  return fields.length ? fields.map(fieldText).join('\n') : undefined;
}

/** Every name `explainFormat` answers, for a "did you mean" guess. */
export function formatNames(): string[] {
  const paths = allFields().map((f) => f.path.replace(/\[\]/g, ''));
  return [...PART_FILES, ...PACKET_FILES.map((f) => f.name.replace(/\/$/, '')), ...paths, ...paths.map((p) => p.split('.').at(-1)!)];
}

/** One field for a terminal: `prompt.mdx budget.identicalErrors (whole number ...)`, then the text, wrapped by the terminal. */
export function fieldText(f: FieldReference): string {
  const facts = [f.type, f.required ? 'required' : f.default !== undefined ? `default ${JSON.stringify(f.default)}` : 'optional'];
  const out = [`${f.part}.mdx  ${f.path}  (${facts.join('; ')})`, '', f.description];
  if (f.values?.length) {
    out.push('');
    for (const v of f.values) out.push(`  ${v.value}: ${v.meaning}`);
  }
  if (f.examples.length) {
    out.push('', 'Example:', exampleYaml(f, f.examples[0]).replace(/^/gm, '  '));
  }
  return out.join('\n') + '\n';
}

/** Markers around the generated section of docs/format.md. */
export const FORMAT_REFERENCE_START = '<!-- format-reference:start (generated by `npm run docs`) -->';
export const FORMAT_REFERENCE_END = '<!-- format-reference:end -->';
