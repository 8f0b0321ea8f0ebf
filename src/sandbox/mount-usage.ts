/**
 * How full the sandbox's capped tmpfs mounts are, measured by the kit from the host: the mounts
 * live in the run's own mount namespace, which the host reaches through `/proc/<pid>/root` of
 * any process inside while it lives. The wrapper shell asks for the measure after a failed
 * command and waits for it (see `limitsWrapperScript`), so the mounts are still there. Nothing
 * the command wrote or printed enters the measure: `statfs` is the kernel's count of free blocks.
 */
import { readdirSync, readFileSync, readlinkSync, statfsSync } from 'node:fs';
import { ROOM_BYTES } from './limits.ts';

/** The processes below `pid` that have no child (read from `<proc>/<pid>/task/<tid>/children`), deepest first. */
export function leafDescendants(pid: number, proc = '/proc'): number[] {
  const leaves: { pid: number; depth: number }[] = [];
  const seen = new Set<number>();
  const walk = (at: number, depth: number): void => {
    if (seen.has(at) || seen.size > 4096) return;
    seen.add(at);
    const kids = childrenOf(at, proc);
    if (kids.length === 0 && depth > 0) leaves.push({ pid: at, depth });
    for (const kid of kids) walk(kid, depth + 1);
  };
  walk(pid, 0);
  return leaves.sort((a, b) => b.depth - a.depth || a.pid - b.pid).map((leaf) => leaf.pid);
}

function childrenOf(pid: number, proc: string): number[] {
  const out: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`${proc}/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    try {
      for (const word of readFileSync(`${proc}/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/)) {
        if (/^\d+$/.test(word)) out.push(Number(word));
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** What one measure found. */
export interface MountMeasure {
  /** The capped mounts with less than `ROOM_BYTES` free, as the run sees their paths. */
  full: string[];
  /** Set when no process inside could be reached: why (then `full` is empty and proves nothing). */
  unmeasured?: string;
}

/**
 * Measures the capped mounts of the run under `pid` (the process the kit started): through a
 * leaf process of its tree that is in another mount namespace than `pid` itself and than this
 * process (so a host path is never measured by mistake).
 */
export function measureMounts(pid: number, mounts: readonly string[], proc = '/proc'): MountMeasure {
  const outer = new Set([nsOf('self', proc), nsOf(String(pid), proc)]);
  for (const leaf of leafDescendants(pid, proc)) {
    const ns = nsOf(String(leaf), proc);
    if (ns === null || outer.has(ns)) continue;
    const full: string[] = [];
    let reached = true;
    for (const mount of mounts) {
      try {
        const fs = statfsSync(`${proc}/${leaf}/root${mount}`);
        if (Number(fs.bavail) * Number(fs.bsize) < ROOM_BYTES) full.push(mount);
      } catch {
        reached = false;
        break;
      }
    }
    if (reached && nsOf(String(leaf), proc) === ns) return { full };
  }
  return { full: [], unmeasured: 'no process of the run could be reached through /proc to measure its mounts' };
}

function nsOf(pid: string, proc: string): string | null {
  try {
    return readlinkSync(`${proc}/${pid}/ns/mnt`);
  } catch {
    return null;
  }
}
