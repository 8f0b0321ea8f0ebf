import { execFileSync } from 'node:child_process';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBytesCapped, readBytesCappedSync, readFileCapped } from '../../../src/packets/capped-read.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'packet-kit-capped-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('reading a file with its size checked first', () => {
  it('hashes a file within the cap, and keeps its bytes only up to `keep`', async () => {
    const file = path.join(dir, 'a.txt');
    await writeFile(file, 'hello\n');
    expect(await readFileCapped(file, 6, 6)).toEqual({
      ok: true,
      size: 6,
      sha256: '5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03',
      bytes: new TextEncoder().encode('hello\n'),
    });
    expect(await readFileCapped(file, 6, 5)).not.toHaveProperty('bytes');
    expect(await readFileCapped(file, 5)).toEqual({ ok: false, why: 'too-large', size: 6 });
    expect(await readBytesCapped(file, 5)).toBeUndefined();
    expect(readBytesCappedSync(file, 5)).toBeUndefined();
    expect(new TextDecoder().decode(readBytesCappedSync(file, 6))).toBe('hello\n');
  });

  it('refuses a sparse 3 GiB file from its size, without reading it', async () => {
    const file = path.join(dir, 'huge.bin');
    const fh = await open(file, 'w');
    await fh.truncate(3 * 1024 ** 3);
    await fh.close();
    expect(await readFileCapped(file, 1024 ** 2)).toEqual({ ok: false, why: 'too-large', size: 3 * 1024 ** 3 });
    expect(readBytesCappedSync(file, 1024 ** 2)).toBeUndefined();
  });

  it('opens a pipe put where a file was without waiting on it, and says it is not a file', async () => {
    const fifo = path.join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(await readFileCapped(fifo, 1024)).toEqual({ ok: false, why: 'not-a-file' });
    expect(readBytesCappedSync(fifo, 1024)).toBeUndefined();
  });

  it('never follows a link', async () => {
    const file = path.join(dir, 'a.txt');
    await writeFile(file, 'x');
    execFileSync('ln', ['-s', file, path.join(dir, 'link')]);
    await expect(readFileCapped(path.join(dir, 'link'), 1024)).rejects.toMatchObject({ code: 'ELOOP' });
    expect(readBytesCappedSync(path.join(dir, 'link'), 1024)).toBeUndefined();
  });
});
