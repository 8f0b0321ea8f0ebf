import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryIo } from '../../../src/cli/io.ts';
import { runCli } from '../../../src/cli/run-cli.ts';
import type { Diagnostic } from '../../../src/errors/diagnostic.ts';
import { tempPackets, type TempPackets } from '../../support/packet-fixtures.ts';

/**
 * Text that is not text and names that read as other names: a control character in any part is an
 * error at its line and column (PK160); a control, bidi or zero-width character in any file name
 * of a packet is an error naming the path escaped (PK161). Neither reaches a report raw.
 */
let t: TempPackets;
beforeEach(async () => {
  t = await tempPackets();
});
afterEach(async () => {
  await t.dispose();
});

async function check(): Promise<{ code: number; diagnostics: Diagnostic[]; text: string }> {
  const io = memoryIo(t.root);
  const code = await runCli(['check', '--format', 'json'], io);
  const doc = JSON.parse(io.stdout) as { diagnostics: Diagnostic[] };
  const text = memoryIo(t.root);
  await runCli(['check'], text);
  return { code, diagnostics: doc.diagnostics, text: text.stdout + text.stderr };
}

const of = (list: Diagnostic[], code: string) => list.filter((d) => d.code === code);
/** No raw control (but LF), bidi or zero-width character. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200f\u2060\u061c\ufeff]/;

describe('control characters in a part (PK160)', () => {
  it('names a NUL in the prompt title at its line and column', async () => {
    await t.add('p');
    await t.edit('p', 'prompt.mdx', 'title: "Fixture Packet"', 'title: "Fixture\u0000Packet"');
    const r = await check();
    expect(r.code).toBe(1);
    const [d, ...more] = of(r.diagnostics, 'PK160');
    expect(more).toEqual([]);
    expect([d!.file, d!.line, d!.column, d!.severity]).toEqual(['packets/p/prompt.mdx', await t.lineOf('p', 'prompt.mdx', 'title:'), 'title: "Fixture'.length + 1, 'error']);
    expect(d!.message).toMatchInlineSnapshot(`"prompt.mdx holds the control character U+0000 here. It is invisible in an editor, but it would reach the site's pages, PROMPT.md, README.md and RUBRIC.md as it is, where a terminal or a browser acts on it or shows garbage."`);
    expect(r.text).not.toMatch(RAW);
  });

  it.each([
    ['takehome', 'prompt.mdx', '\u001b[31m', 'U+001B'],
    ['takehome', 'rubric.mdx', '\u0007', 'U+0007'],
    ['takehome', 'sample.mdx', '\u007f', 'U+007F'],
    ['takehome', 'failures.mdx', '\u0085', 'U+0085'],
    ['takehome', 'prompt.mdx', '\u009b', 'U+009B'],
    ['lab', 'assistant.mdx', '\u0008', 'U+0008'],
    ['lab', 'prompt.mdx', '\u000c', 'U+000C'],
    ['drill', 'prompt.mdx', '\u0000', 'U+0000'],
    ['drill', 'rubric.mdx', '\u001f', 'U+001F'],
    ['drill', 'assistant.mdx', '\u000b', 'U+000B'],
  ] as const)('names one in the body of a %s\'s %s (%j)', async (kind, part, ch, code) => {
    await t.add('p', {}, kind);
    await appendFile(path.join(t.packets, 'p', part), `\nSee ${ch}${ch} here.\n`);
    const text = await t.read('p', part);
    const line = text.split('\n').findIndex((l) => l.startsWith('See ')) + 1;
    const r = await check();
    expect(r.code).toBe(1);
    expect(of(r.diagnostics, 'PK160').map((d) => [d.file, d.line, d.column])).toEqual([[`packets/p/${part}`, line, 5]]);
    expect(of(r.diagnostics, 'PK160')[0]!.message).toContain(`${part} holds the control character ${code} here (and 1 more on this line)`);
  });

  it('takes tabs, CRLF line endings and a byte-order mark', async () => {
    await t.add('p');
    const text = await t.read('p', 'rubric.mdx');
    await t.write('p', 'rubric.mdx', `\uFEFF${text.replace(/\n/g, '\r\n')}\r\n\tIndented with a tab.\r\n`);
    const r = await check();
    expect(of(r.diagnostics, 'PK160')).toEqual([]);
  });

  it('reports each line with one once, ten lines at most', async () => {
    await t.add('p');
    await appendFile(path.join(t.packets, 'p', 'sample.mdx'), '\n' + 'x\u0001y\n'.repeat(30));
    expect(of((await check()).diagnostics, 'PK160')).toHaveLength(10);
  });

  it('reports one in a part whose YAML does not parse', async () => {
    await t.add('p');
    await t.edit('p', 'rubric.mdx', '---\n', '---\nbroken: [\u0002\n');
    const r = await check();
    expect(of(r.diagnostics, 'PK160').map((d) => [d.line, d.column])).toEqual([[2, 10]]);
  });
});

describe('unsafe file names in a packet (PK161)', () => {
  it.each([
    ['starter', 'starter/src/evil\u202Eyp.py', 'starter/src/evil\\u202eyp.py', 'bidi control (U+202E)'],
    ['sample', 'sample/src/a\u2067b.py', 'sample/src/a\\u2067b.py', 'bidi control (U+2067)'],
    ['hidden', 'hidden/tests/test_\u200Bx.py', 'hidden/tests/test_\\u200bx.py', 'zero-width character (U+200B)'],
    ['mutants', 'mutants/drops-minutes/src/\uFEFFx.py', 'mutants/drops-minutes/src/\\ufeffx.py', 'zero-width character (U+FEFF)'],
    ['replies', 'replies/a\u200Eb.md', 'replies/a\\u200eb.md', 'bidi control (U+200E)'],
    ['a folder name', 'starter/\u2066src/x.py', 'starter/\\u2066src/x.py', 'bidi control (U+2066)'],
    ['a C1 control', 'starter/a\u0085.py', 'starter/a\\u0085.py', 'control character (U+0085)'],
    ['the packet root', 'notes\u061C.md', 'notes\\u061c.md', 'bidi control (U+061C)'],
  ])('names one in %s, shown escaped', async (_where, rel, shown, reason) => {
    const dir = await t.add('p');
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), 'x = 1\n');
    const r = await check();
    expect(r.code).toBe(1);
    const found = of(r.diagnostics, 'PK161');
    expect(found.map((d) => [d.file, d.severity])).toEqual([[`packets/p/${rel}`, 'error']]);
    expect(found[0]!.message).toContain(`"${shown}" (shown escaped) has a name that holds a ${reason}`);
    expect(r.text).toContain(`packets/p/${shown} PK161 error`);
    // (Other diagnostics' messages, PK130 on an unused reply, are the renderer's to escape.)
    expect(r.text.split('\n').filter((l) => l.includes('PK161'))).toEqual([expect.not.stringMatching(RAW)]);
  });

  it('names one in a drill (no trees) and in a packet whose parts are broken', async () => {
    const drill = await t.add('d', {}, 'drill');
    await writeFile(path.join(drill, 'a\u202Eb.md'), 'x\n');
    const broken = await t.add('b');
    await t.write('b', 'rubric.mdx', 'no frontmatter\n');
    await mkdir(path.join(broken, 'starter', 'src'), { recursive: true });
    await writeFile(path.join(broken, 'starter', 'src', 'z\u200Dw.py'), 'x = 1\n');
    const r = await check();
    expect(of(r.diagnostics, 'PK161').map((d) => d.file).sort()).toEqual(['packets/b/starter/src/z\u200Dw.py', 'packets/d/a\u202Eb.md']);
  });

  it('takes names in other scripts and symbols that are not controls', async () => {
    const dir = await t.add('p');
    await writeFile(path.join(dir, 'starter', 'données_日本_◙.txt'), 'x\n');
    expect(of((await check()).diagnostics, 'PK161')).toEqual([]);
  });
});
