import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox, SandboxMounts } from './types.ts';

/** One confinement check. */
export interface SelfTestCheck {
  /** Stable name: `network`, `write-outside`, `environment`, `write-inside`, or `run`. */
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
   * Paths that give the command a TCP client (an interpreter's mounts). Without them the
   * network probe uses `python3` or `bash` from the system paths, if there is one.
   */
  mounts?: SandboxMounts;
  /** Wall-clock limit of the probe run; default 15 000 ms. */
  timeoutMs?: number;
}

/**
 * Proves confinement by attack, in one run: (a) connect to a TCP server the host opened on
 * 127.0.0.1 (must fail, and the server must see nothing); (b) write into a host directory
 * made visible read-only, after trying to remount it read-write (must fail, and no file may
 * appear on the host); (c) read the environment while the host process holds a canary
 * variable (must not leak); (d) write into the work directory (must work).
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
  const listener = await listenOnLoopback();
  try {
    await writeFile(join(outside, 'host-file.txt'), 'host\n');
    process.env[canaryName] = canaryValue;
    let result;
    try {
      result = await sandbox.run({
        workdir,
        command: PROBE_COMMAND,
        env: { PROBE_PORT: String(listener.port), PROBE_OUTSIDE: outside },
        timeoutMs: options.timeoutMs ?? 15_000,
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
        : `writing into the host directory ${outside}: ${answer('outside')}`,
    });
    const leaked = result.stdout.includes(canaryValue) || answer('canary') !== 'absent';
    checks.push({
      name: 'environment',
      ok: !leaked,
      detail: leaked ? `the host variable ${canaryName} is visible inside` : `the host variable ${canaryName} is not visible inside`,
    });
    const insideText = existsSync(join(workdir, 'inside.txt')) ? readFileSync(join(workdir, 'inside.txt'), 'utf8') : '';
    checks.push({
      name: 'write-inside',
      ok: answer('inside') === 'wrote' && insideText === 'probe\n',
      detail:
        insideText === 'probe\n'
          ? 'a file written in the work directory reached the host'
          : `writing in the work directory: ${answer('inside')}, host saw ${JSON.stringify(insideText)}`,
    });
    return { ok: checks.every((check) => check.ok), checks };
  } finally {
    await listener.close();
    await rm(workdir, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  }
}

/** Each probe prints `key:answer`. The canary name is found by prefix, so the script need not know it. */
const PROBE_COMMAND = String.raw`
if env | grep -q '^PACKET_KIT_SELFTEST_CANARY_'; then echo canary:present; else echo canary:absent; fi
if echo probe > inside.txt 2>/dev/null; then echo inside:wrote; else echo inside:failed; fi
mount -o remount,bind,rw "$PROBE_OUTSIDE" >/dev/null 2>&1
if (echo escaped > "$PROBE_OUTSIDE/escaped.txt") 2>/dev/null; then echo outside:wrote; else echo outside:denied; fi
if command -v python3 >/dev/null 2>&1; then
  python3 -c '
import socket, sys
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=3).close()
    print("network:connected")
except OSError as error:
    print("network:refused (" + type(error).__name__ + ")")
' "$PROBE_PORT"
elif command -v bash >/dev/null 2>&1; then
  if bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$PROBE_PORT"' 2>/dev/null; then echo network:connected; else echo "network:refused (bash /dev/tcp)"; fi
else
  echo "network:untested (no python3 or bash inside to open a socket)"
fi
exit 0
`;

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
