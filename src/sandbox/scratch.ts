/**
 * An owned scratch root: one folder per process for everything a run of untrusted code leaves
 * on the host (work directories with copies of the hidden tests, the interpreter shim, the
 * self-test's folders). It carries a marker with the owner's pid; it is removed when its owner
 * disposes of it, exits, or gets SIGINT or SIGTERM; and a later owner removes the roots whose
 * owner died without a chance to (SIGKILL, a crash of the machine).
 */
import { rmSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The marker file in a scratch root: `{"pid": N, "uid": N}` of its owner. */
export const SCRATCH_MARKER = '.packet-kit-owner';
/** The default name prefix of a scratch root. */
export const SCRATCH_PREFIX = 'packet-kit-scratch-';

/** A scratch root and how to remove it. */
export interface ScratchRoot {
  /** Absolute path; mode 0711 (others may pass through to what is made readable inside, not list it). */
  dir: string;
  /** Removes it and forgets it; safe to call twice. */
  dispose(): Promise<void>;
}

/** Where and for whom. */
export interface ScratchOptions {
  /** The folder to make the root in, e.g. `os.tmpdir()`. */
  parent: string;
  /** Name prefix; default `SCRATCH_PREFIX`. Stale roots are looked for under the same prefix. */
  prefix?: string;
}

const live = new Set<string>();
const signals = ['SIGINT', 'SIGTERM'] as const;
let installed = false;

function removeLiveSync(): void {
  for (const dir of live) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Gone or busy: the next owner's stale sweep takes it.
    }
  }
  live.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  removeLiveSync();
  // Alone on this signal: do what it would have done without us. Otherwise whoever else
  // listens (a build stopping gracefully) decides how the process ends. This listener runs
  // first (it is prepended), so a `once` listener of someone else still counts here.
  if (process.listenerCount(signal) === 1) {
    uninstall();
    process.kill(process.pid, signal);
  }
}

function install(): void {
  if (installed) return;
  installed = true;
  for (const signal of signals) process.prependListener(signal, onSignal);
  process.on('exit', removeLiveSync);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  for (const signal of signals) process.removeListener(signal, onSignal);
  process.removeListener('exit', removeLiveSync);
}

/** True while a process with this id exists (EPERM: it exists, owned by someone else). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The owner pid a root's marker names, if the root and the marker are this user's. */
function ownerOf(markerText: string, dirUid: number): number | null {
  try {
    const marker = JSON.parse(markerText) as { pid?: unknown; uid?: unknown };
    const uid = process.getuid?.() ?? -1;
    if (typeof marker.pid !== 'number' || marker.uid !== uid || dirUid !== uid) return null;
    return marker.pid;
  } catch {
    return null;
  }
}

/**
 * Removes the scratch roots under `parent` (with `prefix`) whose marker names a process that
 * is gone and this user; returns their paths. Roots without a marker, of another user, or of
 * a live process are left alone.
 */
export async function removeStaleScratch(parent: string, prefix = SCRATCH_PREFIX): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(parent)).filter((name) => name.startsWith(prefix));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const dir = join(parent, name);
    try {
      const pid = ownerOf(await readFile(join(dir, SCRATCH_MARKER), 'utf8'), (await stat(dir)).uid);
      if (pid === null || pid === process.pid || pidAlive(pid)) continue;
      await rm(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // No marker, or it went away meanwhile.
    }
  }
  return removed;
}

/**
 * Sweeps stale roots, then makes a new one owned by this process and removed on dispose, on
 * exit, and on SIGINT or SIGTERM (after which the signal ends the process as it would have,
 * unless something else listens for it).
 */
export async function createScratchRoot(options: ScratchOptions): Promise<ScratchRoot> {
  const prefix = options.prefix ?? SCRATCH_PREFIX;
  await removeStaleScratch(options.parent, prefix);
  const dir = await mkdtemp(join(options.parent, prefix));
  try {
    await chmod(dir, 0o711);
    await writeFile(join(dir, SCRATCH_MARKER), `${JSON.stringify({ pid: process.pid, uid: process.getuid?.() ?? -1 })}\n`);
  } catch (err) {
    // A disk that is full as the marker is written: no root without its marker is left behind.
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
  live.add(dir);
  install();
  return {
    dir,
    async dispose() {
      live.delete(dir);
      if (live.size === 0) uninstall();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
