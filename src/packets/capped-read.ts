import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * Reading a packet's files with the size checked first: a file is opened without following a
 * link and without blocking on a pipe, its size read from the open file (fstat) before a byte
 * is, and never more than the cap is read, so a sparse 3 GiB file or a file swapped for a FIFO
 * costs nothing.
 */

/** How a file is opened: read-only, never through a link, never waiting on a pipe or device. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

const CHUNK = 1024 * 1024;

/** What reading a file gave: its bytes (when kept), size and sha256; or why it was not read. */
export type ReadOutcome =
  | { ok: true; size: number; sha256: string; bytes?: Uint8Array }
  | { ok: false; why: 'not-a-file' }
  | { ok: false; why: 'too-large'; size: number };

/**
 * Hash a regular file of at most `max` bytes in chunks; its bytes are kept when it is at most
 * `keep` bytes. A file over `max` (by fstat, or grown while read) is not read past the cap.
 * Errors of the filesystem (gone, no permission, a link) are thrown.
 */
export async function readFileCapped(file: string, max: number, keep = 0): Promise<ReadOutcome> {
  const fh = await open(file, OPEN_FLAGS);
  try {
    const st = await fh.stat();
    if (!st.isFile()) return { ok: false, why: 'not-a-file' };
    if (st.size > max) return { ok: false, why: 'too-large', size: st.size };
    const hash = createHash('sha256');
    const kept: Buffer[] = [];
    const buf = Buffer.allocUnsafe(Math.min(CHUNK, st.size + 1));
    let size = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (!bytesRead) break;
      size += bytesRead;
      if (size > max) return { ok: false, why: 'too-large', size };
      const chunk = buf.subarray(0, bytesRead);
      hash.update(chunk);
      if (size <= keep) kept.push(Buffer.from(chunk));
    }
    return { ok: true, size, sha256: hash.digest('hex'), ...(size <= keep ? { bytes: new Uint8Array(Buffer.concat(kept)) } : {}) };
  } finally {
    await fh.close();
  }
}

/** The bytes of a regular file of at most `max` bytes, read synchronously; undefined when it is not one, is larger, or cannot be read. */
export function readBytesCappedSync(file: string, max: number): Uint8Array | undefined {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > max) return undefined;
    const out = Buffer.allocUnsafe(st.size + 1);
    let size = 0;
    for (;;) {
      const n = readSync(fd, out, size, out.length - size, null);
      if (!n) break;
      size += n;
      if (size > st.size) return undefined; // grew while read
    }
    return new Uint8Array(out.buffer, out.byteOffset, size);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The bytes of a regular file of at most `max` bytes; undefined when it is not one, is larger, or cannot be read. */
export async function readBytesCapped(file: string, max: number): Promise<Uint8Array | undefined> {
  try {
    const r = await readFileCapped(file, max, max);
    return r.ok ? r.bytes : undefined;
  } catch {
    return undefined;
  }
}
