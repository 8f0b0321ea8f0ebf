import { lstatSync, readdirSync, readlinkSync, type Stats } from 'node:fs';
import { spawn } from 'node:child_process';
import { isAbsolute } from 'node:path';
import { capFields, describeCap, findCapHit, runMemoryMb } from './caps.ts';
import { createRunCgroup, type RunCgroup } from './cgroup.ts';
import { hostEtcEntries, planEtc, SANDBOX_GID, SANDBOX_HOSTNAME, SANDBOX_UID, type EtcEntry } from './etc.ts';
import { blockedPaths, nsenterArgs, openReachNamespace, stageOneArgs, type HostIds, type ReachNamespace } from './host-user.ts';
import { CAPPED_MOUNTS, limitsWrapperScript, REPORT_FD } from './limits.ts';
import { channelFds, channelRecord, checkRunSpec, notRun, OUTPUT_FLOOD_FACTOR, sandboxEnvironment, type CheckedRunSpec } from './run-spec.ts';
import { runSupervised, type ExtraFd } from './supervised-process.ts';
import type { RunResult, RunSpec, Sandbox } from './types.ts';
import { measureMounts } from './mount-usage.ts';
import { planWorkspaceCopy } from './workspace-copy.ts';

/** Where the work directory appears inside the bubblewrap sandbox. */
export const BUBBLEWRAP_WORKSPACE = CAPPED_MOUNTS.workspace;

/**
 * Host paths shown read-only inside by default: the system, not the host's home, `/run`
 * (whose Unix sockets a read-only bind would still let the command connect to), `/var`,
 * `/opt`, `/srv` or `/home`. Symlinks among them (merged `/usr`) are recreated as symlinks.
 * `/etc` is not among them: the sandbox gets its own (see `etc.ts`).
 */
export const DEFAULT_SYSTEM_PATHS: readonly string[] = Object.freeze([
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
]);

/**
 * Where a `pathPrepend` folder that holds only symlinks (an interpreter shim) is made inside,
 * as `<this>/<index>`: its links are recreated there rather than its host folder bound, so
 * neither `/proc/self/mountinfo` nor `PATH` inside names the host's scratch folder.
 */
export const BUBBLEWRAP_LINK_DIRS = '/packet-kit/path';

/** A `pathPrepend` folder with more entries than this is bound, not recreated. */
const MAX_LINK_DIR_ENTRIES = 64;

/** Inside paths a `pathPrepend` or `readOnlyPaths` entry may not sit on or under. */
const RESERVED_INSIDE = ['/proc', '/dev', '/etc', BUBBLEWRAP_WORKSPACE, '/packet-kit'];

/** The child's descriptors: 3 bwrap's JSON status, 4 the wrapper's socket to ask for the measure of the mounts, then the data and files bwrap copies in. */
const STATUS_FD = 3;
const FIRST_DATA_FD = REPORT_FD + 1;

/** What an installed bwrap can do, found once with `probeBubblewrap`. */
export interface BubblewrapFeatures {
  /** First line of `bwrap --version`. */
  version: string;
  /** `--size` for tmpfs mounts (bubblewrap >= 0.7); without it no run is made, since no tmpfs could be capped. */
  tmpfsSize: boolean;
  /** `--disable-userns` (bubblewrap >= 0.8). */
  disableUserns: boolean;
}

/** How to build a bubblewrap sandbox. */
export interface BubblewrapOptions {
  /** Absolute path of the `bwrap` executable. */
  bwrapPath: string;
  /** What that bwrap supports; from `probeBubblewrap`. */
  features: BubblewrapFeatures;
  /** Host system paths to show read-only; default `DEFAULT_SYSTEM_PATHS`. */
  systemPaths?: readonly string[];
  /**
   * Start bwrap as this unprivileged host uid and gid. Required when the kit runs as root
   * (`createSandbox` sets it then to `DEFAULT_HOST_IDS`): bwrap started by root maps the sandbox
   * uid to host root. Leave it out when the kit runs as a normal user: bwrap runs as that user.
   */
  hostIds?: HostIds;
  /**
   * `nsenter` (util-linux), with `hostIds`: when a path the sandbox binds lies under a directory
   * that `hostIds` may not enter, each run enters a mount namespace, held open for the life of
   * the sandbox, in which it is reachable (see `host-user.ts`).
   */
  nsenterPath?: string;
  /** `setpriv` (util-linux): the same without `nsenter`, at the price of one bwrap more per run. Without either, such a run is refused. */
  setprivPath?: string;
  /** The host `/etc` to take the allowlisted entries from; default `/etc`. */
  etcDir?: string;
  /**
   * The seccomp filter every run loads (`--seccomp`), from `buildSeccompFilter`: the program,
   * or why it could not be built. Asked once, on the first run. Without a program no run is
   * made.
   */
  seccomp: () => Promise<Uint8Array | string>;
  /**
   * A delegated cgroup v2 folder (from `detectCgroupDelegation`, prepared with
   * `prepareCgroupParent`): each run gets a child of it, capped at the run's memory
   * (`runMemoryMb`) and processes, and is started inside it. Without it, the rlimits alone apply.
   */
  cgroupParent?: string;
  /** Monotonic clock in milliseconds; default `performance.now`. */
  now?: () => number;
}

/**
 * Processes of a run's cgroup that are the sandbox's own, not the command's: bwrap twice and the
 * wrapper shell, and on the `setpriv` path a first bwrap twice more; with room to spare, since
 * the command's own cap is RLIMIT_NPROC, which counts only the sandbox uid's processes.
 */
export const CGROUP_PIDS_SLACK = 8;

let runCount = 0;

/**
 * Asks a bwrap binary for its version and options. Returns an error message when it cannot be
 * run at all.
 */
export async function probeBubblewrap(bwrapPath: string): Promise<BubblewrapFeatures | string> {
  const version = await capture(bwrapPath, ['--version']);
  if (typeof version !== 'string') return version.error;
  const help = await capture(bwrapPath, ['--help']);
  const helpText = typeof help === 'string' ? help : '';
  return {
    version: version.trim().split('\n')[0] ?? '',
    tmpfsSize: helpText.includes('--size'),
    disableUserns: helpText.includes('--disable-userns'),
  };
}

/**
 * A sandbox on bubblewrap: new user, mount, pid, network, ipc, uts and cgroup namespaces; an
 * unprivileged uid inside that is not root outside either; all capabilities dropped; a
 * read-only system with a minimal `/etc`; the work directory copied into a size-capped tmpfs;
 * a private size-capped `/tmp` and `/dev/shm`, a read-only `/dev`; a process cap; loopback only
 * (a server on 127.0.0.1 inside is reachable from inside, nothing on the host is); killed with
 * its parent.
 */
export function createBubblewrapSandbox(options: BubblewrapOptions): Sandbox {
  const now = options.now ?? (() => performance.now());
  // Mount namespaces that make blocked paths reachable, one per set of paths, opened on first use.
  const reach = new Map<string, Promise<ReachNamespace | string>>();
  const reachFor = async (blocked: Map<string, string[]>): Promise<ReachNamespace | string> => {
    const key = JSON.stringify([...blocked]);
    const held = reach.get(key);
    if (held) {
      const open = await held;
      if (typeof open !== 'string' && open.alive()) return open;
      const since = reach.get(key);
      if (since && since !== held) return since; // another run is opening a new one
    }
    const opening = openReachNamespace(options.bwrapPath, blocked);
    reach.set(key, opening);
    return opening;
  };
  let filter: Promise<Uint8Array | string> | undefined;
  const seccomp = (): Promise<Uint8Array | string> =>
    (filter ??= typeof options.seccomp === 'function' ? options.seccomp() : Promise.resolve('no seccomp filter was given to the sandbox'));
  const etc = new Map<boolean, EtcEntry[]>();
  const etcEntries = (certificates: boolean) => {
    if (!etc.has(certificates)) etc.set(certificates, hostEtcEntries(options.etcDir ?? '/etc', certificates));
    return etc.get(certificates)!;
  };
  return {
    kind: 'bubblewrap',
    runCgroup: options.cgroupParent !== undefined,
    async run(spec: RunSpec): Promise<RunResult> {
      const checked = checkRunSpec(spec);
      if (typeof checked === 'string') return notRun('bubblewrap', BUBBLEWRAP_WORKSPACE, checked);
      if (!options.features.tmpfsSize) {
        return notRun('bubblewrap', BUBBLEWRAP_WORKSPACE, `${options.features.version} has no --size, so the workspace, /tmp and /dev/shm could not be capped; install bubblewrap 0.7 or later`);
      }
      const etcPlan = planEtc(etcEntries(checked.certificates), FIRST_DATA_FD);
      if (typeof etcPlan === 'string') return notRun('bubblewrap', BUBBLEWRAP_WORKSPACE, etcPlan);
      const copy = planWorkspaceCopy(checked.workdir, checked.readOnlyInWorkdir, BUBBLEWRAP_WORKSPACE, FIRST_DATA_FD + etcPlan.data.length + etcPlan.fds.length);
      if (typeof copy === 'string') {
        etcPlan.close();
        return notRun('bubblewrap', BUBBLEWRAP_WORKSPACE, copy);
      }
      let cgroup: RunCgroup | undefined;
      try {
        if (copy.writableBytes > checked.limits.workspaceMb * 1024 * 1024) {
          const mib = (copy.writableBytes / 1024 / 1024).toFixed(1);
          return {
            ...notRun('bubblewrap', BUBBLEWRAP_WORKSPACE, `the work directory holds ${mib} MiB, more than the workspace cap of ${checked.limits.workspaceMb} MiB, so the command was not started`),
            capHit: 'workspace',
            capDetail: `the work directory alone (${mib} MiB) is larger than the workspace (${BUBBLEWRAP_WORKSPACE}, ${checked.limits.workspaceMb} MiB)`,
          };
        }
        const seccompFd = FIRST_DATA_FD + etcPlan.data.length + etcPlan.fds.length + copy.fds.length;
        const channels = channelFds(checked.channels, seccompFd + 1);
        const args = bubblewrapArgs({ ...checked, env: { ...checked.env, ...channels.env } }, options, { etc: etcPlan.args, workspace: copy.args, seccompFd });
        if (typeof args === 'string') return notRun('bubblewrap', BUBBLEWRAP_WORKSPACE, args);
        const program = await seccomp();
        if (typeof program === 'string') return notRun('bubblewrap', BUBBLEWRAP_WORKSPACE, `${program}. The sandbox does not run without its seccomp filter`);

        // Who starts bwrap: this process's user; or, as root, the unprivileged host ids, directly,
        // or from a mount namespace in which the paths out of their reach are reachable.
        let file = options.bwrapPath;
        let argv = args;
        let ids: HostIds | undefined;
        if (options.hostIds) {
          const blocked = blockedPaths(bindSources(args), options.hostIds);
          if (blocked.size === 0) ids = options.hostIds;
          else if (options.nsenterPath) {
            const ns = await reachFor(blocked);
            if (typeof ns === 'string') return notRun('bubblewrap', BUBBLEWRAP_WORKSPACE, ns);
            file = options.nsenterPath;
            argv = [...nsenterArgs(ns, options.hostIds), options.bwrapPath, ...args];
          } else if (options.setprivPath) {
            argv = [...stageOneArgs(blocked, options.hostIds, options.setprivPath), options.bwrapPath, ...args];
          } else {
            return notRun('bubblewrap', BUBBLEWRAP_WORKSPACE, `the sandbox's host uid ${options.hostIds.uid} cannot reach ${[...blocked.values()].flat().join(', ')}, and neither nsenter nor setpriv (util-linux), which would let it, was found; install util-linux`);
          }
        }

        // The wrapper's `measure` after a failed command: the kit reads the mounts' free space from the host.
        const full = new Set<string>();
        const measure = (line: string, pid: number): string => {
          if (line.trim() !== 'measure') return 'no';
          for (const mount of measureMounts(pid, Object.values(CAPPED_MOUNTS)).full) full.add(mount);
          return 'done';
        };
        if (options.cgroupParent !== undefined) {
          runCount += 1;
          const made = createRunCgroup(options.cgroupParent, `packet-kit-run-${process.pid}-${runCount}`, {
            // The work directory's files are copied into /workspace by the sandbox, inside the cgroup: not counted against the run.
            memoryBytes: runMemoryMb(checked.limits) * 1024 * 1024 + copy.writableBytes,
            pids: checked.limits.processes + CGROUP_PIDS_SLACK,
          });
          if (typeof made === 'string') return notRun('bubblewrap', BUBBLEWRAP_WORKSPACE, `${made}; the run's memory and process caps would not hold, so the command was not started`);
          cgroup = made;
        }
        const extraFds: ExtraFd[] = [
          'collect',
          { converse: measure },
          ...etcPlan.data.map((data) => ({ data })),
          ...[...etcPlan.fds, ...copy.fds].map((fd) => ({ fd })),
          { data: program },
          ...channels.extra,
        ];
        const outcome = await runSupervised({
          ...(cgroup ? { hold: cgroup.join } : {}),
          file,
          args: argv,
          env: {},
          cwd: '/',
          timeoutMs: checked.timeoutMs,
          outputLimitBytes: checked.outputLimitBytes,
          floodLimitBytes: checked.outputLimitBytes * OUTPUT_FLOOD_FACTOR,
          extraFds,
          ...(ids ? { ids } : {}),
          now,
        });
        const counted = cgroup?.events();
        const { collected, collectedTruncated, spawnError, ...rest } = outcome;
        const result: RunResult = {
          kind: 'bubblewrap',
          cwd: BUBBLEWRAP_WORKSPACE,
          ...rest,
          ...channelRecord(checked.channels, collected, collectedTruncated),
          ...(counted ? { cgroup: counted } : {}),
        };
        if (spawnError !== null) return { ...result, error: `could not start ${file}: ${spawnError}` };
        // bwrap writes {"exit-code": N} to the status fd once the command has run; without it,
        // and without a kill of ours, bwrap itself failed to set the sandbox up.
        const status = collected[0] ?? '';
        if (!status.includes('"exit-code"') && !outcome.timedOut && !outcome.outputFlooded) {
          const reason = outcome.stderr.trim() || `bwrap exited with ${outcome.exitCode ?? outcome.signal}`;
          const full = /No space left on device/.test(reason) ? { capHit: 'workspace' as const, capDetail: describeCap('workspace', checked.limits) } : {};
          return { ...result, error: `bubblewrap could not set up the sandbox: ${reason}`, ...full };
        }
        const measured = findCapHit(result, [...full], counted?.oomKills ?? 0, false) ?? (counted && counted.pidsRefused > 0 && result.exitCode !== 0 ? 'processes' : null);
        if (measured) return { ...result, ...capFields(measured, checked.limits, true) };
        const reported = findCapHit(result, []);
        return reported ? { ...result, ...capFields(reported, checked.limits, false) } : result;
      } finally {
        etcPlan.close();
        copy.close();
        await cgroup?.close();
      }
    },
    async dispose() {
      for (const ns of reach.values()) {
        const open = await ns;
        if (typeof open !== 'string') open.close();
      }
      reach.clear();
    },
  };
}

/** What `bubblewrapArgs` lays in besides the spec: the operations that make `/etc` and fill `/workspace`. */
export interface BubblewrapContents {
  /** From `planEtc`. */
  etc: readonly string[];
  /** From `planWorkspaceCopy`. */
  workspace: readonly string[];
  /** The child's descriptor from which bwrap reads the seccomp filter. */
  seccompFd: number;
}

/**
 * The bwrap argument list for one run, or an error message for a path that cannot be mounted.
 * Exported so the mount plan can be read and tested without running anything.
 */
export function bubblewrapArgs(spec: CheckedRunSpec, options: BubblewrapOptions, contents: BubblewrapContents): string[] | string {
  const { limits } = spec;
  const mib = (n: number) => String(n * 1024 * 1024);
  const args = [
    '--unshare-all',
    '--unshare-user',
    ...(options.features.disableUserns ? ['--disable-userns'] : []),
    '--uid', String(SANDBOX_UID),
    '--gid', String(SANDBOX_GID),
    '--cap-drop', 'ALL',
    '--die-with-parent',
    '--new-session',
    '--hostname', SANDBOX_HOSTNAME,
  ];
  for (const path of options.systemPaths ?? DEFAULT_SYSTEM_PATHS) {
    const entry = lstatOrNull(path);
    if (entry === null) continue;
    if (entry.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
    else args.push('--ro-bind', path, path);
  }
  args.push(...contents.etc);
  args.push('--proc', '/proc', '--dev', '/dev');
  args.push('--size', mib(limits.shmMb), '--tmpfs', CAPPED_MOUNTS.shm, '--remount-ro', '/dev');
  args.push('--size', mib(limits.tmpMb), '--tmpfs', CAPPED_MOUNTS.tmp);
  args.push('--size', mib(limits.workspaceMb), '--tmpfs', BUBBLEWRAP_WORKSPACE, ...contents.workspace);

  // Shim folders (symlinks only) are recreated; every other path is bound at its own place.
  const insidePath: string[] = [];
  const bound: string[] = [];
  spec.pathPrepend.forEach((dir, i) => {
    const links = linksOnly(dir);
    if (links === null) {
      insidePath.push(dir);
      bound.push(dir);
      return;
    }
    const inside = `${BUBBLEWRAP_LINK_DIRS}/${i}`;
    args.push('--perms', '0755', '--dir', inside);
    for (const [name, target] of links) args.push('--symlink', target, `${inside}/${name}`);
    insidePath.push(inside);
  });
  const extra = [...new Set([...bound, ...spec.readOnlyPaths])].sort();
  for (const path of extra) {
    if (!isAbsolute(path) || path === '/') return `cannot bind ${path} read-only: it must be an absolute path below /`;
    const clash = RESERVED_INSIDE.find((reserved) => path === reserved || path.startsWith(`${reserved}/`));
    if (clash) return `cannot bind ${path} read-only: it would land on the sandbox's own ${clash}`;
    if (lstatOrNull(path) === null) return `cannot bind ${path} read-only: it does not exist`;
    args.push('--ro-bind', path, path);
  }

  args.push('--remount-ro', '/', '--chdir', BUBBLEWRAP_WORKSPACE, '--clearenv');
  for (const [name, value] of Object.entries(sandboxEnvironment({ ...spec, pathPrepend: insidePath }, BUBBLEWRAP_WORKSPACE))) {
    args.push('--setenv', name, value);
  }
  args.push('--seccomp', String(contents.seccompFd));
  args.push('--json-status-fd', String(STATUS_FD));
  args.push('--', '/bin/sh', '-c', limitsWrapperScript(limits, { processLimit: true, report: true }), 'packet-kit-sandbox', spec.command);
  return args;
}

/** The host paths an argument list binds (the sources of `--ro-bind`), all before `--clearenv`. */
function bindSources(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length && args[i] !== '--clearenv'; i++) {
    if (args[i] === '--ro-bind') out.push(args[i + 1]!);
  }
  return out;
}

/** The entries of a folder that holds symlinks and nothing else (name and target, sorted), or null. */
function linksOnly(dir: string): [string, string][] | null {
  try {
    const names = readdirSync(dir).sort();
    if (names.length === 0 || names.length > MAX_LINK_DIR_ENTRIES) return null;
    const links: [string, string][] = [];
    for (const name of names) {
      if (!lstatSync(`${dir}/${name}`).isSymbolicLink()) return null;
      const target = readlinkSync(`${dir}/${name}`);
      if (!isAbsolute(target)) return null; // it would point elsewhere from another folder
      links.push([name, target]);
    }
    return links;
  } catch {
    return null;
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

function capture(file: string, args: string[]): Promise<string | { error: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { env: {}, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error) => resolve({ error: `could not run ${file}: ${error.message}` }));
    child.on('close', (code) => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve(code === 0 ? text : { error: `${file} ${args.join(' ')} exited with ${code}: ${text.trim()}` });
    });
  });
}
