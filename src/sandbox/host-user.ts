/**
 * Who the sandbox's processes are on the host. bubblewrap maps the sandbox's uid to the uid
 * that started it; started by root, the "unprivileged" uid inside is root outside: exempt from
 * RLIMIT_NPROC, and with root's file permissions. So when the kit runs as root it starts bwrap
 * as an unprivileged host uid (bwrap then makes an unprivileged user namespace, as it does for
 * a normal user). That uid cannot reach paths under directories only root may enter (an
 * interpreter under /root, say): for those, a bwrap run as root makes a mount namespace in
 * which those directories are replaced by an empty tmpfs holding only the paths the sandbox
 * binds. One such namespace is held open per set of paths by a small root process, and each run
 * enters it with `nsenter`, which drops to the unprivileged uid and starts the real sandbox
 * (one exec more than a direct start). Without `nsenter`, each run makes the namespace itself:
 * a first bwrap, then `setpriv` to drop, then the sandbox.
 */
import { spawn } from 'node:child_process';
import { realpathSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';

/** An unprivileged host uid and gid. */
export interface HostIds {
  uid: number;
  gid: number;
}

/**
 * The host uid and gid bwrap runs as when the kit runs as root: a dedicated pair that no account
 * uses (outside the ranges Debian gives to users and to system accounts), so no other process
 * shares it. Override with `BubblewrapOptions.hostIds`.
 */
export const DEFAULT_HOST_IDS: Readonly<HostIds> = Object.freeze({ uid: 64_533, gid: 64_533 });

/** Whether `ids` (no supplementary groups) may search (enter) the directory `st`. */
function searchable(st: Stats, ids: HostIds): boolean {
  if (st.uid === ids.uid) return (st.mode & 0o100) !== 0;
  if (st.gid === ids.gid) return (st.mode & 0o010) !== 0;
  return (st.mode & 0o001) !== 0;
}

/** The directories from `/` down to the parent of `path`. */
function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    out.unshift(dir);
    if (dir === '/' || dir === '.') break;
  }
  return out;
}

/**
 * For each path `ids` could not reach (some directory on the way to it, or to where its
 * symlinks lead, may not be entered by them), the outermost such directory. Returns the
 * blocked directories, outermost first, each with the paths beneath it (outermost only).
 */
export function blockedPaths(paths: readonly string[], ids: HostIds): Map<string, string[]> {
  const stats = new Map<string, Stats | null>();
  const statOf = (dir: string): Stats | null => {
    if (!stats.has(dir)) {
      try {
        stats.set(dir, statSync(dir));
      } catch {
        stats.set(dir, null);
      }
    }
    return stats.get(dir)!;
  };
  const blocked = new Map<string, Set<string>>();
  for (const path of new Set(paths)) {
    let real = path;
    try {
      real = realpathSync(path);
    } catch {
      // Missing: bwrap will say so.
    }
    for (const candidate of new Set([path, real])) {
      const wall = ancestors(candidate).find((dir) => {
        const st = statOf(dir);
        return st !== null && !searchable(st, ids);
      });
      if (wall === undefined) continue;
      if (!blocked.has(wall)) blocked.set(wall, new Set());
      blocked.get(wall)!.add(candidate);
    }
  }
  // Outermost walls only; a wall inside another is covered by it (its paths move up).
  const walls = [...blocked.keys()].sort();
  const out = new Map<string, string[]>();
  for (const wall of walls) {
    const outer = walls.find((w) => w !== wall && wall.startsWith(`${w}/`));
    const target = outer ?? wall;
    const list = out.get(target) ?? [];
    list.push(...blocked.get(wall)!);
    out.set(target, list);
  }
  for (const [wall, list] of out) {
    const sorted = [...new Set(list)].sort();
    out.set(wall, sorted.filter((p) => !sorted.some((q) => q !== p && p.startsWith(`${q}/`))));
  }
  return out;
}

/**
 * bwrap arguments, run as root, for a view of the host's tree as it is, except each blocked
 * directory, which becomes an empty tmpfs (mode 0755, as are the folders made in it) with only
 * the listed paths bound back.
 */
function reachArgs(blocked: ReadonlyMap<string, readonly string[]>): string[] {
  const args = ['--dev-bind', '/', '/'];
  for (const [wall, paths] of blocked) {
    args.push('--tmpfs', wall);
    // The folders on the way, made explicitly: bwrap would make a bind's parents 0700.
    const made = new Set<string>();
    for (const path of paths) {
      for (const dir of ancestors(path).filter((d) => d.startsWith(`${wall}/`) && !made.has(d))) {
        made.add(dir);
        args.push('--perms', '0755', '--dir', dir);
      }
      args.push('--bind', path, path);
    }
  }
  return [...args, '--die-with-parent', '--chdir', '/'];
}

/**
 * The first bwrap's arguments, up to and including the `setpriv` that drops to `ids`; the real
 * sandbox's command line follows. It sees the tree of `reachArgs` and keeps only CAP_SETUID and
 * CAP_SETGID, which `setpriv` needs and then loses with root.
 */
export function stageOneArgs(blocked: ReadonlyMap<string, readonly string[]>, ids: HostIds, setprivPath: string): string[] {
  return [
    ...reachArgs(blocked),
    '--cap-drop', 'ALL',
    '--cap-add', 'CAP_SETUID',
    '--cap-add', 'CAP_SETGID',
    '--',
    setprivPath,
    `--reuid=${ids.uid}`,
    `--regid=${ids.gid}`,
    '--clear-groups',
    '--inh-caps=-all',
    '--',
  ];
}

/** A mount namespace in which blocked paths are reachable, held open by a root process without capabilities. */
export interface ReachNamespace {
  /** A process in the namespace (`/proc/<pid>/ns/mnt`). */
  pid: number;
  /** The holder is still there. */
  alive(): boolean;
  /** Lets the holder end. */
  close(): void;
}

/**
 * Starts the holder of a `reachArgs` namespace: bwrap as root, all capabilities dropped, its
 * shell printing its pid once the namespace is complete and then waiting on a pipe from this
 * process (it ends when the pipe closes: on `close`, or when this process ends). It does not
 * keep this process alive.
 */
export function openReachNamespace(bwrapPath: string, blocked: ReadonlyMap<string, readonly string[]>): Promise<ReachNamespace | string> {
  return new Promise((resolve) => {
    const args = [...reachArgs(blocked), '--cap-drop', 'ALL', '--', '/bin/sh', '-c', 'echo "$$"; read -r _'];
    const child = spawn(bwrapPath, args, { env: {}, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      child.kill('SIGKILL');
      resolve(`could not make the mount namespace for the sandbox's host uid: ${why}`);
    };
    child.on('error', (error) => fail(error.message));
    child.on('exit', (code, signal) => fail(err.trim() || `bwrap exited with ${code ?? signal}`));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /^(\d+)\n/.exec(out);
      if (!m || settled) return;
      settled = true;
      const pid = Number(m[1]);
      let exited = false;
      child.removeAllListeners('exit');
      child.on('exit', () => (exited = true));
      child.stdout.destroy();
      child.stderr.destroy();
      (child.stdin as Writable & { unref?: () => void }).unref?.();
      child.unref();
      resolve({
        pid,
        alive: () => !exited,
        close: () => child.stdin.end(),
      });
    });
  });
}

/** `nsenter` arguments that enter `ns` and drop to `ids` (no supplementary groups, no capabilities left); the command follows. */
export function nsenterArgs(ns: ReachNamespace, ids: HostIds): string[] {
  return [`--mount=/proc/${ns.pid}/ns/mnt`, `--setuid=${ids.uid}`, `--setgid=${ids.gid}`, '--'];
}
