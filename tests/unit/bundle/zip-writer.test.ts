import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import yauzl from 'yauzl';
import { describe, expect, it } from 'vitest';
import { comparePaths, writeZip, ZIP_FILE_MODE, type ZipInput } from '../../../src/bundle/zip-writer.ts';
import { PacketKitError } from '../../../src/errors/packet-kit-error.ts';

const enc = new TextEncoder();
const files = (paths: Record<string, string>): ZipInput[] => Object.entries(paths).map(([path, text]) => ({ path, bytes: enc.encode(text) }));

async function entriesOf(bytes: Uint8Array): Promise<yauzl.Entry[]> {
  const zip = await yauzl.fromBufferPromise(Buffer.from(bytes), { lazyEntries: true });
  const out: yauzl.Entry[] = [];
  for await (const e of zip.eachEntry()) out.push(e);
  zip.close();
  return out;
}

async function refusal(paths: string[]): Promise<string> {
  try {
    await writeZip(paths.map((path) => ({ path, bytes: enc.encode('x') })));
  } catch (err) {
    if (err instanceof PacketKitError) return `${err.diagnostic.code} ${err.diagnostic.message}`;
    throw err;
  }
  return 'written';
}

describe('writeZip', () => {
  const sample = files({ 'b/c.txt': 'c\n', 'a.txt': 'a\n', 'B.txt': 'upper\n', 'é.txt': 'accent\n', 'b/a.txt': 'ba\n' });

  it('gives the same bytes twice, whatever the input order', async () => {
    const one = await writeZip(sample);
    const two = await writeZip([...sample].reverse());
    expect(Buffer.from(two).equals(Buffer.from(one))).toBe(true);
  });

  it('sorts entries by UTF-8 bytes, with fixed time, mode, no extra field and no compression', async () => {
    const entries = await entriesOf(await writeZip(sample));
    expect(entries.map((e) => e.fileName)).toEqual(['B.txt', 'a.txt', 'b/a.txt', 'b/c.txt', 'é.txt']);
    for (const e of entries) {
      expect(e.lastModFileDate).toBe((0 << 9) | (1 << 5) | 1); // 1980-01-01
      expect(e.lastModFileTime).toBe(0); // 00:00:00
      expect(e.externalFileAttributes >>> 16).toBe(ZIP_FILE_MODE);
      expect(e.extraFieldLength).toBe(0);
      expect(e.fileCommentLength).toBe(0);
      expect(e.compressionMethod).toBe(0);
      expect(e.versionMadeBy >> 8).toBe(3); // Unix, so the mode is read
    }
  });

  it('compares paths by bytes, not by locale', () => {
    expect(['b', 'a', 'B', 'é', 'Z'].sort(comparePaths)).toEqual(['B', 'Z', 'a', 'b', 'é']);
  });

  it('is byte-identical under two timezones and two umasks (child processes)', async () => {
    const child = fileURLToPath(new URL('./zip-child.ts', import.meta.url));
    const run = async (TZ: string, umask: string) => {
      const { stdout } = await promisify(execFile)(process.execPath, [child], { env: { ...process.env, TZ, ZIP_UMASK: umask } });
      return JSON.parse(stdout) as { sha256: string; mode: string; offset: number };
    };
    const kiritimati = await run('Pacific/Kiritimati', '022');
    const losAngeles = await run('America/Los_Angeles', '077');
    // Tokyo was east of UTC in 1980: a UTC-based timestamp would read 09:00 there (the other two
    // zones were west of UTC then, where yazl would clamp it to its 1980 minimum and hide the bug).
    const tokyo = await run('Asia/Tokyo', '002');
    // The children really ran in different zones and umasks...
    expect(new Set([kiritimati.offset, losAngeles.offset, tokyo.offset]).size).toBe(3);
    expect([kiritimati.mode, losAngeles.mode, tokyo.mode]).toEqual(['644', '600', '664']);
    // ...and wrote the same bytes.
    expect(losAngeles.sha256).toBe(kiritimati.sha256);
    expect(tokyo.sha256).toBe(kiritimati.sha256);
  });

  it('refuses an absolute path (PK301)', async () => {
    expect(await refusal(['/etc/passwd'])).toMatch(/^PK301 /);
    expect(await refusal(['C:/Windows/x'])).toMatch(/^PK301 /);
    expect(await refusal(['\\\\server\\share'])).toMatch(/^PK301 /);
  });

  it('refuses a ".." segment (PK302)', async () => {
    expect(await refusal(['a/../../b'])).toMatch(/^PK302 /);
    expect(await refusal(['..'])).toMatch(/^PK302 /);
    expect(await refusal(['a\\..\\b'])).toMatch(/^PK302 /);
  });

  it('refuses malformed paths and duplicates (PK303)', async () => {
    expect(await refusal([''])).toMatch(/^PK303 .*is empty/);
    expect(await refusal(['a\\b'])).toMatch(/^PK303 .*backslash/);
    expect(await refusal(['a//b'])).toMatch(/^PK303 .*empty or "\." segment/);
    expect(await refusal(['./a'])).toMatch(/^PK303 .*empty or "\." segment/);
    expect(await refusal(['dir/'])).toMatch(/^PK303 .*empty or "\." segment/);
    expect(await refusal(['a\u0000b'])).toMatch(/^PK303 .*NUL/);
    expect(await refusal(['same.txt', 'same.txt'])).toMatch(/^PK303 .*appears twice/);
  });
});
