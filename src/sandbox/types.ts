/**
 * The sandbox contract: run one shell command against one writable work directory, with a
 * cleared environment, resource limits, a wall-clock timeout that kills the whole process
 * tree, and capped output. Implementations: `bubblewrap.ts` (isolated) and `unconfined.ts`
 * (explicit opt-in, no isolation).
 */

/** Which implementation ran a command. `unconfined` means no filesystem or network isolation. */
export type SandboxKind = 'bubblewrap' | 'unconfined';

/**
 * Resource limits applied with `ulimit` (hard and soft) to the shell that runs the command,
 * and inherited by everything it starts. A limit that cannot be applied fails the run
 * (exit code 125, message on stderr) rather than running without it.
 */
export interface ResourceLimits {
  /** CPU time in seconds per process (RLIMIT_CPU). The process gets SIGXCPU when it runs out. */
  cpuSeconds: number;
  /** Virtual address space in MiB per process (RLIMIT_AS). Allocations beyond it fail. */
  addressSpaceMb: number;
  /** Largest file a process may write, in MiB (RLIMIT_FSIZE). Writing past it raises SIGXFSZ. */
  fileSizeMb: number;
  /** Open file descriptors per process (RLIMIT_NOFILE). */
  openFiles: number;
}

/** What to run, where, and under which limits. */
export interface RunSpec {
  /**
   * Absolute host path of the work directory: the only writable place (besides a private,
   * size-capped `/tmp`) and the command's cwd and `HOME`. Bubblewrap mounts it at
   * `/workspace`; the unconfined sandbox runs in place. Must exist.
   */
  workdir: string;
  /** Shell command, run as `/bin/sh -c command` from the work directory. */
  command: string;
  /**
   * Extra environment variables. The environment is otherwise cleared: only `PATH`,
   * `HOME` (the work directory), `LANG=C.UTF-8`, `TZ=UTC`, `PYTHONDONTWRITEBYTECODE=1` and
   * `PYTHONHASHSEED=0` are set. These are applied last, so they may override those defaults
   * (use `pathPrepend` rather than overriding `PATH`).
   */
  env?: Readonly<Record<string, string>>;
  /** Wall-clock limit in milliseconds; the whole process tree is killed with SIGKILL at it. Default 30 000. */
  timeoutMs?: number;
  /** Resource limits; missing fields take the defaults in `DEFAULT_LIMITS`. */
  limits?: Partial<ResourceLimits>;
  /**
   * Bytes kept per stream (stdout, stderr); default 64 KiB. Output past the cap is read and
   * dropped (the child never blocks on a full pipe) and the stream is marked truncated. A
   * stream that passes 50 times the cap is treated as a flood and the tree is killed.
   */
  outputLimitBytes?: number;
  /**
   * Absolute host directories put in front of `PATH`, in order (e.g. an interpreter shim
   * directory). Bubblewrap binds each read-only at the same path.
   */
  pathPrepend?: readonly string[];
  /**
   * Absolute host paths the command may read (e.g. an interpreter's install prefix).
   * Bubblewrap binds each read-only at the same path; nothing else outside the system
   * directories is visible. The unconfined sandbox ignores this field (everything is visible).
   */
  readOnlyPaths?: readonly string[];
  /**
   * Paths inside the work directory (relative, files or folders, no `..`, no symlink on the
   * way) that the command may read but not change: bubblewrap binds each read-only over the
   * writable work directory, so a write, a delete or a rename of it fails. A folder bound this
   * way also refuses new files. The unconfined sandbox cannot enforce this and leaves them
   * writable; the caller checks them after the run either way.
   */
  readOnlyInWorkdir?: readonly string[];
}

/** What happened. Every field is present whatever the outcome. */
export interface RunResult {
  /** The implementation that ran the command. */
  kind: SandboxKind;
  /** Exit status of the command, or `null` when it was killed by a signal or never started. A command killed by a signal inside the shell reports 128 + the signal number. */
  exitCode: number | null;
  /** Signal that ended the sandbox's top process (e.g. `SIGKILL` at the timeout), else `null`. */
  signal: string | null;
  /** The wall-clock timeout fired and the process tree was killed. */
  timedOut: boolean;
  /** Output passed 50 times `outputLimitBytes` on one stream and the process tree was killed. */
  outputFlooded: boolean;
  /** Captured stdout, at most `outputLimitBytes` bytes, decoded as UTF-8. */
  stdout: string;
  /** Captured stderr, at most `outputLimitBytes` bytes, decoded as UTF-8. */
  stderr: string;
  /** Stdout was longer than the cap and was cut. */
  stdoutTruncated: boolean;
  /** Stderr was longer than the cap and was cut. */
  stderrTruncated: boolean;
  /** Wall-clock milliseconds from spawn to the end of output. */
  durationMs: number;
  /** The working directory as the command saw it (`/workspace` under bubblewrap). */
  cwd: string;
  /**
   * Set when the sandbox could not run the command at all (bad spec, missing work directory,
   * bubblewrap setup failure, spawn failure). The command's own failures are not errors:
   * read `exitCode`.
   */
  error?: string;
}

/** Runs commands in isolation. Create one with `createSandbox`. */
export interface Sandbox {
  /** Which implementation this is; `unconfined` means no isolation at all. */
  readonly kind: SandboxKind;
  /** Runs one command. Never rejects: failures to start come back in `RunResult.error`. */
  run(spec: RunSpec): Promise<RunResult>;
}

/** Paths to make visible inside a sandbox, e.g. for an interpreter; spread into a `RunSpec`. */
export interface SandboxMounts {
  /** Directories put in front of `PATH` (bound read-only). */
  pathPrepend: readonly string[];
  /** Paths bound read-only at the same place. */
  readOnlyPaths: readonly string[];
}
