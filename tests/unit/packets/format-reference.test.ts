import { describe, expect, it } from 'vitest';
import { memoryIo } from '../../../src/cli/io.ts';
import { runCli } from '../../../src/cli/run-cli.ts';
import { allFields, explainFormat, findFields, formatReferenceMarkdown, PACKET_FILES, type FieldReference } from '../../../src/packets/format-reference.ts';
import { allJsonSchemas } from '../../../src/packets/json-schema.ts';

const field = (query: string): FieldReference => {
  const found = findFields(query);
  expect(found, query).toHaveLength(1);
  return found[0]!;
};

describe('the packet format reference', () => {
  it('documents every field of every part, with an example for every field that holds a value', () => {
    const fields = allFields();
    expect(fields.length).toBeGreaterThan(40);
    for (const f of fields) {
      expect(f.description.length, `${f.part}.mdx ${f.path} has no description`).toBeGreaterThan(20);
      const container = f.type === 'map of the fields below' || f.type.startsWith('list of maps');
      if (!container) expect(f.examples.length, `${f.part}.mdx ${f.path} has no example`).toBeGreaterThan(0);
    }
  });

  it('puts every description into the JSON Schemas, where editors show it', () => {
    const missing: string[] = [];
    const walk = (name: string, schema: Record<string, unknown>, at: string) => {
      for (const [key, sub] of Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        if (typeof sub.description !== 'string' || !sub.description) missing.push(`${name} ${at}${key}`);
        walk(name, sub, `${at}${key}.`);
        if (sub.items) walk(name, sub.items as Record<string, unknown>, `${at}${key}[].`);
      }
    };
    for (const [name, text] of Object.entries(allJsonSchemas())) walk(name, JSON.parse(text) as Record<string, unknown>, '');
    expect(missing).toEqual([]);
  });

  it('answers what converters had to read the code for', () => {
    expect(field('prompt.context').description).toMatch(/sent to a model/);
    expect(field('budget.identicalErrors')).toMatchObject({ required: true, examples: [3] });
    expect(field('budget.identicalErrors').description).toMatch(/same class and HTTP status/);
    // Each auto value says what it scores.
    expect(field('rows.auto').values?.map((v) => v.value)).toEqual(['tests', 'hidden-tests', 'visible-tests', 'protected', 'workspace', 'receipts', 'choices']);
    for (const v of field('rows.auto').values!) expect(v.meaning.length).toBeGreaterThan(20);
    expect(field('rows.auto').description).toMatch(/full marks .* 0 /);
    // A signal runs over the whole text, not per line; diff is the added lines without the "+".
    expect(field('signal.pattern').description).toMatch(/as a whole .* not line by line/);
    expect(field('signal.in').values?.find((v) => v.value === 'diff')?.meaning).toMatch(/added .* without the diff's leading `\+`/);
    expect(field('floor.failing').description).toContain('tests.test_cache.TestCache.test_one_call');
    expect(field('rows.minutes')).toMatchObject({ part: 'rubric', path: 'rows[].minutes', required: false });
    expect(field('rows.minutes').description).toMatch(/2\.5/);
  });

  it('is what `packet explain FIELD` prints, by any suffix of the path', async () => {
    const io = memoryIo(process.cwd());
    expect(await runCli(['explain', 'identicalErrors'], io)).toBe(0);
    expect(io.stdout).toMatchInlineSnapshot(`
      "prompt.mdx  budget.identicalErrors  (whole number, more than 0; required)

      How many identical endpoint errors in a row end the run. Two errors are identical when they have the same class and HTTP status (three 429s, three 500s); a usable answer resets the count. It stops a run that would spend its whole budget on a broken endpoint, and it is required: 3 is usual.

      Example:
        identicalErrors: 3
      "
    `);
    const part = memoryIo(process.cwd());
    expect(await runCli(['explain', 'sample'], part)).toBe(0);
    expect(part.stdout).toContain('sample.mdx  floor.failing');
    const unknown = memoryIo(process.cwd());
    expect(await runCli(['explain', 'budget.identicalError'], unknown)).toBe(1);
    expect(unknown.stderr).toContain('did you mean "identicalErrors"?');
  });

  it('covers assistant.mdx, a lab\'s suggestions and a drill\'s diffs, and a drill\'s smaller prompt', () => {
    const md = formatReferenceMarkdown();
    expect(md).toContain('## `assistant.mdx`');
    expect(md).toContain('- **`suggestions[].key.choice`**');
    expect(md).toContain('- **`diffs[].key.verdict`**');
    expect(md).toMatch(/A drill runs no code, so its `prompt.mdx` has the catalog fields only: `title`, [^\n]*`changelog`, `kind`/);
    expect(md).not.toMatch(/only: [^\n]*`budget`/);
    expect(field('assistant.diffs.diff')).toMatchObject({ part: 'assistant', path: 'diffs[].diff', required: true });
    for (const f of PACKET_FILES) expect(md, f.name).toContain(`| \`${f.name}\` |`);
  });

  it('answers `packet explain` for a part file by its name, with or without .mdx, and for a tree', async () => {
    // `packet new` names `packet explain assistant` in its own output.
    for (const name of ['assistant', 'assistant.mdx', 'ASSISTANT']) {
      const io = memoryIo(process.cwd());
      expect(await runCli(['explain', name], io), name).toBe(0);
      expect(io.stdout).toMatch(/^assistant\.mdx: The scripted assistant of a lab .* Found in a lab and a drill\.\n/);
      expect(io.stdout).toContain('assistant.mdx  suggestions[].anchor');
      expect(io.stdout).toContain('assistant.mdx  diffs[].key.consequence');
    }
    expect(explainFormat('rubric')).toMatch(/^rubric\.mdx: [^\n]* Found in every kind of packet\.\n/);
    expect(explainFormat('starter/')).toBe(explainFormat('starter'));
    expect(explainFormat('hidden')).toMatch(/^hidden\/: Secret: held-out tests/);
    expect(explainFormat('sample')).toMatch(/^sample\.mdx: /);
    const unknown = memoryIo(process.cwd());
    expect(await runCli(['explain', 'asistant'], unknown)).toBe(1);
    expect(unknown.stderr).toContain('did you mean "assistant"?');
  });
});
