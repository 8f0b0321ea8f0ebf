import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrange, normalPath, notNormalReason, readSubmission, unsafePathReason, type IntakeLimits } from '../../../src/grade/intake.ts';
import { createInterpreterResolver } from '../../../src/sandbox/interpreters.ts';

/**
 * Safe intake on hostile archives made by tests/fixtures/grade/make-archives.py: each is refused
 * with its own code, nothing is written anywhere, and the healthy ones come back whole.
 */
let dir: string;
const limits: IntakeLimits = { maxEntries: 20, maxTotalBytes: 4 * 1024 * 1024, maxEntryBytes: 1024 * 1024, maxRatio: 200 };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'intake-'));
  const resolver = createInterpreterResolver({ searchPath: process.env.PATH ?? '', env: process.env, tmpDir: tmpdir() });
  const python = await resolver.python();
  if ('error' in python) throw new Error(python.error);
  execFileSync(python.executable, [path.resolve(import.meta.dirname, '../../fixtures/grade/make-archives.py'), dir]);
  await resolver.dispose();
}, 60_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

const refusal = async (name: string) => {
  const r = await readSubmission(path.join(dir, name), limits, new Set(['src']));
  if (r.ok) throw new Error(`${name} was not refused`);
  return r.refusal;
};

describe('safe intake', () => {
  it.each([
    ['traversal.zip', 'PK502', /"\.\.\/evil\.txt".*climbs out/],
    ['absolute.zip', 'PK502', /absolute path/],
    ['symlink.zip', 'PK503', /a symlink "src\/link\.py"/],
    ['device.zip', 'PK504', /a character device/],
    ['encrypted.zip', 'PK506', /encrypted/],
    ['duplicate.zip', 'PK505', /"src\/a\.py" and "src\/A\.py".*once case is ignored/],
    ['empty-segment.zip', 'PK513', /"src\/\/x\.py", which holds an empty segment.*it is "src\/x\.py"/],
    ['dot-segment.zip', 'PK513', /"src\/\.\/x\.py", which holds a "\." segment.*it is "src\/x\.py"/],
    ['decomposed.zip', 'PK513', /"src\/cafe\u0301\.py", which is not in Unicode normal form C.*\(U\+0301\).*it is "src\/caf\u00e9\.py"/],
    ['over-empty-segment.zip', 'PK505', /"src\/\/x\.py" and "src\/x\.py", the same name once "\/\/", "\." segments and Unicode composition/],
    ['over-decomposed.zip', 'PK505', /"src\/cafe\u0301\.py" and "src\/caf\u00e9\.py", the same name once/],
    ['many.zip', 'PK507', /more than 20 entries/],
    ['big.zip', 'PK508', /cap of 1048576 bytes/],
    ['bomb.zip', 'PK509', /expands \d+ times \(the cap is 200\)/],
    ['traversal.tar.gz', 'PK502', /climbs out/],
    ['symlink.tar.gz', 'PK503', /a symlink/],
    ['hardlink.tar.gz', 'PK503', /a hard link/],
    ['device.tar.gz', 'PK504', /a character device/],
    ['fifo.tar.gz', 'PK504', /a FIFO/],
    ['bomb.tar.gz', 'PK509', /expands \d+ times/],
    ['control.tar.gz', 'PK502', /control character/],
    ['empty-segment.tar.gz', 'PK513', /"src\/\/x\.py", which holds an empty segment/],
    ['dot-segment.tar.gz', 'PK513', /"\.\/src\/\.\/x\.py", which holds a "\." segment.*it is "src\/x\.py"/],
    ['decomposed.tar.gz', 'PK513', /"src\/cafe\u0301\.py", which is not in Unicode normal form C/],
    ['over-empty-segment.tar.gz', 'PK505', /"src\/\/x\.py" and "src\/x\.py", the same name once/],
    ['over-decomposed.tar.gz', 'PK505', /"src\/cafe\u0301\.py" and "src\/caf\u00e9\.py", the same name once/],
    ['not-an-archive.txt', 'PK501', /neither a zip, a gzipped tar nor a folder/],
    ['missing.zip', 'PK501', /no such file/],
  ])('refuses %s with %s', async (name, code, message) => {
    const f = await refusal(name);
    expect(f.code).toBe(code);
    expect(f.kind).toBe('intake');
    expect(f.message).toMatch(message);
  });

  it('writes nothing while it reads, wherever the entries point', async () => {
    const before = (await readdir(dir)).sort();
    for (const name of before) await readSubmission(path.join(dir, name), limits);
    expect((await readdir(dir)).sort()).toEqual(before);
    expect(await readdir(path.dirname(dir))).not.toContain('evil.txt');
  });

  it('reads a healthy zip: one root folder stripped, caches and the kit\'s files set aside', async () => {
    const r = await readSubmission(path.join(dir, 'healthy.zip'), limits);
    if (!r.ok) throw new Error(r.refusal.message);
    expect(r.kind).toBe('zip');
    expect(r.stripped).toBe('scaffold-0.1.0');
    expect([...r.files.keys()]).toEqual(['NOTES.md', 'src/duration.py']);
    expect(r.files.get('src/duration.py')!.toString()).toBe('X = 1\n');
    expect([...r.kitFiles.keys()]).toEqual(['README.md']);
    expect(r.dropped).toEqual(['src/__pycache__/duration.cpython-311.pyc']);
    expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reads a healthy tar.gz made from inside the folder (./ entries)', async () => {
    const r = await readSubmission(path.join(dir, 'healthy.tar.gz'), limits);
    if (!r.ok) throw new Error(r.refusal.message);
    expect(r.kind).toBe('tar.gz');
    expect([...r.files.keys()]).toEqual(['NOTES.md', 'src/duration.py']);
  });

  it('reads a folder, and refuses one that holds a link or a FIFO', async () => {
    const folder = path.join(dir, 'folder');
    await mkdir(path.join(folder, 'src'), { recursive: true });
    await writeFile(path.join(folder, 'src', 'duration.py'), 'X = 3\n');
    const ok = await readSubmission(folder, limits, new Set(['src']));
    expect(ok.ok && [...ok.files.keys()]).toEqual(['src/duration.py']);
    await symlink('/etc/passwd', path.join(folder, 'src', 'link.py'));
    expect((await refusal('folder')).code).toBe('PK503');
    await rm(path.join(folder, 'src', 'link.py'));
    execFileSync('mkfifo', [path.join(folder, 'src', 'pipe')]);
    expect((await refusal('folder')).code).toBe('PK504');
  });

  it('refuses a folder whose file names are not in normal form C, and one that spells a file twice that way', async () => {
    const folder = path.join(dir, 'decomposed-folder');
    await mkdir(path.join(folder, 'src'), { recursive: true });
    await writeFile(path.join(folder, 'src', 'cafe\u0301.py'), 'X = 1\n');
    const alone = await refusal('decomposed-folder');
    expect([alone.code, alone.message]).toEqual(['PK513', expect.stringMatching(/"src\/cafe\u0301\.py", which is not in Unicode normal form C/)]);
    await writeFile(path.join(folder, 'src', 'caf\u00e9.py'), 'X = 2\n');
    // The two names sort as equals (localeCompare), so which is read first is the file system's order: refused either way.
    expect(['PK505', 'PK513']).toContain((await refusal('decomposed-folder')).code);
    await rm(folder, { recursive: true });
  });

  it('takes off only the archive\'s own conventions: a folder\'s trailing "/" and a leading "./"', () => {
    expect(normalPath('src//x.py')).toBe('src/x.py');
    expect(normalPath('src/./x.py')).toBe('src/x.py');
    expect(normalPath('src/cafe\u0301.py')).toBe('src/caf\u00e9.py');
    expect(notNormalReason('src/x.py')).toBeNull();
    expect(notNormalReason('src/caf\u00e9.py')).toBeNull();
    expect(notNormalReason('src/x.py/')).toMatch(/empty segment/);
    expect(notNormalReason('./src/x.py')).toMatch(/"\." segment/);
  });

  it('names what is unsafe in a path', () => {
    expect(unsafePathReason('src/a.py')).toBeNull();
    expect(unsafePathReason('..\\evil.txt')).toBe('holds a backslash');
    expect(unsafePathReason('C:/x')).toBe('is an absolute path');
    expect(unsafePathReason('a/../b')).toBe('climbs out with ".."');
    expect(unsafePathReason('')).toBe('is empty');
  });

  it('strips a root folder only when every entry sits in it', () => {
    const files = new Map([
      ['a/x.py', Buffer.from('1')],
      ['b/y.py', Buffer.from('2')],
    ]);
    expect(arrange(files).stripped).toBeNull();
    expect(arrange(new Map([['only/x.py', Buffer.from('1')]])).stripped).toBe('only');
    expect(arrange(new Map([['src/x.py', Buffer.from('1')]]), new Set(['src'])).stripped).toBeNull();
    expect(arrange(new Map([['x.py', Buffer.from('1')]])).stripped).toBeNull();
  });
});
