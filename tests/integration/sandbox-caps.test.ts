/**
 * Negative tests of the sandbox's hardening, one per hole it closed, named as nsjail's and
 * CodeJail's are (`cant_<do what an attacker would>`). Each uses small caps (a few MiB, a few
 * dozen processes) so it is quick and never loads the machine, even if the cap it tests broke:
 * the fork tests start at most 200 processes that only wait, the fills write at most 24 MiB.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox-harness.ts';
import { detectCgroupDelegation } from '../../src/sandbox/cgroup.ts';
import { createSandbox } from '../../src/sandbox/create.ts';
import type { PythonInterpreter } from '../../src/sandbox/interpreters.ts';
import { removeStaleScratch, SCRATCH_MARKER } from '../../src/sandbox/scratch.ts';
import type { Sandbox } from '../../src/sandbox/types.ts';

const SCRATCH_OWNER = fileURLToPath(new URL('../fixtures/sandbox/scratch-owner.ts', import.meta.url));
const sandbox = useSandbox('packet-kit-caps-test', 20_000);
const { tempDir, spec } = sandbox;
let python: PythonInterpreter;
let bwrap: Sandbox;

beforeAll(() => {
  ({ python, bwrap } = sandbox);
});

/**
 * Starts up to `tries` processes that wait on a FIFO (no CPU, a few pages each), in a child
 * shell (a shell whose fork fails gives up), and prints how many started. Exits 1 when a fork
 * failed, like a test whose worker could not start.
 */
function forkProbe(tries: number): string {
  return [
    'mkfifo /tmp/wait',
    `n=$(/bin/sh -c 'exec 3<>/tmp/wait; i=0; while [ $i -lt ${tries} ]; do ( read -r _ <&3 ) >/dev/null 2>&1 & i=$((i+1)); echo $i; done')`,
    'last=0; for i in $n; do last=$i; done',
    'echo "started $last"',
    `[ "$last" -eq ${tries} ]`,
  ].join('\n');
}

const started = (stdout: string) => Number(/started (\d+)/.exec(stdout)?.[1]);

describe('sandbox hardening (negative tests)', () => {
  it('cant_run_as_root: the command is an unprivileged uid without capabilities, inside and on the host', async () => {
    const marker = `${400 + Math.floor(Math.random() * 100)}.${process.pid}`;
    const run = bwrap.run(spec(`id -u; grep CapEff /proc/self/status; sleep ${marker}`, { timeoutMs: 20_000 }));
    // Find the sleeping process on the host and read its real uid there.
    let hostUid: string | undefined;
    for (let attempt = 0; attempt < 200 && hostUid === undefined; attempt += 1) {
      for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
        try {
          if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(marker)) continue;
          hostUid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1];
          process.kill(Number(entry), 'SIGKILL');
        } catch {
          // Gone meanwhile.
        }
      }
      if (hostUid === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const result = await run;
    expect(result.stdout).toBe('1000\nCapEff:\t0000000000000000\n');
    expect(hostUid).toBeDefined();
    expect(hostUid).not.toBe('0');
    expect(Number(hostUid)).toBe(process.getuid?.() === 0 ? 64_533 : process.getuid?.());
  });

  it("cant_read_shadow: /etc holds no shadow file and none of the host's users", async () => {
    expect(existsSync('/etc/shadow')).toBe(true); // on the host, the file the sandbox must not show
    const result = await bwrap.run(spec('cat /etc/shadow /etc/gshadow 2>&1; cut -d: -f1,3 /etc/passwd; ls /etc'));
    expect(result.stdout).toContain('cat: /etc/shadow: No such file or directory');
    expect(result.stdout).toContain('cat: /etc/gshadow: No such file or directory');
    expect(result.stdout).toContain('sandbox:1000\nnobody:65534\n');
    expect(result.stdout).not.toMatch(/^root:/m);
    const listed = result.stdout.split('\n').slice(result.stdout.split('\n').indexOf('nobody:65534') + 1).filter(Boolean);
    expect(listed).toEqual(expect.arrayContaining(['group', 'hosts', 'ld.so.cache', 'nsswitch.conf', 'passwd']));
    expect(listed.filter((name) => /shadow|ssh|ssl|sudoers|security/.test(name))).toEqual([]);
  });

  it('cant_read_ssl_keys: CA certificates only when a run asks for them, and never the private keys', async () => {
    const command = 'ls /etc/ssl/certs >/dev/null 2>&1 && echo certs || echo no-certs; ls /etc/ssl/private >/dev/null 2>&1 && echo private || echo no-private';
    expect((await bwrap.run(spec(command))).stdout).toBe('no-certs\nno-private\n');
    expect((await bwrap.run(spec(command, { certificates: true }))).stdout).toBe('certs\nno-private\n');
  });

  it('cant_fork_bomb: a run starts no more processes than its cap, and the cap is named', async () => {
    const result = await bwrap.run(spec(forkProbe(200), { limits: { processes: 32 } }));
    expect(started(result.stdout)).toBeGreaterThan(0);
    expect(started(result.stdout)).toBeLessThan(32);
    expect(result).toMatchObject({ exitCode: 1, capHit: 'processes', timedOut: false });
    expect(result.capDetail).toMatch(/capped at 32 processes/);
  });

  it('cant_fork_bomb, in parallel: each run has its own process budget', async () => {
    const [a, b] = await Promise.all([
      bwrap.run(spec(forkProbe(24), { limits: { processes: 32 } })),
      bwrap.run(spec(forkProbe(24), { limits: { processes: 32 } })),
    ]);
    // Together they hold 48 waiting processes, more than one budget of 32: neither was stopped.
    expect([a.stdout, b.stdout]).toEqual(['started 24\n', 'started 24\n']);
    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
  });

  it('cant_fill_workspace: files of any size stop at the workspace cap, and the host disk never sees them', async () => {
    const work = tempDir('fill');
    writeFileSync(join(work, 'keep.txt'), 'keep\n');
    // Four files of 3 MiB, each under the file-size cap: the third one hits the 8 MiB workspace.
    const command = 'for i in 1 2 3 4; do head -c 3145728 /dev/zero > part$i.bin || exit 1; done';
    const result = await bwrap.run(spec(command, { workdir: work, limits: { workspaceMb: 8 } }));
    expect(result).toMatchObject({ exitCode: 1, capHit: 'workspace', capDetail: 'the workspace (/workspace, 8 MiB) is full' });
    expect(result.stderr).toMatch(/No space left on device/);
    expect(readdirSync(work)).toEqual(['keep.txt']);
  });

  it('cant_fill_workspace before it starts: a work directory larger than the cap is refused, as data', async () => {
    const work = tempDir('big');
    writeFileSync(join(work, 'big.bin'), Buffer.alloc(3 * 1024 * 1024));
    const result = await bwrap.run(spec('echo ran', { workdir: work, limits: { workspaceMb: 2 } }));
    expect(result).toMatchObject({ exitCode: null, stdout: '', capHit: 'workspace' });
    expect(result.error).toBe('the work directory holds 3.0 MiB, more than the workspace cap of 2 MiB, so the command was not started');
  });

  it('cant_fill_dev_shm: /dev/shm stops at its cap, and /dev itself takes no file', async () => {
    const command = 'echo x > /dev/escape || echo dev-denied; head -c 20000000 /dev/zero > /dev/shm/fill; status=$?; stat -c %s /dev/shm/fill; exit $status';
    const result = await bwrap.run(spec(command, { limits: { shmMb: 8 } }));
    expect(result.stdout).toBe(`dev-denied\n${8 * 1024 * 1024}\n`);
    expect(result).toMatchObject({ exitCode: 1, capHit: 'shm', capDetail: '/dev/shm (8 MiB) is full' });
  });

  it('cant_claim_a_full_dev_shm: a run that only prints "No space left on device" beside /dev/shm is told no cap', async () => {
    const command = `echo "OSError: [Errno 28] No space left on device: '/dev/shm/x'" >&2; exit 1`;
    const result = await bwrap.run(spec(command, { limits: { shmMb: 8 } }));
    expect(result).toMatchObject({ exitCode: 1, timedOut: false });
    expect(result.capHit).toBeUndefined();
    expect(result.capDetail).toBeUndefined();
  });

  it("cant_claim_a_cap_unconfirmed: a cap the run's own output tells of is marked as reported, and a measured one is not", async () => {
    const printed = await bwrap.run(spec('echo MemoryError >&2; exit 1'));
    expect(printed).toMatchObject({ capHit: 'memory', capReported: true });
    expect(printed.capDetail).toMatch(/as the run's own output or exit status reports \(no count of the kernel's confirms it\)$/);
    const filled = await bwrap.run(spec('head -c 20000000 /dev/zero > /tmp/fill; echo MemoryError >&2; exit 1', { limits: { tmpMb: 4 } }));
    expect(filled).toMatchObject({ capHit: 'tmp', capDetail: '/tmp (4 MiB) is full' });
    expect(filled.capReported).toBeUndefined();
  });

  it("cant_claim_a_full_dev_shm by blocking the kit's probe file: the kit measures free space, not a write", async () => {
    const command = 'mkdir /dev/shm/.packet-kit-room /tmp/.packet-kit-room .packet-kit-room; echo "No space left on device" >&2; exit 1';
    const result = await bwrap.run(spec(command, { limits: { shmMb: 8 } }));
    expect(result).toMatchObject({ exitCode: 1, timedOut: false });
    expect(result.capHit).toBeUndefined();
  });

  it('cant_fill_dev_shm, quietly: a /dev/shm really filled is named full though the run printed nothing', async () => {
    const command = 'head -c 20000000 /dev/zero > /dev/shm/fill 2>/dev/null; exit 3';
    const result = await bwrap.run(spec(command, { limits: { shmMb: 4 } }));
    expect(result).toMatchObject({ exitCode: 3, stderr: '', capHit: 'shm', capDetail: '/dev/shm (4 MiB) is full' });
  });

  it('cant_fill_tmp: /tmp stops at its cap', async () => {
    const command = 'head -c 20000000 /dev/zero > /tmp/fill; status=$?; stat -c %s /tmp/fill; exit $status';
    const result = await bwrap.run(spec(command, { limits: { tmpMb: 8 } }));
    expect(result.stdout).toBe(`${8 * 1024 * 1024}\n`);
    expect(result).toMatchObject({ exitCode: 1, capHit: 'tmp' });
  });

  it('cant_exceed_memory: an allocation past the memory cap fails, and the cap is named', async () => {
    const result = await bwrap.run(spec('python3 -c "b = bytearray(512 * 1024 * 1024)"', { limits: { addressSpaceMb: 256 } }));
    expect(result.stderr).toMatch(/MemoryError/);
    expect(result).toMatchObject({ exitCode: 1, capHit: 'memory' });
    expect(result.capDetail).toMatch(/256 MiB of memory/);
  });

  it("cant_exceed_run_memory: where cgroup v2 is delegated the run's total memory is capped and the self-test proved it; elsewhere the sandbox says so once", async () => {
    // One branch or the other runs on every machine, decided by the same detection the sandbox uses.
    const delegation = detectCgroupDelegation();
    if (!delegation.available) {
      expect(bwrap.runCgroup).toBe(false);
      expect(sandbox.notes).toEqual([`no cgroup caps a run's total memory and processes (${delegation.reason}); each process keeps its own caps (memory, processes, CPU), but their sum is not capped.`]);
      expect(sandbox.selfTest!.checks.map((c) => c.name)).not.toContain('run-memory');
      const result = await bwrap.run(spec('exit 0'));
      expect(result.cgroup).toBeUndefined();
      return;
    }
    expect(bwrap.runCgroup).toBe(true);
    expect(sandbox.notes).toEqual([]);
    expect(sandbox.selfTest!.checks.find((c) => c.name === 'run-memory')).toMatchObject({ ok: true, detail: expect.stringMatching(/the kernel killed \d+/) });
    // Four processes of 48 MiB each, each under its own 96 MiB cap, in a run capped at 96 MiB.
    const command = 'mkfifo /tmp/hold && exec 3<>/tmp/hold; for i in 1 2 3 4; do dd if=/dev/zero of=/tmp/hold bs=48M count=2 2>/dev/null & done; sleep 0.5; exit 1';
    const result = await bwrap.run(spec(command, { limits: { addressSpaceMb: 96, workspaceMb: 1, tmpMb: 1, shmMb: 1 } }));
    expect(result.cgroup!.oomKills).toBeGreaterThan(0);
    expect(result).toMatchObject({ exitCode: 1, capHit: 'runMemory' });
    expect(result.capDetail).toMatch(/memory cap of 96 MiB/);
  });

  it('cant_trust_a_cgroup_that_does_not_hold: a delegated cgroup whose cap kills nothing fails the self-test, and no sandbox is given', async () => {
    // A fake /proc and /sys that show a delegated cgroup v2: plain folders, so nothing is capped.
    const root = tempDir('fake-cgroup');
    const scope = join(root, 'sys/fs/cgroup/kit.scope');
    mkdirSync(join(root, 'proc/self'), { recursive: true });
    mkdirSync(scope, { recursive: true });
    writeFileSync(join(root, 'proc/self/cgroup'), '0::/kit.scope\n');
    writeFileSync(join(root, 'proc/self/mountinfo'), '30 23 0:26 / /sys/fs/cgroup rw,relatime - cgroup2 cgroup2 rw\n');
    writeFileSync(join(scope, 'cgroup.controllers'), 'memory pids\n');
    writeFileSync(join(scope, 'cgroup.subtree_control'), 'memory pids\n');
    const created = await createSandbox({ allowUnconfined: false, selfTestMounts: python.mounts, cgroupRoot: root });
    expect(created.ok).toBe(false);
    if (created.ok) return;
    // Every run went through the hold and into its cgroup folder; only the cap's proof failed.
    const failed = created.error.checks.filter((c) => !c.ok);
    expect(failed).toEqual([{ name: 'run-memory', ok: false, detail: '5 processes holding 24 MiB each (120 MiB) in a run capped at 64 MiB: none was killed (the cgroup does not hold)' }]);
    const runs = readdirSync(scope).filter((name) => name.startsWith('packet-kit-run-'));
    expect(runs).toHaveLength(2);
    for (const run of runs) expect(readFileSync(join(scope, run, 'cgroup.procs'), 'utf8')).toMatch(/^\d+$/);
    // The memory probe's cap alone; the confinement probe's default cap plus its work directory's one small file (a page of tmpfs).
    expect(runs.map((run) => readFileSync(join(scope, run, 'memory.max'), 'utf8')).sort()).toEqual([String(4096 * 1024 * 1024 + 4096), String(64 * 1024 * 1024)]);
    expect(runs.map((run) => readFileSync(join(scope, run, 'pids.max'), 'utf8')).sort()).toEqual(['16', '24']);
  });

  it("cant_leave_files_behind: a run killed at its timeout leaves nothing in the host's work directory", async () => {
    const work = tempDir('killed');
    writeFileSync(join(work, 'input.txt'), 'input\n');
    const result = await bwrap.run(spec('echo out > output.txt; head -c 1000000 /dev/zero > /tmp/t; sleep 30', { workdir: work, timeoutMs: 500 }));
    expect(result.timedOut).toBe(true);
    expect(readdirSync(work)).toEqual(['input.txt']);
  });
});

/**
 * Calls a libc function by ctypes inside and prints `name result` (`ok` or the errno's name),
 * as test code that tries an escape would see it.
 */
function syscallProbe(calls: Record<string, string>): string {
  const lines = [
    'import ctypes, errno',
    'libc = ctypes.CDLL(None, use_errno=True)',
    'def attach(pid):', // PTRACE_SEIZE: should it hold, it stops nothing, and ends with the tracer
    '    return libc.ptrace(0x4206, pid, None, None)',
    'def say(name, result):',
    '    print(name, "ok" if result != -1 else errno.errorcode.get(ctypes.get_errno(), ctypes.get_errno()))',
    ...Object.entries(calls).map(([name, call]) => `say(${JSON.stringify(name)}, ${call})`),
  ];
  return `python3 -c '${lines.join('\n')}'`;
}

/** The raw syscall numbers below are x86_64's. */
describe('the seccomp filter (negative tests)', () => {
  it.runIf(process.arch === 'x64')('cant_ptrace: attaching to another process, or reading its memory, fails with EPERM', async () => {
    const command = `sleep 30 & echo $! > /tmp/pid; ${syscallProbe({
      attach_init: 'attach(1)',
      attach_sibling: 'attach(int(open("/tmp/pid").read()))',
      vm_read: 'libc.syscall(310, 1, None, 0, None, 0, 0)',
    })}`;
    const result = await bwrap.run(spec(command));
    expect(result.stdout).toBe('attach_init EPERM\nattach_sibling EPERM\nvm_read EPERM\n');
  });

  it.runIf(process.arch === 'x64')('cant_unshare: no new namespace, by unshare, setns or clone with namespace flags', async () => {
    const command = syscallProbe({
      unshare_user: 'libc.unshare(0x10000000)',
      unshare_net: 'libc.unshare(0x40000000)',
      setns: 'libc.setns(0, 0)',
      clone_newuser: 'libc.syscall(56, 0x10000000 | 17, None, None, None, None)',
    });
    const result = await bwrap.run(spec(`${command}; python3 -c "import os, threading; t = threading.Thread(target=print, args=('thread',)); t.start(); t.join(); pid = os.fork(); pid or os._exit(3); print('fork', os.waitpid(pid, 0)[1] >> 8)"`));
    expect(result.stdout).toBe('unshare_user EPERM\nunshare_net EPERM\nsetns EPERM\nclone_newuser EPERM\nthread\nfork 3\n');
  });

  it.runIf(process.arch === 'x64')('cant_mount: mount, the new mount API and pivot_root fail with EPERM before the kernel reads their arguments', async () => {
    // Without capabilities these fail anyway, but only after the kernel has parsed what they were
    // given: mount reads its strings first (EFAULT for a bad pointer), and open_tree without
    // OPEN_TREE_CLONE needs no capability at all.
    const command = syscallProbe({
      mount: 'libc.syscall(165, 1, 1, 1, 0, 1)',
      open_tree: 'libc.syscall(428, -100, b"/tmp", 0)',
      fsopen: 'libc.syscall(430, b"tmpfs", 0)',
      pivot_root: 'libc.syscall(155, b"/tmp", b"/tmp")',
    });
    const result = await bwrap.run(spec(command));
    expect(result.stdout).toBe('mount EPERM\nopen_tree EPERM\nfsopen EPERM\npivot_root EPERM\n');
  });

  it.runIf(process.arch === 'x64')('cant_use_io_uring: io_uring, bpf, perf events, userfaultfd and the keyring fail with EPERM', async () => {
    const command = syscallProbe({
      io_uring_setup: 'libc.syscall(425, 1, ctypes.create_string_buffer(120))',
      bpf: 'libc.syscall(321, 0, None, 0)',
      perf_event_open: 'libc.syscall(298, None, 0, -1, -1, 0)',
      userfaultfd: 'libc.syscall(323, 0)',
      add_key: 'libc.syscall(248, b"user", b"k", b"v", 1, -2)',
    });
    const result = await bwrap.run(spec(command));
    expect(result.stdout).toBe('io_uring_setup EPERM\nbpf EPERM\nperf_event_open EPERM\nuserfaultfd EPERM\nadd_key EPERM\n');
  });
});

describe('host paths inside (negative test)', () => {
  it("cant_see_host_paths: /proc/self/mountinfo and PATH name no scratch folder, work directory or home path but the interpreter's", async () => {
    const work = tempDir('paths');
    mkdirSync(join(work, 'hidden'));
    writeFileSync(join(work, 'hidden', 'test_hidden.py'), 'pass\n');
    writeFileSync(join(work, 'rubric.txt'), 'kept\n');
    const result = await bwrap.run(spec('cat /proc/self/mountinfo; echo "PATH=$PATH"', { workdir: work, readOnlyInWorkdir: ['hidden', 'rubric.txt'] }));
    expect(result.exitCode).toBe(0);
    const fields = result.stdout.split('\n').flatMap((line) => (line.startsWith('PATH=') ? line.slice(5).split(':') : line.split(' ').slice(3, 5)));
    expect(fields).toContain('/workspace/hidden'); // the protected files are there, from neutral sources
    // The work directory and the interpreter shim lie under the host's TMPDIR; the interpreter itself may be under home (pyenv).
    expect([work, python.shimDir].every((path) => path.startsWith(`${tmpdir()}/`))).toBe(true);
    const asked = (field: string) => python.mounts.readOnlyPaths.some((path) => field === path || field.startsWith(`${path}/`));
    const leaks = fields.filter((field) => [tmpdir(), homedir()].some((root) => field.startsWith(`${root}/`)) && !asked(field));
    expect(leaks).toEqual([]);
  });
});

describe('owned scratch roots (cleanup)', () => {
  /** Starts a process that makes a scratch root under `parent`, puts a file in it, prints its path, and waits. */
  function scratchOwner(parent: string): Promise<{ dir: string; child: ReturnType<typeof spawn> }> {
    const child = spawn(process.execPath, [SCRATCH_OWNER, parent], { stdio: ['ignore', 'pipe', 'inherit'] });
    return new Promise((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.endsWith('\n')) resolve({ dir: out.trim(), child });
      });
      child.on('exit', (code) => reject(new Error(`the scratch owner exited with ${code} before printing its root`)));
    });
  }
  const exited = (child: ReturnType<typeof spawn>) =>
    new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));

  it('removes the root when its owner gets SIGTERM or SIGINT, and the signal still ends the owner', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const parent = tempDir('owner');
      const { dir, child } = await scratchOwner(parent);
      expect(existsSync(join(dir, SCRATCH_MARKER))).toBe(true);
      expect(existsSync(join(dir, 'workspace', 'hidden_test.py'))).toBe(true);
      const done = exited(child);
      child.kill(signal);
      expect(await done).toEqual({ code: null, signal });
      expect(readdirSync(parent)).toEqual([]);
    }
  });

  it('leaves the root of a SIGKILLed owner to the next owner, who removes it; a live owner\'s root is kept', async () => {
    const parent = tempDir('stale');
    const killed = await scratchOwner(parent);
    const done = exited(killed.child);
    killed.child.kill('SIGKILL');
    await done;
    expect(existsSync(killed.dir)).toBe(true);
    const alive = await scratchOwner(parent);
    try {
      expect(readdirSync(parent)).toEqual([alive.dir.slice(parent.length + 1)]); // the new owner swept the stale root
      expect(await removeStaleScratch(parent)).toEqual([]); // and a live owner's root stays
    } finally {
      const gone = exited(alive.child);
      alive.child.kill('SIGTERM');
      await gone;
    }
  });
});
