import { closeSync, existsSync, fsyncSync, linkSync, openSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { fsFault } from '../errors/fs-fault.ts';
import path from 'node:path';
import { pidAlive } from './pid-alive.ts';

/**
 * Publishing a build: the site (`dist/`) and the reviewer bundles (`out/reviewer/`) are replaced
 * as a pair, all or nothing. Two folders cannot be swapped by one rename, so the swap is
 * journaled: before the first rename a journal beside the site names every folder involved, and
 * from it any state a kill can leave is finished or undone by {@link recoverPublish}, which every
 * build runs before it starts.
 *
 * The renames, per target: the target aside to `.<name>-old-<tag>`, then the staging folder in.
 * A staging folder disappears only by being renamed in, so the journal needs no second write:
 * once every staging folder is gone the new pair is complete (commit), and recovery finishes by
 * removing the old folders; before that, recovery undoes the renames and the previous pair is
 * back. Nothing of either pair is deleted before the commit.
 *
 * One publish at a time: a publish (and a recovery) first takes a lock beside the site, a file
 * created exclusively (by a link) that holds the owner's process id. A second build that finds
 * it held by a live process is refused ({@link PublishBusyError}) before it touches anything, so
 * two swaps never interleave and no journal is overwritten by another build's. A lock whose
 * process is gone is stale: its journal is resolved first, then the lock is taken over.
 */

/** The work folders beside a target: `.dist-staging-<tag>` (the new folder), `.dist-old-<tag>` (the previous one, set aside), `.dist-search-<tag>` (the search index being made). */
export function siblingNames(target: string, tag: string): { staging: string; old: string; search: string } {
  const dir = path.dirname(target);
  const base = path.basename(target);
  return { staging: path.join(dir, `.${base}-staging-${tag}`), old: path.join(dir, `.${base}-old-${tag}`), search: path.join(dir, `.${base}-search-${tag}`) };
}

/** The journal of a publish whose first target is `target`: `.<name>-publish.json` beside it. */
export function journalPath(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}-publish.json`);
}

/** The lock of the publishes into `target`: `.<name>-publish.lock` beside it, holding the owner's process id. */
export function lockPath(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}-publish.lock`);
}

/** A publish refused because another live process holds the lock. */
export class PublishBusyError extends Error {
  readonly pid: number;
  readonly target: string;
  constructor(target: string, pid: number) {
    super(`${path.basename(target)} is being published by process ${pid}`);
    this.name = 'PublishBusyError';
    this.pid = pid;
    this.target = target;
  }
}

/** A lock file's text, or undefined when there is none. */
function lockText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The pid a lock's text names, or undefined when it names none (not a lock the kit wrote). */
function ownerOf(text: string | undefined): number | undefined {
  const pid = Number(text?.trim());
  return text !== undefined && Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * Take the publish lock of `target`: a release function, or the pid of the live process that
 * holds it. The lock appears whole or not at all: its pid is written to a file of this process's
 * own, which is then linked to the lock's name (a link, like an O_EXCL create, fails when the
 * name exists), so no lock is ever seen empty. This process holding it already counts as held
 * (publishes do not nest). A stale lock (its process gone, or a file that names none) is moved
 * aside under a name of this process's and checked to be the one read, so two processes taking
 * over the same stale lock cannot both win.
 */
function takeLock(target: string): { release(): void } | { owner: number } {
  const file = lockPath(target);
  const mine = `${file}.${process.pid}.new`;
  writeDurably(mine, `${process.pid}\n`);
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(mine, file);
        syncDir(path.dirname(file));
        return {
          release() {
            if (ownerOf(lockText(file)) === process.pid) unlinkSync(file);
          },
        };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const text = lockText(file);
      if (text === undefined) continue; // released meanwhile: try again
      const owner = ownerOf(text);
      if (owner !== undefined && (owner === process.pid || pidAlive(owner))) return { owner };
      const aside = `${file}.${process.pid}.stale`;
      try {
        renameSync(file, aside);
      } catch {
        continue; // another process took it over first; look again
      }
      if (lockText(aside) !== text) {
        // Not the stale lock read a moment ago: a live one, taken meanwhile; put it back.
        try {
          renameSync(aside, file);
        } catch {
          // Its owner's release already ran; nothing to put back.
        }
        continue;
      }
      unlinkSync(aside);
    }
    return { owner: ownerOf(lockText(file)) ?? 0 };
  } finally {
    rmSync(mine, { force: true });
  }
}

/** One folder a publish replaces. */
export interface PublishTarget {
  /** The folder to replace, absolute. */
  target: string;
  /** The complete new folder, beside it, absolute. */
  staging: string;
}

/** The journal's content. */
interface Journal {
  schemaVersion: 1;
  /** The publishing process. */
  pid: number;
  targets: { target: string; staging: string; old: string; hadOld: boolean }[];
}

/** The steps of a publish, in order, as {@link PublishHooks.beforeStep} names them (the lock is taken before the first). */
export type PublishStep = `journal` | `aside:${number}` | `in:${number}` | `commit` | `clean:${number}` | `done`;

/** Observes a publish; tests use it to kill the process before a step. */
export interface PublishHooks {
  /** Called before each step, synchronously. */
  beforeStep?(step: PublishStep): void;
}

/** fsync a folder, so the renames in it survive a power cut; ignored where folders cannot be opened. */
function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not every platform lets a folder be opened for fsync.
  }
}

/** Write a file so that it is either absent or complete, on disk, even across a power cut. */
function writeDurably(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  syncDir(path.dirname(file));
}

/**
 * Replace every target by its staging folder, as one publish. Synchronous, so no signal handler
 * runs in between; a kill (SIGKILL, power loss) at any point is resolved by {@link recoverPublish}.
 * Takes the lock first: held by another live process, nothing is touched and
 * {@link PublishBusyError} is thrown; left by a dead one, its interrupted publish is resolved first.
 * A rename that fails (a full disk, a permission) is undone at once and thrown. Returns what could
 * not be cleaned up after the commit (an old folder that cannot be removed), in words: the new
 * pair is in place all the same.
 */
export function publish(targets: readonly PublishTarget[], tag: string, hooks: PublishHooks = {}): string[] {
  if (!targets.length) return [];
  const lock = takeLock(targets[0]!.target);
  if ('owner' in lock) throw new PublishBusyError(targets[0]!.target, lock.owner);
  try {
    recoverJournal(targets[0]!.target);
    return publishLocked(targets, tag, hooks);
  } finally {
    lock.release();
  }
}

function publishLocked(targets: readonly PublishTarget[], tag: string, hooks: PublishHooks): string[] {
  const step = (s: PublishStep) => hooks.beforeStep?.(s);
  const journal: Journal = {
    schemaVersion: 1,
    pid: process.pid,
    targets: targets.map((t) => ({ target: t.target, staging: t.staging, old: siblingNames(t.target, tag).old, hadOld: existsSync(t.target) })),
  };
  const file = journalPath(targets[0]!.target);
  step('journal');
  writeDurably(file, `${JSON.stringify(journal, null, 2)}\n`);
  try {
    journal.targets.forEach((t, i) => {
      step(`aside:${i}`);
      if (t.hadOld) renameSync(t.target, t.old);
      step(`in:${i}`);
      renameSync(t.staging, t.target);
    });
  } catch (err) {
    rollBack(journal);
    unlinkSync(file);
    throw err;
  }
  step('commit');
  for (const t of journal.targets) syncDir(path.dirname(t.target));
  const left: string[] = [];
  journal.targets.forEach((t, i) => {
    step(`clean:${i}`);
    const why = removeFolder(t.old);
    if (why) left.push(why);
  });
  step('done');
  unlinkSync(file);
  return left;
}

/** Remove a folder; a file system fault (a read-only old site) is said in words rather than thrown: what it leaves is only an old copy. */
function removeFolder(dir: string): string | undefined {
  try {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  } catch (err) {
    const fault = fsFault(err);
    if (!fault) throw err;
    return `could not remove ${path.basename(dir)} (${fault.reason}${fault.path && fault.path !== dir ? ` at ${fault.path}` : ''}): remove it by hand; the next build tries again`;
  }
}

/** Put the previous folders back: each new folder out (to its staging name), each old one in. */
function rollBack(journal: Journal): void {
  for (const t of [...journal.targets].reverse()) {
    if (!existsSync(t.staging) && existsSync(t.target)) renameSync(t.target, t.staging);
    if (existsSync(t.old)) renameSync(t.old, t.target);
  }
  for (const t of journal.targets) rmSync(t.staging, { recursive: true, force: true });
}

/**
 * Resolve a publish that was interrupted (the process killed, the machine stopped) between its
 * journal and its end: finish it when every new folder is in place, undo it otherwise. Returns a
 * line saying what was done, or undefined when there was nothing to do. Taken under the publish
 * lock: a lock or a journal of a process still running is left alone (another build is publishing).
 */
export function recoverPublish(target: string): string | undefined {
  let lock: ReturnType<typeof takeLock>;
  try {
    lock = takeLock(target);
  } catch {
    return undefined; // no lock can be written beside the target: nothing was ever published there
  }
  if ('owner' in lock) return undefined;
  try {
    return recoverJournal(target);
  } finally {
    lock.release();
  }
}

/** {@link recoverPublish} with the lock held. */
function recoverJournal(target: string): string | undefined {
  const file = journalPath(target);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  let journal: Journal;
  try {
    journal = JSON.parse(text) as Journal;
    if (journal.schemaVersion !== 1 || !Array.isArray(journal.targets)) throw new Error('not a publish journal');
  } catch {
    // Written durably, so never half a journal; something else wrote this file.
    return `left ${path.basename(file)} alone: it is not a publish journal`;
  }
  // A journal without a lock's protection (written by an older kit) of a process still running.
  if (journal.pid !== process.pid && pidAlive(journal.pid)) return undefined;
  const committed = journal.targets.every((t) => !existsSync(t.staging));
  const left: string[] = [];
  if (committed) {
    for (const t of journal.targets) {
      const why = removeFolder(t.old);
      if (why) left.push(why);
    }
  } else {
    rollBack(journal);
  }
  unlinkSync(file);
  const names = journal.targets.map((t) => path.basename(t.target)).join(' and ');
  const line = committed
    ? `finished an interrupted publish: the new ${names} were complete`
    : `undid an interrupted publish: the previous ${names} are back`;
  return [line, ...left].join('; ');
}

/**
 * Clean up after a build that was killed before it published: remove its staging and search folders. An
 * aside folder without a journal (left by a kill during an older kit's swap) is put back when
 * the target is missing, removed otherwise. Folders of processes still running are left alone.
 */
export function recoverStale(target: string): string[] {
  const dir = path.dirname(target);
  const base = path.basename(target);
  const done: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return done;
  }
  const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // The work folders, and the files a lock is taken through (`.dist-publish.lock.<pid>.new`, `.stale`).
  const pattern = new RegExp(`^\\.${escaped}-(?:(staging|old|search)-(\\d+)|publish\\.lock\\.(\\d+)\\.(?:new|stale))$`);
  for (const name of names.sort()) {
    const m = pattern.exec(name);
    if (!m || pidAlive(Number(m[2] ?? m[3]))) continue;
    const abs = path.join(dir, name);
    if (m[1] === 'old' && !existsSync(target)) {
      renameSync(abs, target);
      done.push(`restored ${name} as ${base}`);
    } else {
      done.push(removeFolder(abs) ?? `removed ${name}`);
    }
  }
  return done;
}
