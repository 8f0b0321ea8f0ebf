/**
 * A file system error that is the world's, not the kit's: a folder that cannot be written, a disk
 * that is full, a folder that vanished while a command wrote into it. Told apart from a bug by
 * its errno, and said in words with the fix, for the catalog entries of each command's output
 * folders (PK318, PK540-PK542, PK490-PK492, PK628, PK629, PK193).
 */

/** What an output folder's fault is, in words: `reason` (what the system said), `fix` (what the user does). */
export interface FsFault {
  /** The errno code, e.g. `ENOSPC`. */
  errno: string;
  /** The path the failing call named, when the error carries one. */
  path: string | undefined;
  /** e.g. "no space left on device (ENOSPC)". */
  reason: string;
  /** The fix, as a sentence without the final stop. */
  fix: string;
}

const FAULTS: Record<string, { reason: string; fix: string }> = {
  EACCES: { reason: 'permission denied', fix: 'give the user running packet-kit write permission on it, or choose another folder' },
  EPERM: { reason: 'operation not permitted', fix: 'give the user running packet-kit write permission on it (or clear an immutable flag), or choose another folder' },
  EROFS: { reason: 'the file system is read-only', fix: 'choose a folder on a writable file system' },
  ENOSPC: { reason: 'no space left on device', fix: 'free space on its disk, or choose a folder on another disk' },
  EDQUOT: { reason: 'the disk quota is exceeded', fix: 'free space within the quota, or choose a folder on another disk' },
  EFBIG: { reason: 'a file is larger than the file system allows', fix: 'choose a folder on another file system' },
  ENOENT: { reason: 'a folder vanished while it was written', fix: 'make sure nothing removes or unmounts it while the command runs, then run it again' },
  ENOTDIR: { reason: 'a file stands where a folder should be', fix: 'move that file away, or choose another folder' },
  EEXIST: { reason: 'a file stands where a folder should be', fix: 'move that file away, or choose another folder' },
  EISDIR: { reason: 'a folder stands where a file should be written', fix: 'move that folder away, or choose another folder' },
  EIO: { reason: 'the disk reported an input/output error', fix: 'check the disk, or choose a folder on another one' },
  ENAMETOOLONG: { reason: 'a path is longer than the file system allows', fix: 'choose a folder with a shorter path' },
  EBUSY: { reason: 'the folder is busy (a mount point, or in use)', fix: 'choose a folder that is not a mount point' },
};

/**
 * The error with the path it was about, when it names none: a write that fails for a full disk
 * (ENOSPC) is a call on an open file, and Node's error carries no path; the writer adds it, so the
 * fault can be told to be in an output folder.
 */
export function atPath(err: unknown, file: string): unknown {
  const e = err as NodeJS.ErrnoException | null;
  if (e && typeof e === 'object' && typeof e.code === 'string' && typeof e.path !== 'string') e.path = file;
  return err;
}

/** The fault an error is, when it is one of a file system's (by errno); undefined for anything else, which stays a bug. */
export function fsFault(err: unknown): FsFault | undefined {
  const e = err as NodeJS.ErrnoException | null;
  // fs.rm names a folder where a file is to be removed ERR_FS_EISDIR, for the errno EISDIR.
  const errno = typeof e?.code === 'string' ? (e.code === 'ERR_FS_EISDIR' ? 'EISDIR' : e.code) : undefined;
  const known = errno ? FAULTS[errno] : undefined;
  if (!errno || !known) return undefined;
  return { errno, path: typeof e?.path === 'string' ? e.path : undefined, reason: `${known.reason} (${errno})`, fix: known.fix };
}
