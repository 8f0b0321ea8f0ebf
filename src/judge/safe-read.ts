/**
 * How the host reads a workspace or a submission folder: only regular files, reached without
 * following a link on the way, opened with O_NOFOLLOW and O_NONBLOCK (a FIFO cannot hang the
 * open), checked again on the open descriptor, read up to a size cap, and given up after a
 * timeout. Anything else comes back as an `UnsafeEntry` naming what it is; nothing is followed.
 */
import { constants } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { UnsafeEntry } from './snapshot.ts';

/** Caps on what the host reads. */
export interface ReadLimits {
  /** Largest file read, in bytes. */
  maxBytes: number;
  /** Milliseconds before a read is given up. */
  timeoutMs: number;
}

/** Default caps: 1 MiB a file, 5 s. */
export const DEFAULT_READ_LIMITS: ReadLimits = { maxBytes: 1024 * 1024, timeoutMs: 5_000 };

function kindOf(st: { isSymbolicLink(): boolean; isFIFO(): boolean; isSocket(): boolean; isBlockDevice(): boolean; isCharacterDevice(): boolean; isDirectory(): boolean }): string {
  if (st.isSymbolicLink()) return 'a symlink';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isBlockDevice() || st.isCharacterDevice()) return 'a device';
  if (st.isDirectory()) return 'a folder';
  return 'not a regular file';
}

async function readBounded(root: string, rel: string, limits: ReadLimits): Promise<Buffer | UnsafeEntry> {
  const parts = rel.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) return { unsafe: 'a path with empty, "." or ".." parts' };
  for (let i = 1; i < parts.length; i++) {
    const st = await lstat(path.join(root, ...parts.slice(0, i))).catch(() => null);
    if (!st) return { unsafe: 'missing' };
    if (!st.isDirectory()) return { unsafe: `under ${kindOf(st)} (${parts.slice(0, i).join('/')})` };
  }
  const file = path.join(root, ...parts);
  const st = await lstat(file).catch(() => null);
  if (!st) return { unsafe: 'missing' };
  if (!st.isFile()) return { unsafe: kindOf(st) };
  if (st.size > limits.maxBytes) return { unsafe: `larger than ${limits.maxBytes} bytes (${st.size})` };
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch((err: NodeJS.ErrnoException) => err);
  if (handle instanceof Error) return { unsafe: handle.code === 'ELOOP' ? 'a symlink' : `unreadable (${handle.code ?? handle.message})` };
  try {
    const fst = await handle.stat();
    if (!fst.isFile() || fst.ino !== st.ino || fst.dev !== st.dev) return { unsafe: 'replaced while it was being read' };
    const buf = Buffer.alloc(Math.min(limits.maxBytes + 1, fst.size + 1));
    let read = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, read, buf.length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
      if (read >= buf.length) break;
    }
    if (read > limits.maxBytes) return { unsafe: `larger than ${limits.maxBytes} bytes` };
    return buf.subarray(0, read);
  } finally {
    await handle.close();
  }
}

/** Read one file of a workspace (`rel` relative to `root`) under the caps. Never follows a link, never hangs. */
export async function readWorkspaceFile(root: string, rel: string, limits: ReadLimits = DEFAULT_READ_LIMITS): Promise<Buffer | UnsafeEntry> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<UnsafeEntry>((resolve) => {
    timer = setTimeout(() => resolve({ unsafe: `not read within ${limits.timeoutMs} ms` }), limits.timeoutMs);
  });
  try {
    return await Promise.race([readBounded(root, rel, limits), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Caps on walking a folder. */
export interface WalkLimits extends ReadLimits {
  /** Most entries listed before the walk stops. */
  maxEntries: number;
}

/**
 * Every entry under `root`, relative and sorted: regular files as their bytes, anything else
 * (links, FIFOs, devices, oversized files) as an `UnsafeEntry`. Folders are walked without
 * following links. Stops with `truncated` past `maxEntries`.
 */
export async function walkFolder(root: string, limits: WalkLimits): Promise<{ files: Map<string, Buffer | UnsafeEntry>; truncated: boolean }> {
  const files = new Map<string, Buffer | UnsafeEntry>();
  let count = 0;
  const visit = async (rel: string): Promise<boolean> => {
    const entries = await readdir(path.join(root, rel), { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const ent of entries) {
      if (++count > limits.maxEntries) return false;
      const child = rel ? `${rel}/${ent.name}` : ent.name;
      if (ent.isDirectory()) {
        if (!(await visit(child))) return false;
      } else if (ent.isFile()) {
        files.set(child, await readWorkspaceFile(root, child, limits));
      } else {
        files.set(child, { unsafe: kindOf({ isSymbolicLink: () => ent.isSymbolicLink(), isFIFO: () => ent.isFIFO(), isSocket: () => ent.isSocket(), isBlockDevice: () => ent.isBlockDevice(), isCharacterDevice: () => ent.isCharacterDevice(), isDirectory: () => false }) });
      }
    }
    return true;
  };
  const complete = await visit('');
  return { files, truncated: !complete };
}
