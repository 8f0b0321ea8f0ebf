import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { create } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSubmission, type IntakeLimits } from '../../../src/grade/intake.ts';
import { cp437Name, rawZip, utf8Name, type RawEntry } from './zip-names.ts';

/**
 * Names in a submission that read as other names: control characters (also as the CP437 glyph a
 * zip without the UTF-8 flag turns them into), bidi controls and zero-width characters are
 * refused, and two names equal once decoded are duplicates. Every refusal shows the name escaped.
 */
let dir: string;
const limits: IntakeLimits = { maxEntries: 20, maxTotalBytes: 1024 * 1024, maxEntryBytes: 64 * 1024, maxRatio: 200 };
let n = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'intake-names-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function submit(entries: readonly RawEntry[]) {
  const file = path.join(dir, `s${n++}.zip`);
  await writeFile(file, await rawZip([utf8Name('NOTES.md'), ...entries]));
  return readSubmission(file, limits, new Set(['src']));
}

async function refused(entries: readonly RawEntry[]) {
  const r = await submit(entries);
  if (r.ok) throw new Error(`graded, with the files ${JSON.stringify([...r.files.keys()])}`);
  return r.refusal;
}

/** No raw control, bidi or zero-width character in a refusal's text. */
const RAW = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200f\u2060\u061c\ufeff]/;

describe('zip names without the UTF-8 flag (CP437)', () => {
  it.each([
    ['a newline', [...Buffer.from('src/a'), 0x0a, ...Buffer.from('b.py')], 'U+000A', '◙', 'src/a\\nb.py'],
    ['ESC', [...Buffer.from('src/'), 0x1b, ...Buffer.from('[31mred.py')], 'U+001B', '←', 'src/\\u001b[31mred.py'],
    ['a bell', [...Buffer.from('src/ding'), 0x07, ...Buffer.from('.py')], 'U+0007', '•', 'src/ding\\u0007.py'],
    ['DEL', [...Buffer.from('src/x'), 0x7f, ...Buffer.from('.py')], 'U+007F', '⌂', 'src/x\\u007f.py'],
  ])('refuses a name with %s, which yauzl decodes to a glyph and unzip writes as the control', async (_what, bytes, code, glyph, shown) => {
    const f = await refused([cp437Name(bytes)]);
    expect(f.code).toBe('PK502');
    expect(f.message).toContain(`"${shown}"`);
    expect(f.message).toContain(`control character (${code})`);
    expect(f.message).toContain(`"${glyph}"`);
    expect(f.message).not.toMatch(RAW);
  });

  it('takes a CP437 name of letters (0x80 and up are letters, not controls)', async () => {
    const r = await submit([cp437Name([...Buffer.from('src/caf'), 0x82, ...Buffer.from('.py')])]);
    expect(r.ok && [...r.files.keys()]).toEqual(['NOTES.md', 'src/café.py']);
  });

  it('reads a CP437 name and a UTF-8 name that decode to one name as duplicates', async () => {
    const f = await refused([cp437Name([...Buffer.from('src/caf'), 0x82, ...Buffer.from('.py')]), utf8Name('src/café.py')]);
    expect(f.code).toBe('PK505');
    const g = await refused([cp437Name([...Buffer.from('src/'), 0x8e, ...Buffer.from('.py')]), utf8Name('src/ä.py')]);
    expect([g.code, g.message]).toEqual(['PK505', expect.stringContaining('once case is ignored')]);
  });
});

describe('zip names with the UTF-8 flag', () => {
  it.each([
    ['a right-to-left override (Trojan Source)', 'src/evil\u202Eyp.py', 'bidi control (U+202E)', 'src/evil\\u202eyp.py'],
    ['a left-to-right isolate', 'src/a\u2066b.py', 'bidi control (U+2066)', 'src/a\\u2066b.py'],
    ['a right-to-left mark', 'src/a\u200Fb.py', 'bidi control (U+200F)', 'src/a\\u200fb.py'],
    ['an Arabic letter mark', 'src/a\u061Cb.py', 'bidi control (U+061C)', 'src/a\\u061cb.py'],
    ['a zero-width space', 'src/ma\u200Bin.py', 'zero-width character (U+200B)', 'src/ma\\u200bin.py'],
    ['a zero-width joiner', 'src/a\u200Db.py', 'zero-width character (U+200D)', 'src/a\\u200db.py'],
    ['a word joiner', 'src/a\u2060b.py', 'zero-width character (U+2060)', 'src/a\\u2060b.py'],
    ['a byte-order mark', 'src/\uFEFFmain.py', 'zero-width character (U+FEFF)', 'src/\\ufeffmain.py'],
    ['a C1 control (NEL)', 'src/a\u0085b.py', 'control character (U+0085)', 'src/a\\u0085b.py'],
    ['a C1 control (CSI)', 'src/a\u009B31mb.py', 'control character (U+009B)', 'src/a\\u009b31mb.py'],
    ['a bidi control in a folder name', 'src/\u202Ecod/x.py', 'bidi control (U+202E)', 'src/\\u202ecod/x.py'],
  ])('refuses a name with %s, shown escaped', async (_what, name, reason, shown) => {
    const f = await refused([utf8Name(name)]);
    expect(f.code).toBe('PK502');
    expect(f.message).toContain(`"${shown}", which holds a ${reason}`);
    expect(f.message).not.toMatch(RAW);
  });

  it('refuses a name that is not valid UTF-8 although the flag says it is', async () => {
    const f = await refused([{ name: Buffer.from([...Buffer.from('src/a'), 0xc3, 0x28, ...Buffer.from('.py')]), utf8: true }]);
    expect([f.code, f.message]).toEqual(['PK502', expect.stringContaining('"src/a\\xc3(.py", which is not valid UTF-8')]);
  });

  it('takes the CP437 glyphs themselves when the name is UTF-8: "◙" is a character there, not a newline', async () => {
    const r = await submit([utf8Name('src/◙☺♪⌂.py')]);
    expect(r.ok && [...r.files.keys()]).toEqual(['NOTES.md', 'src/◙☺♪⌂.py']);
  });

  it('shows a refused name escaped when yauzl itself refuses it', async () => {
    const f = await refused([utf8Name('../\u202Eevil.py')]);
    expect([f.code, f.message]).toEqual(['PK502', expect.stringContaining('"../\\u202eevil.py"')]);
  });
});

describe('tar.gz submissions', () => {
  it('refuses a tar.gz holding a name with a bidi control, shown escaped', async () => {
    const folder = path.join(dir, `tar-${n++}`);
    await mkdir(path.join(folder, 'src'), { recursive: true });
    await writeFile(path.join(folder, 'src', 'x\u2067y.py'), 'X = 1\n');
    const file = `${folder}.tar.gz`;
    await create({ gzip: true, file, cwd: folder, portable: true }, ['src']);
    const r = await readSubmission(file, limits, new Set(['src']));
    expect(r.ok).toBe(false);
    if (!r.ok) expect([r.refusal.code, r.refusal.message]).toEqual(['PK502', expect.stringContaining('"src/x\\u2067y.py", which holds a bidi control (U+2067)')]);
  });
});

describe('folder submissions', () => {
  it('refuses a folder holding a file named with a bidi control or a zero-width character', async () => {
    for (const [name, shown] of [
      ['x\u202Ey.py', 'src/x\\u202ey.py'],
      ['a\u200Bb.py', 'src/a\\u200bb.py'],
    ] as const) {
      const folder = path.join(dir, `folder-${n++}`);
      await mkdir(path.join(folder, 'src'), { recursive: true });
      await writeFile(path.join(folder, 'src', name), 'X = 1\n');
      const r = await readSubmission(folder, limits, new Set(['src']));
      expect(r.ok).toBe(false);
      if (!r.ok) expect([r.refusal.code, r.refusal.message]).toEqual(['PK502', expect.stringContaining(`"${shown}"`)]);
    }
  });
});
