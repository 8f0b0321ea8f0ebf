import { lstatSync, readlinkSync, type Stats } from 'node:fs';
import { spawn } from 'node:child_process';
import { isAbsolute } from 'node:path';
import { limitsWrapperScript } from './limits.ts';
import { checkRunSpec, notRun, OUTPUT_FLOOD_FACTOR, sandboxEnvironment, type CheckedRunSpec } from './run-spec.ts';
import { runSupervised } from './supervised-process.ts';
import type { RunResult, RunSpec, Sandbox } from './types.ts';

/** Where the work directory appears inside the bubblewrap sandbox. */
export const BUBBLEWRAP_WORKSPACE = '/workspace';

/**
 * Host paths shown read-only inside by default: the system, not the host's home, `/run`
 * (whose Unix sockets a read-only bind would still let the command connect to), `/var`,
 * `/opt`, `/srv` or `/home`. Symlinks among them (merged `/usr`) are recreated as symlinks.
 */
export const DEFAULT_SYSTEM_PATHS: readonly string[] = Object.freeze([
  '/usr',
  '/etc',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
]);

/** Inside paths a `pathPrepend` or `readOnlyPaths` entry may not sit on or under. */
const RESERVED_INSIDE = ['/proc', '/dev', BUBBLEWRAP_WORKSPACE];

/** What an installed bwrap can do, found once with `probeBubblewrap`. */
export interface BubblewrapFeatures {
  /** First line of `bwrap --version`. */
  version: string;
  /** `--size` for tmpfs mounts (absent on older releases). */
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
  /** Size of the private `/tmp` in MiB (only with `features.tmpfsSize`); default 256. */
  tmpSizeMb?: number;
  /** Monotonic clock in milliseconds; default `performance.now`. */
  now?: () => number;
}

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
 * A sandbox on bubblewrap: new user, mount, pid, network, ipc, uts and cgroup namespaces; all
 * capabilities dropped; a read-only system; the work directory as the one writable mount;
 * a private size-capped `/tmp`; loopback only (a server on 127.0.0.1 inside is reachable from
 * inside, nothing on the host is); killed with its parent.
 */
export function createBubblewrapSandbox(options: BubblewrapOptions): Sandbox {
  const now = options.now ?? (() => performance.now());
  return {
    kind: 'bubblewrap',
    async run(spec: RunSpec): Promise<RunResult> {
      const checked = checkRunSpec(spec);
      if (typeof checked === 'string') return notRun('bubblewrap', BUBBLEWRAP_WORKSPACE, checked);
      const args = bubblewrapArgs(checked, options);
      if (typeof args === 'string') return notRun('bubblewrap', BUBBLEWRAP_WORKSPACE, args);
      const outcome = await runSupervised({
        file: options.bwrapPath,
        args,
        env: {},
        cwd: checked.workdir,
        timeoutMs: checked.timeoutMs,
        outputLimitBytes: checked.outputLimitBytes,
        floodLimitBytes: checked.outputLimitBytes * OUTPUT_FLOOD_FACTOR,
        statusPipe: true,
        now,
      });
      const { status, spawnError, ...rest } = outcome;
      const result: RunResult = { kind: 'bubblewrap', cwd: BUBBLEWRAP_WORKSPACE, ...rest };
      if (spawnError !== null) return { ...result, error: `could not start ${options.bwrapPath}: ${spawnError}` };
      // bwrap writes {"exit-code": N} to the status fd once the command has run; without it,
      // and without a kill of ours, bwrap itself failed to set the sandbox up.
      if (!status.includes('"exit-code"') && !outcome.timedOut && !outcome.outputFlooded) {
        const reason = outcome.stderr.trim() || `bwrap exited with ${outcome.exitCode ?? outcome.signal}`;
        return { ...result, error: `bubblewrap could not set up the sandbox: ${reason}` };
      }
      return result;
    },
  };
}

/**
 * The bwrap argument list for one run, or an error message for a path that cannot be mounted.
 * Exported so the mount plan can be read and tested without running anything.
 */
export function bubblewrapArgs(spec: CheckedRunSpec, options: BubblewrapOptions): string[] | string {
  const args = [
    '--unshare-all',
    '--unshare-user',
    ...(options.features.disableUserns ? ['--disable-userns'] : []),
    '--cap-drop', 'ALL',
    '--die-with-parent',
    '--new-session',
    '--hostname', 'sandbox',
  ];
  for (const path of options.systemPaths ?? DEFAULT_SYSTEM_PATHS) {
    const entry = lstatOrNull(path);
    if (entry === null) continue;
    if (entry.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
    else args.push('--ro-bind', path, path);
  }
  args.push('--proc', '/proc', '--dev', '/dev');
  if (options.features.tmpfsSize) args.push('--size', String((options.tmpSizeMb ?? 256) * 1024 * 1024));
  args.push('--tmpfs', '/tmp');
  args.push('--bind', spec.workdir, BUBBLEWRAP_WORKSPACE);
  // Over the writable work directory, its protected paths read-only (shallowest first).
  for (const rel of [...spec.readOnlyInWorkdir].sort()) {
    args.push('--ro-bind', `${spec.workdir}/${rel}`, `${BUBBLEWRAP_WORKSPACE}/${rel}`);
  }

  const extra = [...new Set([...spec.pathPrepend, ...spec.readOnlyPaths])].sort();
  for (const path of extra) {
    if (!isAbsolute(path) || path === '/') return `cannot bind ${path} read-only: it must be an absolute path below /`;
    const clash = RESERVED_INSIDE.find((reserved) => path === reserved || path.startsWith(`${reserved}/`));
    if (clash) return `cannot bind ${path} read-only: it would land on the sandbox's own ${clash}`;
    if (lstatOrNull(path) === null) return `cannot bind ${path} read-only: it does not exist`;
    args.push('--ro-bind', path, path);
  }

  args.push('--remount-ro', '/', '--chdir', BUBBLEWRAP_WORKSPACE, '--clearenv');
  for (const [name, value] of Object.entries(sandboxEnvironment(spec, BUBBLEWRAP_WORKSPACE))) {
    args.push('--setenv', name, value);
  }
  args.push('--json-status-fd', '3');
  args.push('--', '/bin/sh', '-c', limitsWrapperScript(spec.limits), 'packet-kit-sandbox', spec.command);
  return args;
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
