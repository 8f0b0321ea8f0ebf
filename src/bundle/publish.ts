import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
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

/** The steps of a publish, in order, as {@link PublishHooks.beforeStep} names them. */
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
 * A rename that fails (a full disk, a permission) is undone at once and thrown.
 */
export function publish(targets: readonly PublishTarget[], tag: string, hooks: PublishHooks = {}): void {
  if (!targets.length) return;
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
  journal.targets.forEach((t, i) => {
    step(`clean:${i}`);
    rmSync(t.old, { recursive: true, force: true });
  });
  step('done');
  unlinkSync(file);
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
 * line saying what was done, or undefined when there was nothing to do. A journal of a process
 * still running is left alone (another build is publishing).
 */
export function recoverPublish(target: string): string | undefined {
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
  if (journal.pid !== process.pid && pidAlive(journal.pid)) return undefined;
  const committed = journal.targets.every((t) => !existsSync(t.staging));
  if (committed) {
    for (const t of journal.targets) rmSync(t.old, { recursive: true, force: true });
  } else {
    rollBack(journal);
  }
  unlinkSync(file);
  const names = journal.targets.map((t) => path.basename(t.target)).join(' and ');
  return committed
    ? `finished an interrupted publish: the new ${names} were complete`
    : `undid an interrupted publish: the previous ${names} are back`;
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
  const pattern = new RegExp(`^\\.${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(staging|old|search)-(\\d+)$`);
  for (const name of names.sort()) {
    const m = pattern.exec(name);
    if (!m || pidAlive(Number(m[2]))) continue;
    const abs = path.join(dir, name);
    if (m[1] === 'old' && !existsSync(target)) {
      renameSync(abs, target);
      done.push(`restored ${name} as ${base}`);
    } else {
      rmSync(abs, { recursive: true, force: true });
      done.push(`removed ${name}`);
    }
  }
  return done;
}
