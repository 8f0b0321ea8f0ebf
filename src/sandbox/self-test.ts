import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMemoryMb } from './caps.ts';
import { DEFAULT_LIMITS } from './limits.ts';
import type { Sandbox, SandboxMounts } from './types.ts';

/** One confinement check. */
export interface SelfTestCheck {
  /**
   * Stable name: `network`, `write-outside`, `environment`, `write-inside`, `uid`, `etc`,
   * `processes`, `workspace-size`, `tmp-size`, `shm-size`, `seccomp`, `host-paths`, `run-memory`
   * (only where runs have a cgroup of their own: `Sandbox.runCgroup`), or `run`.
   */
  name: string;
  /** The sandbox held (or, for `write-inside`, allowed what it must). */
  ok: boolean;
  /** What was observed, in a sentence. */
  detail: string;
}

/** The outcome of `selfTest`. */
export interface SelfTestReport {
  /** Every check passed. */
  ok: boolean;
  /** The checks in a fixed order. */
  checks: SelfTestCheck[];
}

/** Options for `selfTest`. */
export interface SelfTestOptions {
  /** Where to make the scratch directories; default `os.tmpdir()` at call time. */
  tmpDir?: string;
  /**
   * Paths that give the command a TCP client (an interpreter's mounts), for a system without
   * `bash`: the network probe uses bash's /dev/tcp (a few milliseconds), else `python3`.
   */
  mounts?: SandboxMounts;
  /** Wall-clock limit of the probe run; default 15 000 ms. */
  timeoutMs?: number;
}

/** The caps of the probe run: small, so that filling them is quick. */
export const PROBE_LIMITS = Object.freeze({ processes: 8, workspaceMb: 1, tmpMb: 1, shmMb: 1 });
/** What the probe tries to write into each capped mount: twice the cap. */
const FILL_BYTES = 2 * 1024 * 1024;
/** How many background processes the probe tries to start: three times the cap. */
const FORK_TRIES = 3 * PROBE_LIMITS.processes;

/**
 * Proves confinement by attack, in one run with small caps (`PROBE_LIMITS`): (a) connect to a
 * TCP server the host opened on 127.0.0.1 (must fail, and the server must see nothing);
 * (b) write into a host directory made visible read-only, after trying to remount it
 * read-write (must fail, and no file may appear on the host), and `/`, `/etc`, `/usr` and
 * `/dev` must not be writable; (c) read the environment while the host process holds a canary
 * variable (must not leak); (d) read a file of the work directory and write a new one (must
 * work); (e) the uid
 * inside is not 0 and holds no capability; (f) no shadow file is there to read, and
 * `/etc/passwd` lists no host user; (g) start more processes than the cap (must stop below
 * it: a run whose processes were root on the host would not be stopped); (h) write twice the
 * cap into `/workspace`, `/tmp` and `/dev/shm` (each must stop at its cap); (i) ptrace
 * (PTRACE_SEIZE, an attach that stops nothing) pid 1 and unshare a user namespace (each must fail with EPERM, the seccomp
 * filter's answer: without it the first succeeds and the second fails otherwise); (j) read
 * `/proc/self/mountinfo` and `PATH` (neither may name a path under the scratch folder, the
 * work directory or the host's home, but for the paths the run asked to see); (k) where each
 * run has a cgroup of its own (`Sandbox.runCgroup`), a second run proves its memory cap holds
 * (`runMemoryCheck`).
 *
 * For (c) the canary is set in `process.env` for the duration of the run and removed after:
 * an implementation that forgot to clear the environment would inherit it from there.
 */
export async function selfTest(sandbox: Sandbox, options: SelfTestOptions = {}): Promise<SelfTestReport> {
  const base = options.tmpDir ?? tmpdir();
  const workdir = await mkdtemp(join(base, 'packet-kit-selftest-work-'));
  const outside = await mkdtemp(join(base, 'packet-kit-selftest-outside-'));
  const canaryName = `PACKET_KIT_SELFTEST_CANARY_${randomBytes(4).toString('hex').toUpperCase()}`;
  const canaryValue = `canary-${randomBytes(12).toString('hex')}`;
  const seed = `seed-${randomBytes(6).toString('hex')}`;
  const tag = randomBytes(6).toString('hex');
  const listener = await listenOnLoopback();
  try {
    await writeFile(join(outside, 'host-file.txt'), 'host\n');
    await writeFile(join(workdir, 'seed.txt'), `${seed}\n`);
    process.env[canaryName] = canaryValue;
    let result;
    try {
      result = await sandbox.run({
        workdir,
        command: PROBE_COMMAND,
        env: { PROBE_PORT: String(listener.port), PROBE_OUTSIDE: outside, PROBE_FILL: String(FILL_BYTES), PROBE_FORKS: String(FORK_TRIES), PROBE_TAG: tag },
        timeoutMs: options.timeoutMs ?? 15_000,
        limits: PROBE_LIMITS,
        pathPrepend: options.mounts?.pathPrepend ?? [],
        readOnlyPaths: [...(options.mounts?.readOnlyPaths ?? []), outside],
      });
    } finally {
      delete process.env[canaryName];
    }
    if (result.error !== undefined || result.exitCode !== 0) {
      const why = result.error ?? `the probe exited with ${result.exitCode ?? result.signal}: ${result.stderr.trim()}`;
      return { ok: false, checks: [{ name: 'run', ok: false, detail: `the probe did not run: ${why}` }] };
    }
    const lines = result.stdout.split('\n');
    const answer = (key: string): string =>
      lines.find((line) => line.startsWith(`${key}:`))?.slice(key.length + 1) ?? 'no answer';

    const checks: SelfTestCheck[] = [];
    const net = answer('network');
    const reached = listener.connections() > 0;
    checks.push({
      name: 'network',
      ok: net.startsWith('refused') && !reached,
      detail: reached
        ? `the host server on 127.0.0.1:${listener.port} accepted a connection from inside (${net})`
        : `connecting to the host's 127.0.0.1:${listener.port} from inside: ${net}`,
    });
    const wroteOutside = existsSync(join(outside, 'escaped.txt'));
    checks.push({
      name: 'write-outside',
      ok: answer('outside') === 'denied' && !wroteOutside,
      detail: wroteOutside
        ? `a file appeared in the host directory ${outside}`
        : `writing into the host directory ${outside}, /etc, /dev and /usr: ${answer('outside')}`,
    });
    const leaked = result.stdout.includes(canaryValue) || answer('canary') !== 'absent';
    checks.push({
      name: 'environment',
      ok: !leaked,
      detail: leaked ? `the host variable ${canaryName} is visible inside` : `the host variable ${canaryName} is not visible inside`,
    });
    const inside = answer('inside');
    checks.push({
      name: 'write-inside',
      ok: inside === `read ${seed}, wrote`,
      detail: inside === `read ${seed}, wrote` ? 'a file of the work directory was readable inside, and a new one writable' : `in the work directory: ${inside}`,
    });
    const uid = answer('uid');
    const caps = answer('caps');
    checks.push({
      name: 'uid',
      ok: /^\d+$/.test(uid) && uid !== '0' && /^0+$/.test(caps),
      detail: `the command runs as uid ${uid} with capabilities ${caps}`,
    });
    const etc = answer('etc');
    checks.push({ name: 'etc', ok: etc === 'clean', detail: etc === 'clean' ? 'no shadow file inside, and /etc/passwd lists only the sandbox user' : `in /etc: ${etc}` });
    const forks = Number(answer('forks'));
    checks.push({
      name: 'processes',
      ok: Number.isInteger(forks) && forks > 0 && forks < PROBE_LIMITS.processes,
      detail:
        `with a cap of ${PROBE_LIMITS.processes} processes, ${answer('forks')} of ${FORK_TRIES} background processes started` +
        (forks >= PROBE_LIMITS.processes ? ' (RLIMIT_NPROC does not hold them: are they root on the host?)' : ''),
    });
    for (const [name, file, cap] of [
      ['workspace-size', `fill-${tag}`, PROBE_LIMITS.workspaceMb],
      ['tmp-size', `/tmp/fill-${tag}`, PROBE_LIMITS.tmpMb],
      ['shm-size', `/dev/shm/fill-${tag}`, PROBE_LIMITS.shmMb],
    ] as const) {
      const size = lines.find((line) => line.startsWith(`size:${file} `))?.split(' ')[1];
      const bytes = Number(size);
      checks.push({
        name,
        ok: Number.isInteger(bytes) && bytes > 0 && bytes <= cap * 1024 * 1024,
        detail: `writing ${FILL_BYTES} bytes into ${file} with a cap of ${cap} MiB: ${size === undefined ? 'no answer' : `${size} bytes written`}`,
      });
    }
    const seccomp = answer('seccomp');
    checks.push({
      name: 'seccomp',
      ok: seccomp === 'ptrace EPERM, unshare EPERM',
      detail: `ptrace(PTRACE_SEIZE, 1) and unshare(CLONE_NEWUSER) inside: ${seccomp}`,
    });
    const seen = lines.filter((line) => line.startsWith('mountinfo:')).flatMap((line) => line.slice('mountinfo:'.length).split(' '));
    seen.push(...answer('path').split(':'));
    const asked = [...(options.mounts?.readOnlyPaths ?? []), outside];
    const leaks = hostPathLeaks(seen, [base, workdir, homedir()], asked);
    checks.push({
      name: 'host-paths',
      ok: leaks.length === 0 && seen.length > 2,
      detail: leaks.length > 0 ? `/proc/self/mountinfo or PATH inside names host paths: ${leaks.join(', ')}` : `/proc/self/mountinfo and PATH inside name nothing under ${base}, the work directory or the host's home but the paths the run asked for`,
    });
    if (sandbox.runCgroup) checks.push(await runMemoryCheck(sandbox, base, options.timeoutMs ?? 15_000));
    return { ok: checks.every((check) => check.ok), checks };
  } finally {
    await listener.close();
    await rm(workdir, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  }
}

/** The caps of the run-memory probe: its cgroup's memory.max is 64 MiB (`runMemoryMb`). */
export const MEMORY_PROBE_LIMITS = Object.freeze({ processes: 16, addressSpaceMb: 64, workspaceMb: 1, tmpMb: 1, shmMb: 1 });
const MEMORY_PROBE_HOLDERS = 5;
const MEMORY_PROBE_MIB = 24;

/**
 * (k) Where each run has a cgroup: five processes, each under the per-process cap, hold 24 MiB
 * apiece (dd's buffer, filled from /dev/zero, held while dd blocks on a FIFO no one reads), 120
 * MiB in a run capped at 64 MiB. The kernel must kill at least one of them: the run's
 * memory.events counts an oom_kill. Without the cgroup all five would live.
 */
async function runMemoryCheck(sandbox: Sandbox, base: string, timeoutMs: number): Promise<SelfTestCheck> {
  const command = [
    'mkfifo /tmp/hold && exec 3<>/tmp/hold || exit 1',
    `for i in $(seq ${MEMORY_PROBE_HOLDERS}); do dd if=/dev/zero of=/tmp/hold bs=${MEMORY_PROBE_MIB}M count=2 2>/dev/null & done`,
    'sleep 0.5',
    'exit 0',
  ].join('\n');
  // An empty work directory: nothing copied in, so the cgroup's memory.max is the cap alone.
  const workdir = await mkdtemp(join(base, 'packet-kit-selftest-memory-'));
  const result = await sandbox.run({ workdir, command, timeoutMs, limits: MEMORY_PROBE_LIMITS }).finally(() => rm(workdir, { recursive: true, force: true }));
  const kills = result.cgroup?.oomKills ?? 0;
  const total = MEMORY_PROBE_HOLDERS * MEMORY_PROBE_MIB;
  const cap = runMemoryMb({ ...DEFAULT_LIMITS, ...MEMORY_PROBE_LIMITS });
  return {
    name: 'run-memory',
    ok: result.error === undefined && kills > 0,
    detail: result.error
      ? `the run-memory probe did not run: ${result.error}`
      : `${MEMORY_PROBE_HOLDERS} processes holding ${MEMORY_PROBE_MIB} MiB each (${total} MiB) in a run capped at ${cap} MiB: ${kills > 0 ? `the kernel killed ${kills} (memory.events oom_kill ${kills})` : 'none was killed (the cgroup does not hold)'}`,
  };
}

/**
 * Each probe prints `key:answer`. The canary name is found by prefix, so the script need not
 * know it. Everything but the network client, the fills and their sizes, the FIFO and the
 * fork loop's shell is a shell builtin, to keep the probe fast; nothing is written outside the
 * work directory and the probe's own scratch folder but the fills, which an unconfined run
 * removes. The fork loop runs in its own shell, since a shell whose fork fails gives up; its
 * background processes wait on a FIFO and end with the sandbox.
 */
const PROBE_COMMAND = String.raw`
case "$(export -p)" in *PACKET_KIT_SELFTEST_CANARY_*) echo canary:present;; *) echo canary:absent;; esac
seed=unread
if { read -r seed < seed.txt; } 2>/dev/null && echo probe > inside.txt 2>/dev/null && { read -r back < inside.txt; } && [ "$back" = probe ]; then
  echo "inside:read $seed, wrote"
else
  echo "inside:failed (seed: $seed)"
fi
while read -r key value _; do
  case "$key" in Uid:) echo "uid:$value";; CapEff:) echo "caps:$value";; esac
done < /proc/self/status
etc=clean
while IFS=: read -r name _ uid _; do
  case "$uid" in 1000|65534) ;; *) etc="/etc/passwd lists $name ($uid)";; esac
done < /etc/passwd
for f in /etc/shadow /etc/gshadow /etc/shadow- /etc/gshadow-; do
  if [ -e "$f" ] || [ -L "$f" ]; then
    if ( : < "$f" ) 2>/dev/null; then etc="$f is readable"; else etc="$f is there"; fi
  fi
done
echo "etc:$etc"
mount -o remount,bind,rw "$PROBE_OUTSIDE" >/dev/null 2>&1
outside=denied
if (echo escaped > "$PROBE_OUTSIDE/escaped.txt") 2>/dev/null; then outside="wrote into $PROBE_OUTSIDE"; fi
for dir in / /etc /usr /dev; do
  if [ -w "$dir" ]; then outside="$dir is writable"; fi
done
echo "outside:$outside"
if command -v bash >/dev/null 2>&1; then
  if bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$PROBE_PORT"' 2>/dev/null; then echo network:connected; else echo "network:refused (bash /dev/tcp)"; fi
elif command -v python3 >/dev/null 2>&1; then
  python3 -c '
import socket, sys
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=3).close()
    print("network:connected")
except OSError as error:
    print("network:refused (" + type(error).__name__ + ")")
' "$PROBE_PORT"
else
  echo "network:untested (no bash or python3 inside to open a socket)"
fi
echo "path:$PATH"
while read -r _ _ _ root point _; do echo "mountinfo:$root $point"; done < /proc/self/mountinfo
if command -v python3 >/dev/null 2>&1; then
  python3 -c '
import ctypes, errno, os
libc = ctypes.CDLL(None, use_errno=True)
def outcome(result):
    return "succeeded" if result != -1 else errno.errorcode.get(ctypes.get_errno(), "errno %d" % ctypes.get_errno())
# Only pid 1 of a sandbox: outside one (the unconfined sandbox) it would be the init of the host.
if os.getcwd() == "/workspace":
    # PTRACE_SEIZE: like PTRACE_ATTACH, but should it hold, it stops nothing, and ends with this process.
    ptrace = outcome(libc.ptrace(0x4206, 1, None, None))
else:
    ptrace = "untested (not in a sandbox)"
print("seccomp:ptrace %s, unshare %s" % (ptrace, outcome(libc.unshare(0x10000000))))  # CLONE_NEWUSER
'
else
  echo "seccomp:untested (no python3 inside)"
fi
tag=$PROBE_TAG
head -c "$PROBE_FILL" /dev/zero 2>/dev/null | tee "/tmp/fill-$tag" "/dev/shm/fill-$tag" > "fill-$tag" 2>/dev/null
stat -c 'size:%n %s' "fill-$tag" "/tmp/fill-$tag" "/dev/shm/fill-$tag" 2>/dev/null
mkfifo "/tmp/forks-$tag" 2>/dev/null
forks=$(/bin/sh -c 'exec 3<>"$1"; i=0; while [ $i -lt "$PROBE_FORKS" ]; do ( read -r _ <&3 ) >/dev/null 2>&1 & i=$((i+1)); echo $i; done' probe "/tmp/forks-$tag" 2>/dev/null)
last=none
for n in $forks; do last=$n; done
echo "forks:$last"
# Outside a sandbox (the unconfined one, which the tests also probe) the fills are the host's: remove them.
if [ "$PWD" != /workspace ]; then rm -f "/tmp/fill-$tag" "/dev/shm/fill-$tag" "/tmp/forks-$tag"; fi
exit 0
`;

/**
 * The paths in `seen` that lie under one of `hidden` (the host's scratch folder, home,
 * ...) and not on or under one of `asked` (the paths a run was given to see). Sorted, once each.
 */
export function hostPathLeaks(seen: readonly string[], hidden: readonly string[], asked: readonly string[]): string[] {
  const below = (path: string, root: string) => root !== '/' && path.startsWith(`${root.replace(/\/+$/, '')}/`);
  return [...new Set(seen.filter((path) => hidden.some((root) => below(path, root)) && !asked.some((root) => path === root || below(path, root))))].sort();
}

interface LoopbackListener {
  port: number;
  connections(): number;
  close(): Promise<void>;
}

function listenOnLoopback(): Promise<LoopbackListener> {
  return new Promise((resolve, reject) => {
    let count = 0;
    const server: Server = createServer((socket) => {
      count += 1;
      socket.destroy();
    });
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      resolve({
        port,
        connections: () => count,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
