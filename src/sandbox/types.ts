/**
 * The sandbox contract: run one shell command against one writable work directory, with a
 * cleared environment, resource limits, a wall-clock timeout that kills the whole process
 * tree, and capped output. Implementations: `bubblewrap.ts` (isolated) and `unconfined.ts`
 * (explicit opt-in, no isolation).
 */

/** Which implementation ran a command. `unconfined` means no filesystem or network isolation. */
export type SandboxKind = 'bubblewrap' | 'unconfined';

/**
 * What one run may use. The rlimits are applied with `ulimit` to the shell that runs the
 * command, and inherited by everything it starts; a limit that cannot be applied fails the
 * run (exit code 125, message on stderr) rather than running without it. The sizes are those
 * of the sandbox's own tmpfs mounts. Defaults in `DEFAULT_LIMITS`; no value may exceed
 * `LIMIT_MAXIMA`.
 */
export interface ResourceLimits {
  /**
   * CPU time in seconds per process (RLIMIT_CPU). The process gets SIGXCPU when it runs out,
   * and SIGKILL one second later if it ignored that.
   */
  cpuSeconds: number;
  /**
   * Memory per process: virtual address space in MiB (RLIMIT_AS). Allocations beyond it fail.
   * Where the run has a cgroup of its own (`Sandbox.runCgroup`), it is also the memory.max of
   * the whole run: its processes and its tmpfs files together, past which the kernel kills a
   * process (`runMemory`). Without one, the tmpfs mounts are capped apart (`workspaceMb`,
   * `tmpMb`, `shmMb`), so a run's memory is at most its processes' plus those three sizes.
   */
  addressSpaceMb: number;
  /** Largest file a process may write, in MiB (RLIMIT_FSIZE). Writing past it fails (EFBIG) or raises SIGXFSZ. */
  fileSizeMb: number;
  /** Open file descriptors per process (RLIMIT_NOFILE). */
  openFiles: number;
  /**
   * Processes and threads the run may have at once (RLIMIT_NPROC). Bubblewrap counts them in the
   * run's own user namespace under an unprivileged uid, so each run has its own budget; a fork
   * past it fails with EAGAIN. The unconfined sandbox does not apply it (there it would count
   * every process of the host user).
   */
  processes: number;
  /** Size in MiB of the work directory as the command sees it (a tmpfs at `/workspace`); a write past it fails with ENOSPC. */
  workspaceMb: number;
  /** Size in MiB of the private `/tmp` (a tmpfs). */
  tmpMb: number;
  /** Size in MiB of the private `/dev/shm` (a tmpfs). */
  shmMb: number;
}

/**
 * A cap a run ran into, as far as the sandbox can tell: a full tmpfs (`workspace`, `tmp`,
 * `shm`), a fork that failed for the process cap (`processes`), an allocation that failed for
 * the memory cap (`memory`), a process the kernel killed at the whole run's memory cap (`runMemory`,
 * where a cgroup applies it), a file past the file-size cap (`fileSize`), the CPU-time cap
 * (`cpu`), the open-files cap (`openFiles`). The wall-clock timeout and the output cap have
 * their own flags (`timedOut`, `outputFlooded`).
 */
export type SandboxCap = 'processes' | 'workspace' | 'tmp' | 'shm' | 'memory' | 'runMemory' | 'fileSize' | 'cpu' | 'openFiles';

/** What to run, where, and under which limits. */
export interface RunSpec {
  /**
   * Absolute host path of the work directory, the command's cwd and `HOME`. Must exist.
   * Bubblewrap copies its files and folders (modes kept, times not) into a size-capped tmpfs at
   * `/workspace` before the command starts: the command writes there (and in a capped `/tmp`
   * and `/dev/shm`) and nowhere else, and its writes are gone when the run ends; the host
   * directory is never changed by the run. Only regular files, folders and symlinks (copied as
   * links) are taken; anything else is refused. The unconfined sandbox runs in place.
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
   * directory). Bubblewrap binds each read-only at the same path, but a folder of absolute
   * symlinks only (a shim), which it recreates at `/packet-kit/path/<index>` and puts on `PATH`
   * there, so the command never sees the host folder's name.
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
   * way) that the command may read but not change: bubblewrap mounts each read-only inside the
   * writable `/workspace`, so a write, a delete or a rename of it fails. A folder mounted this
   * way also refuses new files. The unconfined sandbox cannot enforce this and leaves them
   * writable; the caller checks them after the run either way.
   */
  readOnlyInWorkdir?: readonly string[];
  /**
   * Show the host's CA certificates (`/etc/ssl/certs`, `/etc/ssl/openssl.cnf`) read-only, for
   * code that builds TLS contexts. Off by default: `/etc` holds only what interpreters need.
   */
  certificates?: boolean;
  /**
   * Private pipes for a program of the kit's own inside the run (the trusted test harness): each
   * of `inputs` is written to a pipe the command reads to its end, and one more pipe is opened for
   * the command to write its record on, kept up to `recordLimitBytes`. Their descriptor numbers
   * are handed over in the variable `PACKET_KIT_FDS` (the inputs', then the record's, comma
   * separated). Nothing else of the run can see what the inputs held once they are read.
   */
  channels?: HarnessChannels;
}

/** See `RunSpec.channels`. */
export interface HarnessChannels {
  inputs: readonly Buffer[];
  /** Bytes of the record kept; past it the record is cut and `recordTruncated` set. */
  recordLimitBytes: number;
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
  /**
   * A cap the run ran into, when the sandbox can tell (see `SandboxCap`): from the tmpfs
   * mounts the kit measured full after a failed command, from the run's cgroup (an oom_kill),
   * from the exit status (SIGXFSZ, SIGXCPU), or from the errors the command printed for the
   * per-process rlimits (EAGAIN on fork, ENOMEM, EMFILE, EFBIG). A "No space left on device"
   * the command printed names no mount by itself. Set only on
   * a run that did not succeed; with `error` set too, the run never started because the work
   * directory alone is larger than the workspace cap. Best effort: a command can hide its
   * errors, so a missing `capHit` does not prove no cap was hit.
   */
  capHit?: SandboxCap;
  /** `capHit` in a sentence that names the cap and its value, e.g. "the workspace (/workspace, 8 MiB) is full". */
  capDetail?: string;
  /**
   * Set when only the run's own output or exit status tells of `capHit` (an EAGAIN on fork, a
   * MemoryError, exit 128 + SIGXFSZ), not a measure or count of the kernel's: the run could have
   * printed it without hitting anything, so it is never taken for a kill.
   */
  capReported?: true;
  /**
   * Where the run had its own cgroup (`Sandbox.runCgroup`): what the kernel counted at its caps,
   * processes killed at its memory cap (`oomKills`) and forks refused at its process cap
   * (`pidsRefused`).
   */
  cgroup?: { oomKills: number; pidsRefused: number };
  /** With `channels`: what the command wrote on its record pipe (UTF-8). */
  record?: string;
  /** With `channels`: the record went past `recordLimitBytes` and was cut. */
  recordTruncated?: boolean;
}

/** Runs commands in isolation. Create one with `createSandbox`. */
export interface Sandbox {
  /** Which implementation this is; `unconfined` means no isolation at all. */
  readonly kind: SandboxKind;
  /**
   * Each run has a cgroup of its own that caps its processes' memory together and their number
   * (bubblewrap where cgroup v2 is delegated); otherwise only the per-process rlimits apply.
   */
  readonly runCgroup?: boolean;
  /** Runs one command. Never rejects: failures to start come back in `RunResult.error`. */
  run(spec: RunSpec): Promise<RunResult>;
  /**
   * Lets go of what the sandbox holds between runs (bubblewrap, started by root: the processes
   * that hold its mount namespaces). Optional; they end with this process anyway.
   */
  dispose?(): Promise<void>;
}

/** Paths to make visible inside a sandbox, e.g. for an interpreter; spread into a `RunSpec`. */
export interface SandboxMounts {
  /** Directories put in front of `PATH` (bound read-only). */
  pathPrepend: readonly string[];
  /** Paths bound read-only at the same place. */
  readOnlyPaths: readonly string[];
}
