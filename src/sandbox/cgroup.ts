/**
 * A cgroup v2 per run, where the machine delegates one: the run's processes together are capped
 * (memory.max, pids.max) and the kernel counts what it did at the caps (memory.events' oom_kill,
 * pids.events' max). The rlimits stay in force either way; without delegation they are all there
 * is, and `detectCgroupDelegation` says why in a sentence.
 *
 * Delegation, as read here: this process's cgroup v2 path (the `0::` line of /proc/self/cgroup)
 * under a cgroup2 mount (/proc/self/mountinfo) that is mounted read-write, whose folder this
 * process may write, whose `cgroup.controllers` offers `memory` and `pids`, and whose
 * `cgroup.subtree_control` enables both for children, or can (the folder holds no process, or
 * is the hierarchy's root: a cgroup with processes of its own cannot enable controllers for
 * children). Every path is read under `root`, so tests pass a fake /proc and /sys.
 */
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where run cgroups can be made, or why not. */
export type CgroupDelegation =
  | {
      available: true;
      /** The folder (under `root`) whose children the runs get. */
      dir: string;
      /** `cgroup.subtree_control` must first be given `+memory +pids` (done by `prepareCgroupParent`). */
      enable: boolean;
    }
  | { available: false; reason: string };

const NEEDED = ['memory', 'pids'] as const;

/** Reads whether this process may give each run its own cgroup v2 with memory and pids caps. */
export function detectCgroupDelegation(root = '/'): CgroupDelegation {
  const no = (reason: string): CgroupDelegation => ({ available: false, reason });
  const own = readText(join(root, 'proc/self/cgroup'));
  if (own === null) return no('/proc/self/cgroup cannot be read');
  const path = own.split('\n').find((line) => line.startsWith('0::'))?.slice(3).trim();
  if (path === undefined) return no('this process is in no cgroup v2 hierarchy (/proc/self/cgroup has no 0:: line: cgroup v1 only)');
  const mounts = (readText(join(root, 'proc/self/mountinfo')) ?? '').split('\n').map(parseMountLine).filter((m) => m?.type === 'cgroup2');
  const mount = mounts.find((m) => m!.root === '/' || path === m!.root || path.startsWith(`${m!.root}/`));
  if (!mount) return no('no cgroup v2 hierarchy is mounted');
  const below = mount.root === '/' ? path : path.slice(mount.root.length);
  const dir = join(root, mount.point, below);
  const shown = join(mount.point, below).replace(/(.)\/$/, '$1');
  const controllers = words(readText(join(dir, 'cgroup.controllers')));
  const missing = NEEDED.filter((c) => !controllers.includes(c));
  if (missing.length > 0) {
    return no(
      `the cgroup v2 hierarchy at ${mount.point} offers ${controllers.length ? controllers.join(', ') : 'no controller'} to ${shown}, not ${missing.join(' and ')}` +
        (mount.point !== '/sys/fs/cgroup' ? ' (a hybrid hierarchy: they are bound to cgroup v1)' : ''),
    );
  }
  if (mount.options.includes('ro')) return no(`the cgroup v2 hierarchy at ${mount.point} is mounted read-only`);
  if (!writable(dir) || !writable(join(dir, 'cgroup.subtree_control'))) return no(`${shown} is not writable by this process (no delegated subtree)`);
  const enabled = words(readText(join(dir, 'cgroup.subtree_control')));
  if (NEEDED.every((c) => enabled.includes(c))) return { available: true, dir, enable: false };
  const isRoot = !existsSync(join(dir, 'cgroup.type'));
  const busy = words(readText(join(dir, 'cgroup.procs'))).length > 0;
  if (busy && !isRoot) {
    return no(`${shown} holds processes, so it cannot enable memory and pids for child cgroups; start the kit in a delegated cgroup whose cgroup.subtree_control has them (e.g. systemd-run --user --scope -p Delegate=yes)`);
  }
  return { available: true, dir, enable: true };
}

/** The caps of one run's cgroup. */
export interface CgroupCaps {
  memoryBytes: number;
  pids: number;
}

/** What the kernel counted in a run's cgroup. */
export interface CgroupEvents {
  /** Processes the OOM killer ended at memory.max. */
  oomKills: number;
  /** Forks refused at pids.max. */
  pidsRefused: number;
}

/** One run's cgroup. */
export interface RunCgroup {
  readonly dir: string;
  /** Moves a process (and so everything it starts afterwards) into the cgroup; an error message, or null. */
  join(pid: number): string | null;
  /** What the kernel counted so far. */
  events(): CgroupEvents;
  /** Kills every process left in it and removes it (after the processes are gone); never throws. */
  close(): Promise<void>;
}

/** Enables memory and pids for the children of a delegated folder, once; an error message, or null. */
export function prepareCgroupParent(delegation: Extract<CgroupDelegation, { available: true }>): string | null {
  if (!delegation.enable) return null;
  try {
    writeFileSync(join(delegation.dir, 'cgroup.subtree_control'), NEEDED.map((c) => `+${c}`).join(' '));
    return null;
  } catch (error) {
    return `could not enable memory and pids in ${delegation.dir}/cgroup.subtree_control: ${(error as Error).message}`;
  }
}

/**
 * Makes `<parent>/<name>` with its caps: memory.max, memory.swap.max 0 (where the kernel has
 * swap accounting), pids.max. Returns an error message when any cannot be set: the run is then
 * not started, since its caps would not hold.
 */
export function createRunCgroup(parent: string, name: string, caps: CgroupCaps): RunCgroup | string {
  const dir = join(parent, name);
  try {
    mkdirSync(dir);
  } catch (error) {
    return `could not make the run's cgroup ${dir}: ${(error as Error).message}`;
  }
  const cgroup: RunCgroup = {
    dir,
    join(pid) {
      try {
        writeFileSync(join(dir, 'cgroup.procs'), String(pid));
        return null;
      } catch (error) {
        return `could not move the run into its cgroup ${dir}: ${(error as Error).message}`;
      }
    },
    events() {
      return {
        oomKills: eventCount(readText(join(dir, 'memory.events')), 'oom_kill'),
        pidsRefused: eventCount(readText(join(dir, 'pids.events')), 'max'),
      };
    },
    async close() {
      try {
        writeFileSync(join(dir, 'cgroup.kill'), '1');
      } catch {
        // Before Linux 5.14, or already empty: the process group was killed anyway.
      }
      for (let attempt = 0; attempt < 50; attempt += 1) {
        try {
          rmdirSync(dir);
          return;
        } catch (error) {
          // EBUSY while the killed processes are still exiting; anything else will not pass.
          if ((error as NodeJS.ErrnoException).code !== 'EBUSY') return;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    },
  };
  const settings: [string, string, boolean][] = [
    ['memory.max', String(caps.memoryBytes), true],
    ['memory.swap.max', '0', false],
    ['pids.max', String(caps.pids), true],
  ];
  for (const [file, value, required] of settings) {
    if (!required && !existsSync(join(dir, file))) continue;
    try {
      writeFileSync(join(dir, file), value);
    } catch (error) {
      void cgroup.close();
      return `could not set ${file} of the run's cgroup ${dir} to ${value}: ${(error as Error).message}`;
    }
  }
  return cgroup;
}

/** The count after `key` in a flat-keyed cgroup file (`oom_kill 2`), 0 when absent. */
export function eventCount(text: string | null, key: string): number {
  const line = (text ?? '').split('\n').find((l) => l.startsWith(`${key} `));
  const n = Number(line?.slice(key.length + 1).trim());
  return Number.isInteger(n) && n > 0 ? n : 0;
}

interface MountLine {
  root: string;
  point: string;
  options: string[];
  type: string;
}

/** One line of /proc/self/mountinfo: `id parent dev root point options [optional...] - type source super`. */
function parseMountLine(line: string): MountLine | null {
  const fields = line.trim().split(' ');
  const dash = fields.indexOf('-');
  if (dash < 6 || fields.length < dash + 2) return null;
  const unescape = (s: string) => s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
  return { root: unescape(fields[3]!), point: unescape(fields[4]!), options: fields[5]!.split(','), type: fields[dash + 1]! };
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function words(text: string | null): string[] {
  return (text ?? '').split(/\s+/).filter(Boolean);
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
