import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheKey, directoryCache, type CacheKeyParts } from '../../../src/rehearse/cache.ts';
import type { PacketReport } from '../../../src/rehearse/report.ts';

/**
 * The rehearsal cache on a disk that cannot take it (a file where its folder must be; a full disk,
 * the temporary file linked to /dev/full): a cache only saves time, so the result is not kept and
 * the rehearsal goes on, never an internal error after every packet was rehearsed.
 */
let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'packet-rehearse-cache-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const key: CacheKeyParts = { digest: 'abc', command: 'python -m unittest', interpreter: 'Python 3.11.7', sandbox: 'bubblewrap', timeoutMs: 30_000 };
const report = { id: 'alpha', digest: 'abc', status: 'fails-closed', checks: [] } as unknown as PacketReport;

describe('a rehearsal cache that cannot be written', () => {
  it('keeps nothing and goes on when a file stands where its folder must be', async () => {
    await writeFile(path.join(root, 'blocked'), 'a file, not a folder');
    const cache = directoryCache(path.join(root, 'blocked', 'rehearse'), 'kit');
    await expect(cache.set('alpha', key, report)).resolves.toBeUndefined();
    expect(await cache.get('alpha', key)).toBeUndefined();
  });

  it('keeps nothing and leaves no temporary file on a full disk (ENOSPC)', async () => {
    const dir = path.join(root, 'full');
    await mkdir(dir);
    const target = path.join(dir, `alpha-${cacheKey({ ...key, kit: 'kit' })}.json`);
    await symlink('/dev/full', `${target}.${process.pid}.tmp`);
    const cache = directoryCache(dir, 'kit');
    await expect(cache.set('alpha', key, report)).resolves.toBeUndefined();
    expect(await readdir(dir)).toEqual([]);
  });
});
