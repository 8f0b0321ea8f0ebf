import type { ResourceLimits } from './types.ts';

/** Limits used when a `RunSpec` leaves a field out. */
export const DEFAULT_LIMITS: Readonly<ResourceLimits> = Object.freeze({
  cpuSeconds: 60,
  addressSpaceMb: 4096,
  fileSizeMb: 64,
  openFiles: 256,
  processes: 256,
  workspaceMb: 512,
  tmpMb: 64,
  shmMb: 64,
});

/**
 * The most the kit grants a run, whatever a packet asks for: a run sized at the maxima stays
 * well inside a small CI machine (2 cores, 7 GB), even two at once. Fields without a maximum
 * here are bounded otherwise (CPU time by the wall-clock timeout).
 */
export const LIMIT_MAXIMA: Readonly<Partial<ResourceLimits>> = Object.freeze({
  addressSpaceMb: 8192,
  fileSizeMb: 2048,
  openFiles: 4096,
  processes: 1024,
  workspaceMb: 2048,
  tmpMb: 1024,
  shmMb: 1024,
});

/** Exit status of the wrapper shell when a limit cannot be applied. */
export const LIMIT_FAILURE_EXIT_CODE = 125;

/** The file descriptor (a socket) on which the wrapper shell asks the kit to measure the tmpfs mounts after a failed command. */
export const REPORT_FD = 4;

/** A capped tmpfs without room for this many bytes counts as full (a write that failed for ENOSPC leaves about nothing). */
export const ROOM_BYTES = 64 * 1024;

/** Where the sandbox's three capped tmpfs mounts are, by cap. */
export const CAPPED_MOUNTS = Object.freeze({ workspace: '/workspace', tmp: '/tmp', shm: '/dev/shm' });

/** Merges partial limits over the defaults; returns an error message for a bad value. */
export function resolveLimits(partial: Partial<ResourceLimits> | undefined): ResourceLimits | string {
  const limits: ResourceLimits = { ...DEFAULT_LIMITS, ...partial };
  for (const [name, value] of Object.entries(limits) as [keyof ResourceLimits, number][]) {
    if (!Number.isInteger(value) || value <= 0) {
      return `limits.${name} must be a positive integer, got ${String(value)}`;
    }
    const max = LIMIT_MAXIMA[name];
    if (max !== undefined && value > max) {
      return `limits.${name} is ${value}, above the kit's maximum of ${max}; the sandbox never grants more`;
    }
  }
  return limits;
}

/** How the wrapper runs: under bubblewrap it applies every limit and reports after a failure. */
export interface WrapperOptions {
  /** Apply `processes` with RLIMIT_NPROC (bubblewrap only: unconfined it would count the host user's processes). */
  processLimit: boolean;
  /**
   * After a command that failed, ask on `REPORT_FD` (a socket) for the kit to measure the capped
   * tmpfs mounts (a `measure` line) and wait for its answer, so the mounts are still there while
   * the kit reads them from the host (`mount-usage.ts`); no process is started for it. The
   * command runs in a subshell with that descriptor closed.
   */
  report: boolean;
}

/**
 * The POSIX shell text that applies the limits (soft and hard, so the command cannot raise
 * them back; CPU time has its hard limit one second above the soft one so that running out
 * ends in SIGXCPU, which names the cause, rather than SIGKILL) and then runs the command, passed
 * as `$1`. Units follow POSIX `ulimit` as dash and bash-as-sh implement it: `-f` in 512-byte
 * blocks, `-v` in KiB; the process limit is `-u` in bash and `-p` in dash.
 */
export function limitsWrapperScript(limits: ResourceLimits, options: WrapperOptions = { processLimit: false, report: false }): string {
  const fail = (what: string, how: string) =>
    `{ echo "packet-kit sandbox: could not apply the ${what} limit (${how})" >&2; exit ${LIMIT_FAILURE_EXIT_CODE}; }`;
  const steps = [
    `{ ulimit -S -t ${limits.cpuSeconds} && ulimit -H -t ${limits.cpuSeconds + 1}; } 2>/dev/null || ${fail('CPU time', `ulimit -t ${limits.cpuSeconds}`)}`,
    ...([
      ['-v', limits.addressSpaceMb * 1024, 'address space'],
      ['-f', limits.fileSizeMb * 2048, 'file size'],
      ['-n', limits.openFiles, 'open files'],
    ] as const).map(([flag, value, what]) => `ulimit ${flag} ${value} 2>/dev/null || ${fail(what, `ulimit ${flag} ${value}`)}`),
  ];
  if (options.processLimit) {
    const n = limits.processes;
    steps.push(`{ ulimit -u ${n} || ulimit -p ${n}; } 2>/dev/null || ${fail('process', `ulimit -u ${n}`)}`);
  }
  if (!options.report) return [...steps, 'exec /bin/sh -c "$1"'].join('\n');
  return [
    ...steps,
    // A subshell rather than `sh -c`: one exec fewer per run.
    'command=$1',
    'set --',
    `( eval "$command" ) ${REPORT_FD}>&-`,
    'status=$?',
    `[ "$status" -eq 0 ] || { echo measure >&${REPORT_FD} && read -r _ <&${REPORT_FD}; } 2>/dev/null`,
    'exit "$status"',
  ].join('\n');
}
