import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fsFault } from '../errors/fs-fault.ts';
import type { PacketReport } from './report.ts';

/** Bump when the checks change, so old results are not reused. */
export const REHEARSAL_LOGIC_VERSION = 3;

/** What a cached result depends on. */
export interface CacheKeyParts {
  /** The packet's content digest (every file of the packet). */
  digest: string;
  /** The test command. */
  command: string;
  /** The interpreter version. */
  interpreter: string;
  /** The sandbox kind. */
  sandbox: string;
  /** The per-run time limit. */
  timeoutMs: number;
  /** The scripted replies were rehearsed too (`reply:<name>` checks). */
  replies?: boolean;
  /** A fingerprint of the kit's own code. */
  kit?: string;
}

/** A content-addressed store of packet results. */
export interface RehearsalCache {
  get(id: string, key: CacheKeyParts): Promise<PacketReport | undefined>;
  set(id: string, key: CacheKeyParts, report: PacketReport): Promise<void>;
}

/** The hash of a key. */
export function cacheKey(parts: CacheKeyParts): string {
  return createHash('sha256')
    .update(JSON.stringify({ v: REHEARSAL_LOGIC_VERSION, ...parts }))
    .digest('hex')
    .slice(0, 32);
}

/** A cache in a folder: one JSON file per packet and key, written atomically. */
/**
 * A cache in a folder. `kit` is a fingerprint of the kit's own code (see `kitFingerprint`): a
 * change to the judge or the sandbox makes every earlier result stale, without a version to bump.
 */
export function directoryCache(dir: string, kit: string): RehearsalCache {
  const file = (id: string, key: CacheKeyParts) => path.join(dir, `${id}-${cacheKey({ ...key, kit })}.json`);
  return {
    async get(id, key) {
      try {
        const report = JSON.parse(await readFile(file(id, key), 'utf8')) as PacketReport;
        return report.digest === key.digest ? { ...report, cached: true } : undefined;
      } catch {
        return undefined;
      }
    },
    async set(id, key, report) {
      if (report.status === 'inconclusive') return;
      const target = file(id, key);
      const tmp = `${target}.${process.pid}.tmp`;
      try {
        await mkdir(dir, { recursive: true });
        await writeFile(tmp, JSON.stringify({ ...report, cached: false }));
        await rename(tmp, target);
      } catch (err) {
        // A cache that cannot be written (a read-only or full disk) only costs time the next run.
        if (!fsFault(err)) throw err;
        await rm(tmp, { force: true }).catch(() => undefined);
      }
    },
  };
}

/** No caching (`--no-cache`). */
export const noCache: RehearsalCache = {
  get: async () => undefined,
  set: async () => {},
};
