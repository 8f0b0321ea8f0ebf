import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildCandidateZip } from '../../../src/bundle/candidate-zip.ts';
import { buildCandidateZips } from '../../../src/bundle/build-zips.ts';
import { packetDigest } from '../../../src/packets/digest.ts';
import { loadPackets } from '../../../src/packets/load.ts';
import { codePackets, type CodePacket } from '../../../src/packets/packet.ts';
import { parsePart } from '../../../src/packets/part.ts';
import type { VariantsSpec } from '../../../src/packets/schema/prompt-variants.ts';
import { checkVariants } from '../../../src/packets/variants-check.ts';
import { packetVariants, renderedSource, renderPacketFiles, renderVariant } from '../../../src/packets/variants-render.ts';
import { combinationCount, drawVariants, placeholdersIn, renderTemplate, valuesKey, variantId, variantNumber, variantValues } from '../../../src/packets/variants.ts';
import { tempPackets, type TempPackets } from '../../support/packet-fixtures.ts';

const FIXTURE = fileURLToPath(new URL('../../fixtures/variants/packets/variant-planted/', import.meta.url));

/** A prompt.mdx of the scaffold with a given `variants` block in its frontmatter. */
async function promptWith(variantsYaml: string): Promise<string> {
  const text = await readFile(path.join(FIXTURE, 'prompt.mdx'), 'utf8');
  const start = text.indexOf('variants:\n');
  const end = text.indexOf('tags:');
  return text.slice(0, start) + variantsYaml + text.slice(end);
}

async function schemaProblems(variantsYaml: string): Promise<{ code: string; message: string; line?: number }[]> {
  const r = parsePart('prompt', await promptWith(variantsYaml), 'packets/x/prompt.mdx');
  return r.diagnostics.map((d) => ({ code: d.code, message: d.message, ...(d.line !== undefined ? { line: d.line } : {}) }));
}

describe('the variants field', () => {
  it('accepts pick, int and value parameters', async () => {
    const r = parsePart('prompt', await promptWith('variants:\n  count: 4\n  params:\n    a: { pick: [x, y, 3] }\n    b: { int: [1, 9] }\n    c: { value: same }\n'), 'p.mdx');
    expect(r.diagnostics).toEqual([]);
    expect(r.part!.data.variants).toEqual({ count: 4, params: { a: { pick: ['x', 'y', 3] }, b: { int: [1, 9] }, c: { value: 'same' } } });
  });

  it.each([
    ['    a: { pick: [x] }\n', /variants\.params\.a\.pick.*at least 2/],
    ['    a: { pick: [x, x] }\n', /must differ/],
    ['    a: { int: [9, 1] }\n', /min below max/],
    ['    a: { pick: [x, y], value: z }\n', /exactly one of "pick: \[\.\.\]", "int: \[min, max\]" or "value: \.\."/],
    ['    a: {}\n', /exactly one of/],
    ['    Max: { value: 1 }\n', /lowercase letters, digits and underscores/],
    ['    a: { value: "[[variant.b]]" }\n', /never expanded again/],
    ['    a: { value: "two\\nlines" }\n', /one line/],
    ['    a: { range: [1, 2] }\n', /range/],
    ['    a: { value: "x\\u202Ey" }\n', /control, bidi or zero-width/],
    ['    a: { pick: [ok, "t\\tab"] }\n', /control, bidi or zero-width/],
  ])('refuses %j, naming the field and the fix', async (param, message) => {
    const problems = await schemaProblems(`variants:\n  params:\n${param}`);
    expect(problems.length, JSON.stringify(problems)).toBeGreaterThan(0);
    expect(problems.map((p) => p.message).join('\n')).toMatch(message);
    expect(problems.every((p) => p.line !== undefined)).toBe(true);
  });

  it('refuses a count out of bounds and an empty params', async () => {
    expect((await schemaProblems('variants:\n  count: 0\n  params:\n    a: { int: [1, 9] }\n')).map((p) => p.message).join()).toMatch(/at least one variant/);
    expect((await schemaProblems('variants:\n  count: 101\n  params:\n    a: { int: [1, 900] }\n')).map((p) => p.message).join()).toMatch(/at most 100 variants/);
    expect((await schemaProblems('variants:\n  params: {}\n')).map((p) => p.message).join()).toMatch(/at least one parameter/);
  });
});

const SPEC: VariantsSpec = { count: 3, params: { verb: { pick: ['fetch', 'load', 'pull'] }, limit: { int: [3, 9] }, unit: { value: 'seconds' } } };

describe('the draw', () => {
  it('is the same on every run and machine: pinned values for one seed', () => {
    expect(drawVariants('rb-2026-11', SPEC, 3)).toEqual(drawVariants('rb-2026-11', SPEC, 3));
    // Pinned: a change to the draw changes every variant a hiring lead has sent out.
    expect(drawVariants('rb-2026-11', SPEC, 3).map(valuesKey)).toMatchInlineSnapshot(`
      [
        "[["limit",7],["unit","seconds"],["verb","load"]]",
        "[["limit",7],["unit","seconds"],["verb","pull"]]",
        "[["limit",8],["unit","seconds"],["verb","fetch"]]",
      ]
    `);
  });

  it('does not depend on the YAML order of the parameters, and variant k not on the count', () => {
    const reordered: VariantsSpec = { params: { unit: SPEC.params.unit!, limit: SPEC.params.limit!, verb: SPEC.params.verb! } };
    expect(drawVariants('s', reordered, 5)).toEqual(drawVariants('s', SPEC, 5));
    expect(drawVariants('s', SPEC, 20).slice(0, 3)).toEqual(drawVariants('s', SPEC, 3));
    expect(variantValues('s', SPEC, 7)).toEqual(drawVariants('s', SPEC, 7)[6]);
  });

  it('gives a new seed new values', () => {
    const a = drawVariants('one', SPEC, 10).map(valuesKey);
    const b = drawVariants('two', SPEC, 10).map(valuesKey);
    expect(a).not.toEqual(b);
  });

  it('keeps variants distinct up to every combination, and spreads the values', () => {
    expect(combinationCount(SPEC)).toBe(21);
    const all = drawVariants('s', SPEC, 21);
    expect(new Set(all.map(valuesKey)).size).toBe(21);
    const pick3: VariantsSpec = { params: { v: { pick: ['a', 'b', 'c'] } } };
    expect(drawVariants('x', pick3, 3).map((v) => v.v).sort()).toEqual(['a', 'b', 'c']);
    // Variant 1 over many seeds: every value of a pick comes up about as often.
    const counts = new Map<string, number>();
    for (let i = 0; i < 600; i++) {
      const v = String(variantValues(`seed-${i}`, pick3, 1).v);
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    for (const v of ['a', 'b', 'c']) expect(counts.get(v)).toBeGreaterThan(150);
    // An int range is covered end to end.
    const ints = drawVariants('y', { params: { n: { int: [1, 10] } } }, 10).map((v) => v.n);
    expect([...ints].sort((p, q) => Number(p) - Number(q))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('counts combinations, Infinity past the safe integers', () => {
    expect(combinationCount({ params: { a: { value: 1 } } })).toBe(1);
    const big: VariantsSpec = { params: Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`p${i}`, { int: [0, 999_999_999] as [number, number] }])) };
    expect(combinationCount(big)).toBe(Infinity);
    expect(new Set(drawVariants('z', big, 50).map(valuesKey)).size).toBe(50);
  });

  it('names variants v1, v2, ... and reads the names back', () => {
    expect(variantId(3)).toBe('v3');
    expect(variantNumber('v12')).toBe(12);
    expect(variantNumber('v0')).toBeUndefined();
    expect(variantNumber('3')).toBeUndefined();
  });
});

describe('placeholders', () => {
  it('are written in one pass, with spaces allowed, unknown names left as written', () => {
    expect(renderTemplate('def [[variant.f]](x): return [[ variant.n ]] + [[variant.zz]]', { f: 'go', n: 4 })).toBe('def go(x): return 4 + [[variant.zz]]');
  });

  it('never expand a value that looks like a placeholder', () => {
    expect(renderTemplate('[[variant.a]] [[variant.b]]', { a: '[[variant.b]]', b: 'B' })).toBe('[[variant.b]] B');
    expect(renderTemplate('[[variant.a]]', { a: '$& $1 $$' })).toBe('$& $1 $$');
  });

  it('leave every other bracket form alone', () => {
    const code = 'x = [[1, 2]]\n[[tool.pkg]]\nf"{{name}}" {{ variant.a }} [variant.a]';
    expect(renderTemplate(code, { a: 'A', name: 'N', tool: 'T' })).toBe(code);
    expect(placeholdersIn(code)).toEqual([]);
  });

  it('are found at their line and column', () => {
    expect(placeholdersIn('a\n  [[variant.x]] [[variant.y]]\n\n[[variant.]]')).toEqual([
      { name: 'x', index: 4, line: 2, column: 3 },
      { name: 'y', index: 18, line: 2, column: 17 },
      { name: '', index: 33, line: 4, column: 1 },
    ]);
  });
});

describe('rendering a packet', () => {
  let root: string;
  const load = async () => {
    const loaded = await loadPackets({ packetsDir: path.join(root, 'packets'), cwd: root });
    return { packet: codePackets(loaded.packets)[0]!, diagnostics: loaded.diagnostics };
  };
  const reader = (p: CodePacket) => async (rel: string) => new Uint8Array(await readFile(path.join(root, p.dir, rel)));
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'packet-kit-variants-'));
    await cp(FIXTURE, path.join(root, 'packets/variant-planted'), { recursive: true });
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('writes every text file of every tree, keeps binary files, and parses each variant with its own digest', async () => {
    const { packet, diagnostics } = await load();
    expect(diagnostics).toEqual([]);
    const results = await packetVariants(packet, reader(packet));
    expect(results.map((r) => r.id)).toEqual(['v1', 'v2', 'v3']);
    const digests = new Set<string>();
    for (const r of results) {
      const v = r.variant!;
      expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      digests.add(v.digest);
      expect(v.digest).toBe(v.packet.digest);
      expect(v.digest).not.toBe(packet.digest);
      const func = String(v.values.func);
      for (const file of ['starter/src/duration.py', 'starter/tests/test_duration.py', 'sample/src/duration.py', 'hidden/tests/test_hidden_duration.py', 'mutants/drops-minutes/src/duration.py', 'replies/sample.md']) {
        const text = new TextDecoder().decode(v.files.get(file)!);
        expect(text, file).toContain(func);
        expect(text, file).not.toContain('[[variant.');
      }
      expect(v.packet.prompt.body).toContain(`In this variant (${v.id}) no duration is longer than ${v.values.limit} hours.`);
      expect(v.packet.prompt.body).toContain('into seconds.');
      const blob = await readFile(path.join(root, packet.dir, 'starter/data/blob.bin'));
      expect(Buffer.from(v.files.get('starter/data/blob.bin')!).equals(blob)).toBe(true);
    }
    expect(digests.size).toBe(3);
    // The same draw, the same bytes: rendering again gives the same digests.
    expect((await packetVariants(packet, reader(packet))).map((r) => r.variant!.digest)).toEqual(results.map((r) => r.variant!.digest));
    expect((await packetVariants(packet, reader(packet), 5)).length).toBe(5);
  });

  it('leaves a packet without parameters as it is: the same bytes, the same digest, the same zip', async () => {
    const t: TempPackets = await tempPackets();
    try {
      await t.add('plain');
      const loaded = await loadPackets({ packetsDir: t.packets, cwd: t.root });
      const plain = codePackets(loaded.packets)[0]!;
      expect(plain.prompt.data.variants).toBeUndefined();
      const read = async (rel: string) => new Uint8Array(await readFile(path.join(t.packets, 'plain', rel)));
      const files = await renderPacketFiles(plain, read, { id: 'v1' });
      for (const e of plain.entries) expect(Buffer.from(files.get(e.path)!).equals(Buffer.from((await read(e.path))!)), e.path).toBe(true);
      expect(packetDigest(renderedSource(plain, files).entries)).toBe(plain.digest);
      expect(await packetVariants(plain, read)).toEqual([]);
      expect(await checkVariants(plain, read)).toEqual([]);
      const zipsDir = await mkdtemp(path.join(tmpdir(), 'packet-kit-zips-'));
      try {
        await cp(t.packets, path.join(zipsDir, 'unused'), { recursive: true });
        await import('node:fs/promises').then((fs) => fs.mkdir(path.join(zipsDir, 'zips')));
        const built = await buildCandidateZips([plain], () => read, zipsDir, undefined, 3);
        const direct = (await buildCandidateZip(plain, read)).zip!;
        expect(built.refused).toEqual([]);
        expect(built.variants.size).toBe(0);
        expect(built.zips.get('plain')!.name).toBe('plain-0.1.0.zip');
        expect(Buffer.from(built.zips.get('plain')!.bytes).equals(Buffer.from(direct.bytes))).toBe(true);
        expect(new TextDecoder().decode(direct.files.find((f) => f.path === 'README.md')!.bytes)).not.toMatch(/Variant:/);
      } finally {
        await rm(zipsDir, { recursive: true, force: true });
      }
    } finally {
      await t.dispose();
    }
  });

  it('reports a variant whose values break its YAML, at the file', async () => {
    const prompt = path.join(root, 'packets/variant-planted/prompt.mdx');
    const text = await readFile(prompt, 'utf8');
    await writeFile(prompt, text.replace('title: "Planted variants"', 'title: "Planted [[variant.unit]]"').replace('unit: { value: seconds }', `unit: { value: 'a" b' }`));
    const { packet } = await load();
    const r = await renderVariant(packet, reader(packet), 1, { func: 'f', limit: 1, unit: 'a" b' });
    expect(r.variant).toBeUndefined();
    const problems = await checkVariants(packet, reader(packet));
    expect(problems.map((d) => d.code)).toContain('PK154');
    expect(problems.find((d) => d.code === 'PK154')!.message).toMatch(/^Variant v1 \(func=\w+, limit=\d+, unit=a" b\) is not a valid packet once its values are written in: PK105/);
  });
});

describe('the checks of variants', () => {
  let root: string;
  const dir = () => path.join(root, 'packets/variant-planted');
  const edit = async (file: string, from: string, to: string) => {
    const text = await readFile(path.join(dir(), file), 'utf8');
    if (!text.includes(from)) throw new Error(`fixture edit: "${from}" not in ${file}`);
    await writeFile(path.join(dir(), file), text.replace(from, to));
  };
  const check = async (count?: number) => {
    const loaded = await loadPackets({ packetsDir: path.join(root, 'packets'), cwd: root });
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const packet = codePackets(loaded.packets)[0]!;
    return checkVariants(packet, async (rel) => new Uint8Array(await readFile(path.join(dir(), rel))), count);
  };
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'packet-kit-variants-'));
    await cp(FIXTURE, path.join(root, 'packets/variant-planted'), { recursive: true });
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('passes the planted packet', async () => {
    expect(await check()).toEqual([]);
  });

  it('PK150: a misspelt placeholder, at its file, line and column', async () => {
    await edit('hidden/tests/test_hidden_duration.py', 'import [[variant.func]]', 'import [[variant.fnuc]]');
    const [d, ...rest] = await check();
    expect(rest).toEqual([]);
    expect(d).toMatchObject({ code: 'PK150', severity: 'error', file: 'packets/variant-planted/hidden/tests/test_hidden_duration.py', line: 3, column: 26 });
    expect(d!.message).toContain('[[variant.fnuc]]');
    expect(d!.hint).toContain('func, limit, unit, id');
  });

  it('PK151: a parameter no file uses, at its name in the prompt', async () => {
    await edit('prompt.mdx', '    unit: { value: seconds }', '    unit: { value: seconds }\n    spare: { pick: [a, b] }');
    const ds = await check();
    expect(ds.map((d) => [d.code, d.severity])).toEqual([['PK151', 'warning']]);
    expect(ds[0]).toMatchObject({ file: 'packets/variant-planted/prompt.mdx', line: 16, column: 5 });
  });

  it('PK152: a parameter named like the built-in id', async () => {
    await edit('prompt.mdx', '    unit: { value: seconds }', '    unit: { value: seconds }\n    id: { pick: [a, b] }');
    expect((await check()).map((d) => d.code)).toEqual(['PK152']);
  });

  it('PK153: more variants than combinations, from the field or the build flag', async () => {
    expect(await check(270)).toEqual([]);
    const ds = await check(271);
    expect(ds.map((d) => d.code)).toEqual(['PK153']);
    expect(ds[0]!.message).toContain('271 variants, but its parameters have only 270 distinct combinations');
    await edit('prompt.mdx', 'limit: { int: [10, 99] }', 'limit: { int: [10, 11] }');
    await edit('prompt.mdx', 'count: 3', 'count: 7');
    const field = await check();
    expect(field.map((d) => d.code)).toEqual(['PK153']);
    expect(field[0]).toMatchObject({ line: 11 });
  });

  it('PK155: a placeholder in a packet without variants', async () => {
    const text = await readFile(path.join(dir(), 'prompt.mdx'), 'utf8');
    await writeFile(path.join(dir(), 'prompt.mdx'), text.replace(/variants:\n(?: {2}.*\n)+/, ''));
    const ds = await check();
    expect(new Set(ds.map((d) => d.code))).toEqual(new Set(['PK155']));
    expect(ds.length).toBeGreaterThan(10);
  });

  it('PK156: two variants that render the same files', async () => {
    // Only the unused parameter differs: the rendered files cannot tell the variants apart.
    await edit('prompt.mdx', 'func: { pick: [parse_duration, to_seconds, duration_seconds] }', 'func: { value: parse_duration }');
    await edit('prompt.mdx', 'limit: { int: [10, 99] }', 'limit: { int: [10, 99] }\n    spare: { pick: [a, b, c] }');
    await edit('prompt.mdx', 'no duration is longer than [[ variant.limit ]] hours', 'no duration is long');
    await edit('prompt.mdx', '([[variant.id]])', '(one)');
    const codes = (await check()).map((d) => d.code);
    expect(codes).toContain('PK156');
  });
});
