import { ZipFile } from 'yazl';
import { BundleErrors } from '../errors/bundle-catalog.ts';
import { diagnose } from '../errors/catalog.ts';
import { PacketKitError } from '../errors/packet-kit-error.ts';
import { zipPathProblem } from '../check/file-policy.ts';

/**
 * A deterministic zip: the same list of files gives the same bytes, whatever the clock, the
 * timezone, the umask, the file system's order or the machine.
 *
 * - Entries are sorted by the bytes of their UTF-8 path (never by locale).
 * - Every entry is a regular file; no directory entries (unzip makes the folders).
 * - Every timestamp is the DOS epoch, 1980-01-01 00:00:00. DOS times have no timezone and yazl
 *   fills them from a Date's *local* fields, so the Date is built from local fields too
 *   (`new Date(1980, 0, 1)`): its local reading is 1980-01-01 00:00 in every timezone.
 * - No extra fields (`forceDosTimestamp`: no Info-ZIP "UT" field with a Unix time), no comments.
 * - Every mode is 0644 (`-rw-r--r--`), made by "Unix": the mode never comes from the disk, so a
 *   umask or a checkout's executable bit cannot change the bytes. Packets do not get executable
 *   files: the packet digest does not cover modes, so a zip whose bytes depended on them would no
 *   longer be named by its digest. A starter script runs through its interpreter (`sh run.sh`).
 * - Entries are stored, not deflated. Deflate output depends on the zlib build and on the CPU
 *   features its match finder uses, so a deflated zip's sha256 could differ between two machines
 *   building the same packet; stored bytes depend on the inputs alone. Starter trees are small
 *   text, so the size cost is small.
 */

/** One file of a zip. */
export interface ZipInput {
  /** The entry's path: relative, forward slashes, no `.`/`..` or empty segments. */
  path: string;
  bytes: Uint8Array;
}

/** The mode of every entry: a regular file, `rw-r--r--`. */
export const ZIP_FILE_MODE = 0o100644;

/** The local-time fields of every entry's timestamp: the DOS epoch. */
export const ZIP_TIMESTAMP = { year: 1980, month: 1, day: 1, hours: 0, minutes: 0, seconds: 0 } as const;

/**
 * The Date whose local fields read {@link ZIP_TIMESTAMP} in this process's timezone. yazl turns
 * a Date into DOS date/time with the local getters, so this gives the same DOS fields in any zone.
 */
export function zipTimestamp(): Date {
  const t = ZIP_TIMESTAMP;
  const date = new Date(t.year, t.month - 1, t.day, t.hours, t.minutes, t.seconds);
  if (date.getFullYear() !== t.year || date.getMonth() !== t.month - 1 || date.getDate() !== t.day || date.getHours() !== t.hours || date.getMinutes() !== t.minutes) {
    // A zone that skipped that midnight would shift the DOS time; better to stop than write other bytes.
    throw new Error(`zip timestamp: ${date.toString()} does not read 1980-01-01 00:00 in this timezone`);
  }
  return date;
}

/** Compare two paths by their UTF-8 bytes: the same order on every machine and locale. */
export function comparePaths(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * Write a deterministic zip of in-memory files. Throws a {@link PacketKitError} (PK301..PK303)
 * for a path that is absolute, climbs out with `..`, is malformed or appears twice.
 */
export async function writeZip(files: readonly ZipInput[]): Promise<Uint8Array> {
  const sorted = [...files].sort((a, b) => comparePaths(a.path, b.path));
  for (let i = 0; i < sorted.length; i++) {
    const problem = zipPathProblem(sorted[i]!.path);
    if (problem) throw new PacketKitError(problem);
    if (i > 0 && sorted[i - 1]!.path === sorted[i]!.path) {
      throw new PacketKitError(diagnose(BundleErrors.ZipBadPath, { file: sorted[i]!.path }, { path: sorted[i]!.path, reason: 'appears twice' }));
    }
  }
  const mtime = zipTimestamp();
  const zip = new ZipFile();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve());
    zip.outputStream.on('error', reject);
  });
  for (const f of sorted) {
    zip.addBuffer(Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength), f.path, {
      mtime,
      mode: ZIP_FILE_MODE,
      compress: false,
      forceDosTimestamp: true,
    });
  }
  zip.end();
  await done;
  return new Uint8Array(Buffer.concat(chunks));
}
