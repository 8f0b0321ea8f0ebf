/**
 * How bubblewrap fills the size-capped `/workspace` from the host work directory: while it
 * sets the sandbox up, from files the kit opened and hands over as descriptors (`--file`),
 * so the sandbox's unprivileged uid needs no access to the host directory, no copy process
 * runs, and nothing of the host directory is mounted. Protected paths come the same way, then
 * read-only: a file as a read-only bind of its copy (`--ro-bind-data`), a folder as its own
 * small tmpfs remounted read-only once filled.
 */
import { closeSync, constants, lstatSync, openSync, readdirSync, readlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/** More entries than this and the run is refused: every file is a descriptor and a few arguments. */
export const MAX_WORKSPACE_ENTRIES = 4096;

const PAGE = 4096;

/** The bwrap operations that fill the workspace, and the descriptors they read. */
export interface WorkspaceCopy {
  /** bwrap arguments, in order, after the workspace tmpfs is mounted. */
  args: string[];
  /** Host descriptors to hand over, in order: the first one goes to the child's `firstFd`, and so on. */
  fds: number[];
  /** What the writable part occupies in the tmpfs (each file rounded up to whole pages). */
  writableBytes: number;
  /** Close the host descriptors. */
  close(): void;
}

/**
 * Plans the copy of `workdir` into `mount`, with `readOnly` (relative paths, already checked)
 * read-only. Descriptors are numbered from `firstFd` in the child. Returns an error message for
 * an entry that cannot be copied (a FIFO, a socket, a device), or for too many entries.
 */
export function planWorkspaceCopy(workdir: string, readOnly: readonly string[], mount: string, firstFd: number): WorkspaceCopy | string {
  const fds: number[] = [];
  const close = () => {
    for (const fd of fds.splice(0)) {
      try {
        closeSync(fd);
      } catch {
        // Already closed.
      }
    }
  };
  const protectedRoots = outermost(readOnly);
  const isProtected = (rel: string) => protectedRoots.some((p) => rel === p || rel.startsWith(`${p}/`));
  const args: string[] = [];
  let writableBytes = 0;
  let entries = 0;

  const mode = (st: Stats) => (st.mode & 0o777).toString(8).padStart(4, '0');
  const openFile = (abs: string): number => {
    const fd = openSync(abs, constants.O_RDONLY | constants.O_NOFOLLOW);
    fds.push(fd);
    return firstFd + fds.length - 1;
  };
  /** Adds the ops for one entry (not a protected root); returns an error message or null. */
  const copyEntry = (rel: string, st: Stats): string | null => {
    entries += 1;
    if (entries > MAX_WORKSPACE_ENTRIES) return `the work directory holds more than ${MAX_WORKSPACE_ENTRIES} files and folders, more than the sandbox copies`;
    const abs = join(workdir, rel);
    const dest = `${mount}/${rel}`;
    if (st.isDirectory()) args.push('--perms', mode(st), '--dir', dest);
    else if (st.isFile()) {
      args.push('--perms', mode(st), '--file', String(openFile(abs)), dest);
      return null;
    } else if (st.isSymbolicLink()) args.push('--symlink', readlinkSync(abs), dest);
    else return `the work directory holds ${rel}, which is neither a file, a folder nor a symlink`;
    return null;
  };
  /** Every entry under `rel` (a folder), parents first, sorted; stops at protected roots when `skipProtected`. */
  const walk = (rel: string, skipProtected: boolean, visit: (rel: string, st: Stats) => string | null): string | null => {
    const names = readdirSync(join(workdir, rel)).sort();
    for (const name of names) {
      const child = rel ? `${rel}/${name}` : name;
      if (skipProtected && isProtected(child)) continue;
      const st = lstatSync(join(workdir, child));
      const problem = visit(child, st);
      if (problem) return problem;
      if (st.isDirectory()) {
        const inner = walk(child, skipProtected, visit);
        if (inner) return inner;
      }
    }
    return null;
  };

  try {
    const problem = walk('', true, (rel, st) => {
      if (st.isFile()) writableBytes += Math.ceil(st.size / PAGE) * PAGE;
      return copyEntry(rel, st);
    });
    if (problem) {
      close();
      return problem;
    }
    for (const rel of protectedRoots) {
      const abs = join(workdir, rel);
      const st = lstatSync(abs);
      const dest = `${mount}/${rel}`;
      if (st.isFile()) {
        entries += 1;
        args.push('--perms', mode(st), '--ro-bind-data', String(openFile(abs)), dest);
        continue;
      }
      // A folder: its own tmpfs, filled, then read-only. Sized to what it holds, plus room for the folders.
      let bytes = 0;
      const inner: string[] = [];
      const before = args.length;
      const problem = walk(rel, false, (child, cst) => {
        if (cst.isFile()) bytes += Math.ceil(cst.size / PAGE) * PAGE;
        inner.push(child);
        return copyEntry(child, cst);
      });
      if (problem) {
        close();
        return problem;
      }
      const filled = args.splice(before);
      args.push('--perms', mode(st), '--size', String(bytes + 256 * 1024), '--tmpfs', dest, ...filled, '--remount-ro', dest);
    }
  } catch (error) {
    close();
    return `the work directory could not be read: ${(error as Error).message}`;
  }
  return { args, fds, writableBytes, close };
}

/** Drops every path that lies inside another one in the list; sorted. */
function outermost(paths: readonly string[]): string[] {
  const sorted = [...new Set(paths)].sort();
  return sorted.filter((p) => !sorted.some((q) => q !== p && p.startsWith(`${q}/`)));
}
