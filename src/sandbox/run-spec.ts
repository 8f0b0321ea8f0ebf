import { lstatSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { resolveLimits } from './limits.ts';
import type { ExtraFd } from './supervised-process.ts';
import type { HarnessChannels, ResourceLimits, RunResult, RunSpec, SandboxKind } from './types.ts';

/** Default wall-clock limit of a run. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Default bytes kept per output stream. */
export const DEFAULT_OUTPUT_LIMIT_BYTES = 64 * 1024;
/** A stream this many times over its cap is a flood: the process tree is killed. */
export const OUTPUT_FLOOD_FACTOR = 50;
/** `PATH` after the prepended directories, the same inside and outside bubblewrap. */
export const BASE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** A `RunSpec` with every default filled in and every field checked. */
export interface CheckedRunSpec {
  /** Existing absolute host directory. */
  workdir: string;
  /** The shell command. */
  command: string;
  /** Extra variables, names checked. */
  env: Readonly<Record<string, string>>;
  /** Positive, at most the largest timer Node supports. */
  timeoutMs: number;
  /** Every limit filled in. */
  limits: ResourceLimits;
  /** Positive integer. */
  outputLimitBytes: number;
  /** Existing absolute directories without `:`. */
  pathPrepend: readonly string[];
  /** Absolute paths. */
  readOnlyPaths: readonly string[];
  /** Relative paths inside the work directory, each an existing file or folder reached without a symlink. */
  readOnlyInWorkdir: readonly string[];
  /** Show the host's CA certificates. */
  certificates: boolean;
  /** Private pipes for the kit's harness, when asked for. */
  channels?: HarnessChannels;
}

/** Node fires longer timers at once, so they are refused. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Fills defaults and validates a spec; returns an error message instead of throwing. */
export function checkRunSpec(spec: RunSpec): CheckedRunSpec | string {
  if (typeof spec.command !== 'string' || spec.command.includes('\0')) {
    return 'command must be a string without NUL bytes';
  }
  const workdirProblem = directoryProblem(spec.workdir, 'workdir');
  if (workdirProblem) return workdirProblem;
  const env = spec.env ?? {};
  for (const [name, value] of Object.entries(env)) {
    if (!ENV_NAME.test(name)) return `env name ${JSON.stringify(name)} is not a valid variable name`;
    if (typeof value !== 'string' || value.includes('\0')) return `env ${name} must be a string without NUL bytes`;
  }
  const timeoutMs = spec.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMER_MS) {
    return `timeoutMs must be a positive number of at most ${MAX_TIMER_MS}, got ${timeoutMs}`;
  }
  const outputLimitBytes = spec.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT_BYTES;
  if (!Number.isInteger(outputLimitBytes) || outputLimitBytes <= 0) {
    return `outputLimitBytes must be a positive integer, got ${outputLimitBytes}`;
  }
  const limits = resolveLimits(spec.limits);
  if (typeof limits === 'string') return limits;
  const pathPrepend = spec.pathPrepend ?? [];
  for (const dir of pathPrepend) {
    const problem = directoryProblem(dir, 'pathPrepend entry');
    if (problem) return problem;
    if (dir.includes(':')) return `pathPrepend entry ${dir} contains ':' and cannot go into PATH`;
  }
  const readOnlyPaths = spec.readOnlyPaths ?? [];
  for (const path of readOnlyPaths) {
    if (typeof path !== 'string' || !isAbsolute(path)) return `readOnlyPaths entry ${String(path)} must be an absolute path`;
  }
  const readOnlyInWorkdir = spec.readOnlyInWorkdir ?? [];
  for (const rel of readOnlyInWorkdir) {
    const problem = workdirPathProblem(spec.workdir, rel);
    if (problem) return problem;
  }
  return {
    workdir: spec.workdir,
    command: spec.command,
    env,
    timeoutMs,
    limits,
    outputLimitBytes,
    pathPrepend,
    readOnlyPaths,
    readOnlyInWorkdir,
    certificates: spec.certificates === true,
    ...(spec.channels ? { channels: spec.channels } : {}),
  };
}

/** The extra descriptors for `channels`, from `firstFd` on, and the variable that names them. */
export function channelFds(channels: HarnessChannels | undefined, firstFd: number): { extra: ExtraFd[]; env: Record<string, string> } {
  if (!channels) return { extra: [], env: {} };
  const extra: ExtraFd[] = [...channels.inputs.map((data) => ({ data })), { collect: channels.recordLimitBytes }];
  const numbers = extra.map((_, i) => firstFd + i);
  return { extra, env: { PACKET_KIT_FDS: numbers.join(',') } };
}

/** The record of a run with `channels`, from what the supervisor collected on the last channel descriptor. */
export function channelRecord(channels: HarnessChannels | undefined, collected: readonly string[], truncated: readonly boolean[]): Pick<RunResult, 'record' | 'recordTruncated'> {
  if (!channels) return {};
  const last = collected.length - 1;
  return { record: collected[last] ?? '', recordTruncated: truncated[last] ?? false };
}

/** Why `rel` cannot be bound read-only inside `workdir`, or null. */
function workdirPathProblem(workdir: string, rel: string): string | null {
  if (typeof rel !== 'string' || rel === '' || isAbsolute(rel)) return `readOnlyInWorkdir entry ${String(rel)} must be a relative path`;
  const parts = rel.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..') || rel.includes('\0')) {
    return `readOnlyInWorkdir entry ${JSON.stringify(rel)} must be a plain relative path (no empty, "." or ".." parts)`;
  }
  for (let i = 1; i <= parts.length; i++) {
    try {
      const st = lstatSync(join(workdir, ...parts.slice(0, i)));
      if (st.isSymbolicLink()) return `readOnlyInWorkdir entry ${rel} goes through a symlink (${parts.slice(0, i).join('/')})`;
      if (i < parts.length && !st.isDirectory()) return `readOnlyInWorkdir entry ${rel}: ${parts.slice(0, i).join('/')} is not a folder`;
      if (i === parts.length && !st.isDirectory() && !st.isFile()) return `readOnlyInWorkdir entry ${rel} is neither a file nor a folder`;
    } catch {
      return `readOnlyInWorkdir entry ${rel} does not exist in the work directory`;
    }
  }
  return null;
}

/**
 * The cleared environment: the fixed defaults, `PATH` with the prepended directories, `HOME`
 * at the work directory as the command sees it, then the spec's own variables.
 */
export function sandboxEnvironment(spec: CheckedRunSpec, home: string): Record<string, string> {
  return {
    PATH: [...spec.pathPrepend, BASE_PATH].join(':'),
    HOME: home,
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONHASHSEED: '0',
    ...spec.env,
  };
}

/** The result of a run that never started. */
export function notRun(kind: SandboxKind, cwd: string, error: string): RunResult {
  return {
    kind,
    exitCode: null,
    signal: null,
    timedOut: false,
    outputFlooded: false,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    durationMs: 0,
    cwd,
    error,
  };
}

function directoryProblem(path: string, what: string): string | null {
  if (typeof path !== 'string' || !isAbsolute(path)) return `${what} ${String(path)} must be an absolute path`;
  try {
    if (!statSync(path).isDirectory()) return `${what} ${path} is not a directory`;
  } catch {
    return `${what} ${path} does not exist`;
  }
  return null;
}
