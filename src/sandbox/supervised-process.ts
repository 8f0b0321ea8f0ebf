import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';

/** How to start and watch one process tree. */
export interface SupervisedSpawn {
  /** Executable to start (absolute path). */
  file: string;
  /** Its arguments. */
  args: readonly string[];
  /** Its complete environment (nothing is inherited). */
  env: Readonly<Record<string, string>>;
  /** Host working directory for the spawn. */
  cwd: string;
  /** Wall-clock limit; the process group is killed with SIGKILL at it. */
  timeoutMs: number;
  /** Bytes kept per stream. */
  outputLimitBytes: number;
  /** Total bytes on one stream after which the group is killed. */
  floodLimitBytes: number;
  /**
   * Descriptors for the child from fd 3 on, in order: `collect` opens a pipe and keeps what the
   * child writes to it (at most 64 KiB; `{ collect: bytes }` sets another cap); `{ fd }` hands over
   * an open host descriptor; `{ data }` opens a pipe, writes the text (UTF-8) or the bytes and closes
   * it (the child reads it to its end); `{ converse }` opens a socket on which each line the child
   * writes is passed, with the child's pid, to the function, and its answer (a line) written back.
   */
  extraFds?: readonly ExtraFd[];
  /** Start the child as this host uid and gid (the parent must be root); default: the parent's. */
  ids?: { uid: number; gid: number };
  /**
   * Called with the child's pid before it runs anything: the child is a shell that waits on its
   * standard input, and execs `file` only after this returned null (with standard input then
   * /dev/null). A message instead ends the child unstarted, as a spawn error. For what must
   * hold from the first instruction on (moving it into a cgroup).
   */
  hold?: (pid: number) => string | null;
  /** Monotonic clock in milliseconds. */
  now: () => number;
}

/** The shell that waits for `hold`'s go: one line `go` on its standard input, then the real program. */
const HOLD_SCRIPT = 'read -r go && [ "$go" = go ] && exec "$@" </dev/null';

/** One descriptor handed to the child; see `SupervisedSpawn.extraFds`. */
export type ExtraFd =
  | 'collect'
  | { collect: number }
  | { fd: number }
  | { data: string | Uint8Array }
  | { converse: (line: string, pid: number) => string | Promise<string> };

/** What the supervised process did. */
export interface SupervisedOutcome {
  /** Exit status of the top process, `null` if a signal ended it or it never started. */
  exitCode: number | null;
  /** Signal that ended the top process. */
  signal: string | null;
  /** The timeout fired and the group was killed. */
  timedOut: boolean;
  /** A stream passed `floodLimitBytes` and the group was killed. */
  outputFlooded: boolean;
  /** Kept stdout, UTF-8. */
  stdout: string;
  /** Kept stderr, UTF-8. */
  stderr: string;
  /** Stdout went past the cap. */
  stdoutTruncated: boolean;
  /** Stderr went past the cap. */
  stderrTruncated: boolean;
  /** Spawn to end of output, by `now`. */
  durationMs: number;
  /** What the child wrote to each `collect` descriptor, by its index in `extraFds` (others: empty). */
  collected: string[];
  /** Each `collect` descriptor went past its cap (the rest was dropped), by index. */
  collectedTruncated: boolean[];
  /** The process could not be started. */
  spawnError: string | null;
}

/** After the top process exits, how long stray holders of its pipes get before we stop reading. */
const PIPE_GRACE_MS = 500;

/**
 * Starts a process as the leader of its own process group, caps and drains its output, and
 * kills the whole group with SIGKILL at the timeout, on an output flood, and as soon as the
 * top process exits (so nothing it left in the background outlives the run). Never rejects.
 */
export function runSupervised(options: SupervisedSpawn): Promise<SupervisedOutcome> {
  const started = options.now();
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      const extra = options.extraFds ?? [];
      const [file, args] = options.hold ? ['/bin/sh', ['-c', HOLD_SCRIPT, 'packet-kit-hold', options.file, ...options.args]] : [options.file, [...options.args]];
      child = spawn(file, args, {
        cwd: options.cwd,
        env: { ...options.env },
        detached: true,
        stdio: [options.hold ? 'pipe' : 'ignore', 'pipe', 'pipe', ...extra.map((x) => (typeof x === 'object' && 'fd' in x ? x.fd : 'pipe'))],
        ...(options.ids ? { uid: options.ids.uid, gid: options.ids.gid } : {}),
      });
    } catch (error) {
      resolve(notStarted(error, options.now() - started));
      return;
    }

    const stdout = new CappedSink(options.outputLimitBytes);
    const stderr = new CappedSink(options.outputLimitBytes);
    let timedOut = false;
    let outputFlooded = false;
    let exit: { code: number | null; signal: string | null } | null = null;
    let spawnError: string | null = null;
    let settled = false;
    let graceTimer: NodeJS.Timeout | undefined;

    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    const watch = (stream: Readable | null | undefined, sink: CappedSink): void => {
      stream?.on('data', (chunk: Buffer) => {
        sink.push(chunk);
        if (sink.total > options.floodLimitBytes && !outputFlooded && exit === null) {
          outputFlooded = true;
          killGroup();
        }
      });
      stream?.on('error', () => {});
    };
    watch(child.stdout, stdout);
    watch(child.stderr, stderr);
    const extra = options.extraFds ?? [];
    const collected: Buffer[][] = extra.map(() => []);
    const kept: number[] = extra.map(() => 0);
    const cut: boolean[] = extra.map(() => false);
    extra.forEach((x, i) => {
      const stream = child.stdio[3 + i] as (Readable & { end?: (data: string | Uint8Array) => void; write?: (data: string) => boolean }) | null | undefined;
      stream?.on('error', () => {});
      if (typeof x === 'object' && 'converse' in x) {
        // Node opens a child's extra 'pipe' as a socket pair, so the child can read the answer on the same descriptor.
        let pending = '';
        let queue = Promise.resolve();
        stream?.on('data', (chunk: Buffer) => {
          pending = (pending + chunk.toString('utf8')).slice(-4096);
          const lines = pending.split('\n');
          pending = lines.pop() ?? '';
          for (const line of lines) {
            queue = queue.then(async () => {
              const answer = await Promise.resolve(x.converse(line, child.pid ?? 0)).catch(() => '');
              if (!settled) stream.write?.(`${answer.replace(/\n/g, ' ')}\n`);
            });
          }
        });
      } else if (x === 'collect' || 'collect' in x) {
        const limit = x === 'collect' ? 64 * 1024 : x.collect;
        stream?.on('data', (chunk: Buffer) => {
          const room = limit - kept[i]!;
          if (chunk.length > room) cut[i] = true;
          if (room <= 0) return;
          const piece = chunk.length <= room ? chunk : chunk.subarray(0, room);
          collected[i]!.push(piece);
          kept[i]! += piece.length;
        });
      } else if ('data' in x) {
        stream?.end?.(x.data);
      }
    });

    if (options.hold && child.pid !== undefined) {
      child.stdin?.on('error', () => {});
      const refused = options.hold(child.pid);
      if (refused === null) child.stdin?.end('go\n');
      else {
        spawnError = refused;
        killGroup();
      }
    }

    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);

    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      for (const stream of child.stdio) stream?.destroy();
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut,
        outputFlooded,
        stdout: stdout.text(),
        stderr: stderr.text(),
        stdoutTruncated: stdout.truncated,
        stderrTruncated: stderr.truncated,
        durationMs: Math.max(0, options.now() - started),
        collected: collected.map((chunks) => Buffer.concat(chunks).toString('utf8')),
        collectedTruncated: cut,
        spawnError,
      });
    };

    child.on('error', (error) => {
      spawnError ??= error.message;
      if (child.pid === undefined) finish();
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      clearTimeout(timer);
      killGroup();
      graceTimer = setTimeout(finish, PIPE_GRACE_MS);
    });
    child.on('close', finish);
  });
}

function notStarted(error: unknown, durationMs: number): SupervisedOutcome {
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    outputFlooded: false,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    durationMs,
    collected: [],
    collectedTruncated: [],
    spawnError: error instanceof Error ? error.message : String(error),
  };
}

/** Keeps the first `limit` bytes of a stream and counts the rest. */
class CappedSink {
  readonly limit: number;
  total = 0;
  private readonly chunks: Buffer[] = [];
  private kept = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.limit - this.kept;
    if (room <= 0) return;
    const piece = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.chunks.push(piece);
    this.kept += piece.length;
  }

  get truncated(): boolean {
    return this.total > this.limit;
  }

  /** The kept bytes as UTF-8, without a multi-byte character cut in half at the cap. */
  text(): string {
    const bytes = Buffer.concat(this.chunks);
    return bytes.subarray(0, this.truncated ? completeUtf8Length(bytes) : bytes.length).toString('utf8');
  }
}

function completeUtf8Length(bytes: Buffer): number {
  let start = bytes.length - 1;
  // Walk back over up to three continuation bytes to the lead byte of the last character.
  while (start >= 0 && bytes.length - start <= 4 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start -= 1;
  if (start < 0) return bytes.length;
  const lead = bytes[start] ?? 0;
  const width = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - start >= width ? bytes.length : start;
}
