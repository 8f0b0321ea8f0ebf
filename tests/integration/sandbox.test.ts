import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox-harness.ts';
import { BUBBLEWRAP_LINK_DIRS, BUBBLEWRAP_WORKSPACE, createBubblewrapSandbox, probeBubblewrap } from '../../src/sandbox/bubblewrap.ts';
import { createSandbox, DEFAULT_SECCOMP_CACHE_DIR } from '../../src/sandbox/create.ts';
import { DEFAULT_HOST_IDS } from '../../src/sandbox/host-user.ts';
import { findExecutable, type PythonInterpreter } from '../../src/sandbox/interpreters.ts';
import { buildSeccompFilter } from '../../src/sandbox/seccomp.ts';
import { selfTest, type SelfTestReport } from '../../src/sandbox/self-test.ts';
import type { Sandbox } from '../../src/sandbox/types.ts';
import { createUnconfinedSandbox } from '../../src/sandbox/unconfined.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/sandbox/', import.meta.url));
const sandbox = useSandbox('packet-kit-sandbox-test', 10_000);
const { tempDir, spec } = sandbox;
let python: PythonInterpreter;
let bwrap: Sandbox;
let bwrapSelfTest: SelfTestReport | null;

beforeAll(() => {
  ({ python, bwrap } = sandbox);
  bwrapSelfTest = sandbox.selfTest;
});

function uniqueMarker(): string {
  return `${300 + Math.floor(Math.random() * 100)}.${randomBytes(4).readUInt32BE(0)}`;
}

/** Host pids whose argv contains `marker`, from /proc. */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(marker)) found.push(Number(entry));
    } catch {
      // Exited while we looked.
    }
  }
  return found;
}

/** Waits up to two seconds for every process carrying `marker` to be gone; returns (and kills) the survivors. */
async function survivorsOf(marker: string): Promise<number[]> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    if (processesWith(marker).length === 0) return [];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const survivors = processesWith(marker);
  for (const pid of survivors) process.kill(pid, 'SIGKILL');
  return survivors;
}

async function withHostServer<T>(body: (port: number, connections: () => number) => Promise<T>): Promise<T> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  try {
    return await body(address.port, () => connections);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('bubblewrap sandbox', () => {
  it('passes its confinement self-test here', () => {
    expect(bwrap.kind).toBe('bubblewrap');
    expect(bwrapSelfTest?.ok).toBe(true);
    expect(bwrapSelfTest?.checks.map((check) => [check.name, check.ok])).toEqual([
      ['network', true],
      ['write-outside', true],
      ['environment', true],
      ['write-inside', true],
      ['uid', true],
      ['etc', true],
      ['processes', true],
      ['workspace-size', true],
      ['tmp-size', true],
      ['shm-size', true],
      ['seccomp', true],
      ['host-paths', true],
    ]);
  });

  it('kills a hanging command at the timeout and reports it', async () => {
    const marker = uniqueMarker();
    const result = await bwrap.run(spec(`sleep ${marker}`, { timeoutMs: 300 }));
    expect(result).toMatchObject({ kind: 'bubblewrap', timedOut: true, exitCode: null, signal: 'SIGKILL' });
    expect(result.durationMs).toBeLessThan(5_000);
    expect(await survivorsOf(marker)).toEqual([]);
  });

  it('leaves no background process behind when the command exits', async () => {
    const marker = uniqueMarker();
    const result = await bwrap.run(spec(`sleep ${marker} & kill -0 $! && echo alive; exit 0`));
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('alive\n');
    expect(await survivorsOf(marker)).toEqual([]);
  });

  it('leaves no daemon behind, even one that double-forked into its own session', async () => {
    const marker = `daemon-${randomBytes(6).toString('hex')}`;
    const work = tempDir('daemon');
    copyFileSync(join(FIXTURES, 'daemon.py'), join(work, 'daemon.py'));
    const command = [
      `python3 daemon.py ${marker}`,
      'for i in $(seq 100); do [ -s daemon.pid ] && break; sleep 0.02; done',
      'kill -0 "$(cat daemon.pid)" && echo daemon-alive',
    ].join('\n');
    const result = await bwrap.run(spec(command, { workdir: work }));
    expect(result.stdout).toBe('daemon-alive\n');
    expect(await survivorsOf(marker)).toEqual([]);
  });

  it('caps a stdout flood and kills the flooding tree', async () => {
    const result = await bwrap.run(spec('yes packet-kit', { outputLimitBytes: 4096 }));
    expect(result).toMatchObject({ outputFlooded: true, stdoutTruncated: true, timedOut: false, exitCode: null });
    expect(Buffer.byteLength(result.stdout)).toBeLessThanOrEqual(4096);
    expect(result.stdout.startsWith('packet-kit\npacket-kit\n')).toBe(true);
  });

  it('keeps draining past the cap so a chatty command still finishes', async () => {
    const result = await bwrap.run(
      spec(`head -c 100000 /dev/zero | tr '\\0' a; echo finished >&2`, { outputLimitBytes: 4096 }),
    );
    expect(result).toMatchObject({ exitCode: 0, stdoutTruncated: true, outputFlooded: false, stderr: 'finished\n' });
    expect(result.stdout).toBe('a'.repeat(4096));
  });

  it('denies writes outside the work directory, even after trying to remount', async () => {
    const outside = tempDir('outside');
    const command = [
      `mount -o remount,bind,rw ${outside} 2>/dev/null`,
      `echo escaped > ${outside}/escaped.txt || echo denied-outside`,
      'echo escaped > /etc/packet-kit-escaped.txt || echo denied-etc',
      'echo escaped > /dev/packet-kit-escaped.txt || echo denied-dev',
      'echo fine > inside.txt && cat inside.txt',
    ].join('\n');
    const work = tempDir('work');
    const result = await bwrap.run(spec(command, { workdir: work, readOnlyPaths: [...python.mounts.readOnlyPaths, outside] }));
    expect(result.stdout).toBe('denied-outside\ndenied-etc\ndenied-dev\nfine\n');
    expect(existsSync(join(outside, 'escaped.txt'))).toBe(false);
    expect(existsSync('/etc/packet-kit-escaped.txt')).toBe(false);
    // The work directory is a copy inside the sandbox: the host's stays as it was.
    expect(readdirSync(work)).toEqual([]);
  });

  it('copies the work directory in, modes and links kept, and never writes back', async () => {
    const work = tempDir('copy');
    mkdirSync(join(work, 'src', 'empty'), { recursive: true });
    writeFileSync(join(work, 'src', 'run.sh'), '#!/bin/sh\necho ran\n', { mode: 0o755 });
    writeFileSync(join(work, 'notes.txt'), 'original\n');
    symlinkSync('notes.txt', join(work, 'link.txt'));
    const command = 'src/run.sh; cat link.txt; [ -d src/empty ] && echo empty-kept; echo changed > notes.txt; rm src/run.sh; echo new > new.txt; ls';
    const result = await bwrap.run(spec(command, { workdir: work }));
    expect(result.stdout).toBe('ran\noriginal\nempty-kept\nlink.txt\nnew.txt\nnotes.txt\nsrc\n');
    expect(readFileSync(join(work, 'notes.txt'), 'utf8')).toBe('original\n');
    expect(readdirSync(work).sort()).toEqual(['link.txt', 'notes.txt', 'src']);
    expect(existsSync(join(work, 'src', 'run.sh'))).toBe(true);
  });

  it('refuses a work directory holding a FIFO, as data', async () => {
    const work = tempDir('fifo');
    execFileSync('mkfifo', [join(work, 'pipe')]);
    const result = await bwrap.run(spec('true', { workdir: work }));
    expect(result.error).toBe('the work directory holds pipe, which is neither a file, a folder nor a symlink');
  });

  it('shows no host file that was not mounted: not the repository, not host temp files', async () => {
    const hidden = tempDir('hidden');
    writeFileSync(join(hidden, 'secret.txt'), 'do not read\n');
    const repoFile = join(FIXTURES, 'daemon.py');
    const result = await bwrap.run(spec(`cat ${hidden}/secret.txt || echo tmp-hidden; cat ${repoFile} || echo repo-hidden`));
    expect(result.stdout).toBe('tmp-hidden\nrepo-hidden\n');
  });

  it("hides the host's home, except the way down to the mounted interpreter", async () => {
    const home = homedir();
    const allowed = [...python.mounts.pathPrepend, ...python.mounts.readOnlyPaths]
      .filter((path) => path.startsWith(`${home}/`))
      .map((path) => path.slice(home.length + 1).split('/')[0]);
    const result = await bwrap.run(spec(`ls -A ${home} 2>/dev/null; echo end`));
    const listed = result.stdout.trim().split('\n').filter((line) => line !== 'end');
    expect(listed.sort()).toEqual([...new Set(allowed)].sort());
  });

  it('denies a connection to a host service on 127.0.0.1', async () => {
    await withHostServer(async (port, connections) => {
      const work = tempDir('connect');
      copyFileSync(join(FIXTURES, 'connect_host.py'), join(work, 'connect_host.py'));
      const result = await bwrap.run(spec(`python3 connect_host.py ${port}`, { workdir: work }));
      expect(result.stdout).toMatch(/^refused:/);
      expect(connections()).toBe(0);
    });
  });

  it('reaches a server started inside on 127.0.0.1', async () => {
    const work = tempDir('loopback');
    copyFileSync(join(FIXTURES, 'loopback_echo.py'), join(work, 'loopback_echo.py'));
    const result = await bwrap.run(spec('python3 loopback_echo.py', { workdir: work }));
    expect(result.stdout).toBe('echo:ping\n');
  });

  it('clears the environment: a host secret is not visible, only the fixed variables are', async () => {
    const secret = `sk-test-${randomBytes(16).toString('hex')}`;
    process.env.PACKET_KIT_TEST_API_KEY = secret;
    try {
      const result = await bwrap.run(spec('env', { env: { EXTRA: 'given' } }));
      expect(result.stdout).not.toContain(secret);
      const names = result.stdout.trim().split('\n').map((line) => line.split('=')[0]).sort();
      expect(names).toEqual(['EXTRA', 'HOME', 'LANG', 'PATH', 'PWD', 'PYTHONDONTWRITEBYTECODE', 'PYTHONHASHSEED', 'TZ']);
      expect(result.stdout).toContain(`HOME=${BUBBLEWRAP_WORKSPACE}\n`);
      expect(result.stdout).toContain(`PATH=${BUBBLEWRAP_LINK_DIRS}/0:${python.binDir}:`); // the shim, recreated inside
    } finally {
      delete process.env.PACKET_KIT_TEST_API_KEY;
    }
  });

  it('runs the real interpreter, not the host shim', async () => {
    const result = await bwrap.run(spec('python3 -c "import os, sys; print(os.path.realpath(sys.executable))"'));
    expect(result.stdout.trim()).toBe(python.executable);
  });

  it('applies the rlimits, and the command cannot raise them', async () => {
    const work = tempDir('limits');
    const limits = { cpuSeconds: 7, addressSpaceMb: 1024, fileSizeMb: 1, openFiles: 64, processes: 50 };
    const command = [
      'ulimit -t; ulimit -v; ulimit -n; ulimit -u 2>/dev/null || ulimit -p',
      'ulimit -n 4096 2>/dev/null && echo raised || echo not-raised',
      '(head -c 3000000 /dev/zero > big.bin); status=$?',
      'stat -c %s big.bin',
      'exit $status',
    ].join('\n');
    const result = await bwrap.run(spec(command, { workdir: work, limits }));
    expect(result.stdout).toBe(`7\n${1024 * 1024}\n64\n50\nnot-raised\n${1024 * 1024}\n`);
    expect(result.exitCode).toBe(128 + 25); // SIGXFSZ killed head, sh reports 128 + signal
    expect(result.capHit).toBe('fileSize');
    // The exit status is the shell's (128 + SIGXFSZ), which `exit 153` could print too: a cap the run reports, marked so.
    expect(result.capReported).toBe(true);
    expect(result.capDetail).toBe("a file reached the file-size cap of 1 MiB, as the run's own output or exit status reports (no count of the kernel's confirms it)");
  });

  it('binds protected paths read-only inside the work directory: no write, delete, rename or new file', async () => {
    const work = tempDir('ro');
    mkdirSync(join(work, 'tests'));
    writeFileSync(join(work, 'tests', 'test_a.py'), 'original\n');
    writeFileSync(join(work, 'fixture.json'), '{}\n');
    const script = [
      'for step in "echo x > tests/test_a.py" "rm -f tests/test_a.py" "mv tests gone" "echo y > tests/conftest.py" "echo z > fixture.json" "rm -f fixture.json"; do',
      '  if sh -c "$step" 2>/dev/null; then echo "allowed: $step"; else echo "denied: $step"; fi',
      'done',
      'echo ok > free.txt && echo "free write ok"',
    ].join('\n');
    const result = await bwrap.run({ workdir: work, command: script, readOnlyInWorkdir: ['tests', 'fixture.json'] });
    expect(result.error).toBeUndefined();
    expect(result.stdout).not.toContain('allowed:');
    expect(result.stdout).toContain('free write ok');
    expect(readFileSync(join(work, 'tests', 'test_a.py'), 'utf8')).toBe('original\n');
    expect(existsSync(join(work, 'tests', 'conftest.py'))).toBe(false);
    expect(readFileSync(join(work, 'fixture.json'), 'utf8')).toBe('{}\n');
  });

  it('refuses a read-only path that escapes the work directory or goes through a symlink', async () => {
    const work = tempDir('ro-bad');
    symlinkSync('/etc', join(work, 'etc-link'));
    for (const rel of ['../x', '/etc/passwd', 'etc-link/passwd', 'missing.txt']) {
      const result = await bwrap.run({ workdir: work, command: 'true', readOnlyInWorkdir: [rel] });
      expect(result.error, rel).toMatch(/readOnlyInWorkdir entry/);
    }
  });

  it.runIf(process.geteuid?.() === 0)('as root, reaches a path under a folder the sandbox uid may not enter: through nsenter, else setpriv, else a refusal', async () => {
    const closed = tempDir('closed'); // 0700, root's: the sandbox's host uid may not enter it
    mkdirSync(join(closed, 'tool'), { mode: 0o755 });
    writeFileSync(join(closed, 'tool', 'hello.sh'), 'echo hello from a closed folder\n', { mode: 0o644 });
    const features = await probeBubblewrap('/usr/bin/bwrap');
    if (typeof features === 'string') throw new Error(features);
    const seccomp = () => buildSeccompFilter({ ccPath: findExecutable('cc', '/usr/bin:/bin'), cacheDir: DEFAULT_SECCOMP_CACHE_DIR, arch: process.arch });
    const outcomes: string[] = [];
    for (const tools of [{ nsenterPath: findExecutable('nsenter', '/usr/bin:/bin')! }, { setprivPath: findExecutable('setpriv', '/usr/bin:/bin')! }, {}]) {
      const box = createBubblewrapSandbox({ bwrapPath: '/usr/bin/bwrap', features, hostIds: DEFAULT_HOST_IDS, seccomp, ...tools });
      const result = await box.run({ workdir: tempDir('work'), command: `sh ${closed}/tool/hello.sh; id -u`, readOnlyPaths: [join(closed, 'tool')] });
      outcomes.push(result.error ?? result.stdout);
      await box.dispose?.();
    }
    expect(outcomes.slice(0, 2)).toEqual(['hello from a closed folder\n1000\n', 'hello from a closed folder\n1000\n']);
    expect(outcomes[2]).toMatch(/cannot reach .*\/tool, and neither nsenter nor setpriv \(util-linux\), which would let it, was found/);
  });

  it('reports a missing work directory as data, not an exception', async () => {
    const result = await bwrap.run({ workdir: '/nonexistent/packet-kit-work', command: 'true' });
    expect(result.error).toMatch(/workdir .* does not exist/);
    expect(result.exitCode).toBeNull();
  });
});

describe('unconfined sandbox', () => {
  const unconfined = createUnconfinedSandbox();

  it('says it is unconfined and runs in the host work directory', async () => {
    const work = tempDir('unconfined');
    const result = await unconfined.run({ workdir: work, command: 'pwd; echo "$HOME"' });
    expect(unconfined.kind).toBe('unconfined');
    expect(result).toMatchObject({ kind: 'unconfined', exitCode: 0, cwd: work, stdout: `${work}\n${work}\n` });
  });

  it('still clears the environment, times out and kills its process group', async () => {
    const secret = `sk-test-${randomBytes(16).toString('hex')}`;
    process.env.PACKET_KIT_TEST_API_KEY = secret;
    const marker = uniqueMarker();
    try {
      const result = await unconfined.run({
        workdir: tempDir('unconfined'),
        command: `env; sleep ${marker} & sleep 30`,
        timeoutMs: 300,
      });
      expect(result).toMatchObject({ kind: 'unconfined', timedOut: true, signal: 'SIGKILL' });
      expect(result.stdout).not.toContain(secret);
      expect(await survivorsOf(marker)).toEqual([]);
    } finally {
      delete process.env.PACKET_KIT_TEST_API_KEY;
    }
  });

  it('kills what the command left in the background when it exits', async () => {
    const marker = uniqueMarker();
    const result = await unconfined.run({ workdir: tempDir('unconfined'), command: `sleep ${marker} & kill -0 $! && echo alive` });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'alive\n', timedOut: false });
    expect(await survivorsOf(marker)).toEqual([]);
  });

  it('fails the self-test, so the self-test can go red', async () => {
    const report = await selfTest(unconfined, { mounts: python.mounts });
    expect(report.ok).toBe(false);
    const failed = report.checks.filter((check) => !check.ok).map((check) => check.name);
    expect(failed).toEqual(expect.arrayContaining(['network', 'write-outside', 'etc', 'processes', 'workspace-size', 'tmp-size', 'shm-size']));
    if (process.geteuid?.() === 0) expect(failed).toContain('uid');
    expect(failed).not.toContain('environment');
    expect(failed).not.toContain('write-inside');
  });

  it('cannot hold a daemon that leaves its session: the survivor scan sees it', async () => {
    // Shows that the daemon test above can fail: without a pid namespace the daemon survives.
    const marker = `daemon-${randomBytes(6).toString('hex')}`;
    const work = tempDir('unconfined-daemon');
    copyFileSync(join(FIXTURES, 'daemon.py'), join(work, 'daemon.py'));
    const command = `python3 daemon.py ${marker}; for i in $(seq 100); do [ -s daemon.pid ] && break; sleep 0.02; done`;
    await unconfined.run({ workdir: work, command, ...python.mounts });
    const survivors = processesWith(marker);
    for (const pid of survivors) process.kill(pid, 'SIGKILL');
    expect(survivors).toHaveLength(1);
  });
});

describe('createSandbox', () => {
  it('refuses, with what to do, when bubblewrap is missing and unconfined was not allowed', async () => {
    const result = await createSandbox({ allowUnconfined: false, searchPath: tempDir('empty-path') });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ name: 'SandboxUnavailable', reason: 'bwrap-missing' });
    expect(result.error.message).toMatch(/Refusing to run untrusted code: bubblewrap is not usable/);
    expect(result.error.message).toMatch(/Install bubblewrap/);
    expect(result.error.message).toMatch(/explicit unconfined flag/);
  });

  it('refuses when bwrap cannot be run', async () => {
    const result = await createSandbox({ allowUnconfined: false, bwrapPath: '/nonexistent/bwrap' });
    expect(result.ok ? 'ok' : result.error.reason).toBe('bwrap-missing');
  });

  it('falls back to unconfined only when told to, and says so', async () => {
    const result = await createSandbox({ allowUnconfined: true, searchPath: tempDir('empty-path') });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.sandbox.kind).toBe('unconfined');
    expect(result.notice).toMatch(/UNCONFINED because bubblewrap is not usable/);
  });
});
