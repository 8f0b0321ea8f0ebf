import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { capFields, capFix, capsToRunSpec, describeCap, findCapHit, type CapEvidence } from '../../../src/sandbox/caps.ts';
import { hostEtcEntries, planEtc } from '../../../src/sandbox/etc.ts';
import { blockedPaths, stageOneArgs } from '../../../src/sandbox/host-user.ts';
import { DEFAULT_LIMITS, limitsWrapperScript, resolveLimits } from '../../../src/sandbox/limits.ts';
import { planWorkspaceCopy } from '../../../src/sandbox/workspace-copy.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const failed = (output: string, exitCode: number | null = 1): CapEvidence => ({ exitCode, signal: null, timedOut: false, stdout: '', stderr: output });
const MiB = 1024 * 1024;

describe('caps from a packet', () => {
  it('map the frontmatter onto the run spec, memory onto the address space', () => {
    expect(capsToRunSpec({ processes: 64, workspaceMb: 8, memoryMb: 512, certificates: true })).toEqual({
      limits: { processes: 64, workspaceMb: 8, addressSpaceMb: 512 },
      certificates: true,
    });
    expect(capsToRunSpec(undefined)).toEqual({ limits: {}, certificates: false });
  });

  it('are refused above the kit maximum, by the sandbox too', () => {
    expect(resolveLimits({ processes: 2048 })).toBe("limits.processes is 2048, above the kit's maximum of 1024; the sandbox never grants more");
    expect(resolveLimits({ workspaceMb: 0 })).toBe('limits.workspaceMb must be a positive integer, got 0');
    expect(resolveLimits({})).toEqual(DEFAULT_LIMITS);
  });

  it('say how to raise the ones a packet may raise', () => {
    expect(capFix('shm')).toBe('If the packet really needs more, raise sandbox.shmMb in prompt.mdx (at most 1024); otherwise the code under test uses too much.');
    expect(capFix('cpu')).toBe('The code under test uses too much; packets cannot raise this cap.');
  });
});

describe('the cap a failed run ran into', () => {
  const full = ['/dev/shm', '/workspace'];

  it('is a full tmpfs first, as the kit measured it (workspace before tmp before shm)', () => {
    expect(findCapHit(failed('anything'), full)).toBe('workspace');
    expect(findCapHit(failed('MemoryError'), ['/dev/shm'])).toBe('shm');
  });

  it('is none for a run that succeeded, whatever it printed', () => {
    expect(findCapHit(failed('MemoryError', 0), full)).toBeNull();
  });

  it('reads the exit status and the errors the command printed', () => {
    expect(findCapHit(failed('', 128 + 25), [])).toBe('fileSize');
    expect(findCapHit(failed('OSError: [Errno 27] File too large'), [])).toBe('fileSize');
    expect(findCapHit(failed('', 128 + 24), [])).toBe('cpu');
    expect(findCapHit(failed('/bin/sh: 1: Cannot fork'), [])).toBe('processes');
    expect(findCapHit(failed("RuntimeError: can't start new thread"), [])).toBe('processes');
    expect(findCapHit(failed('  pid = os.fork()\nBlockingIOError: [Errno 11] Resource temporarily unavailable'), [])).toBe('processes');
    expect(findCapHit(failed('BlockingIOError: [Errno 11] Resource temporarily unavailable (a non-blocking read)'), [])).toBeNull();
    expect(findCapHit(failed('MemoryError'), [])).toBe('memory');
    expect(findCapHit(failed('OSError: [Errno 24] Too many open files'), [])).toBe('openFiles');
  });

  it("says when only the run's own output tells of a cap, and leaves out what it printed when asked for the kernel's evidence alone", () => {
    expect(capFields('shm', DEFAULT_LIMITS, true)).toEqual({ capHit: 'shm', capDetail: '/dev/shm (64 MiB) is full' });
    expect(capFields('memory', DEFAULT_LIMITS, false)).toEqual({
      capHit: 'memory',
      capDetail: "an allocation failed: each process is capped at 4096 MiB of memory (address space), as the run's own output or exit status reports (no count of the kernel's confirms it)",
      capReported: true,
    });
    expect(findCapHit(failed('MemoryError'), [], 0, false)).toBeNull();
    expect(findCapHit(failed('MemoryError'), ['/tmp'], 0, false)).toBe('tmp');
  });

  it('never names a mount from a "No space left" the run printed: only a mount measured full', () => {
    expect(findCapHit(failed("OSError: [Errno 28] No space left on device: '/dev/shm/x'"), [])).toBeNull();
    expect(findCapHit(failed("OSError: [Errno 28] No space left on device: '/tmp/x'"), [])).toBeNull();
    expect(findCapHit(failed('No space left on device'), [])).toBeNull();
    expect(findCapHit(failed('No space left on device'), ['/tmp'])).toBe('tmp');
  });

  it("is the whole run's memory when its cgroup counted an oom_kill, before the rlimit errors", () => {
    const killed: CapEvidence = { exitCode: 137, signal: null, timedOut: false, stdout: '', stderr: 'Killed' };
    expect(findCapHit(killed, [], 1)).toBe('runMemory');
    expect(findCapHit(killed, [], 0)).toBeNull();
    expect(findCapHit(failed('MemoryError'), [], 2)).toBe('runMemory');
    expect(describeCap('runMemory', { ...DEFAULT_LIMITS, addressSpaceMb: 256 })).toBe(
      "the run's processes and the files it wrote in its tmpfs mounts together passed its memory cap of 256 MiB and the kernel killed a process (the run's memory cgroup counted an oom_kill)",
    );
    expect(capFix('runMemory')).toBe('If the packet really needs more, raise sandbox.memoryMb in prompt.mdx (at most 8192); otherwise the code under test uses too much.');
  });
});

describe('the wrapper shell', () => {
  it('applies every limit, the process cap only under bubblewrap, and reports after a failure', () => {
    const plain = limitsWrapperScript(DEFAULT_LIMITS);
    expect(plain).not.toContain('ulimit -u');
    expect(plain.endsWith('exec /bin/sh -c "$1"')).toBe(true);
    const boxed = limitsWrapperScript({ ...DEFAULT_LIMITS, processes: 99 }, { processLimit: true, report: true });
    expect(boxed).toContain('{ ulimit -u 99 || ulimit -p 99; }');
    expect(boxed).toContain('ulimit -S -t 60 && ulimit -H -t 61');
    expect(boxed).toContain(`( eval "$command" ) 4>&-`);
    expect(boxed).toContain(`[ "$status" -eq 0 ] || { echo measure >&4 && read -r _ <&4; } 2>/dev/null`);
  });
});

describe('the workspace copy plan', () => {
  it('copies files by descriptor, makes folders and links, and protects read-only paths', () => {
    const work = mkdtempSync(join(tmpdir(), 'packet-kit-plan-'));
    dirs.push(work);
    mkdirSync(join(work, 'tests', 'data'), { recursive: true });
    mkdirSync(join(work, 'src'));
    writeFileSync(join(work, 'src', 'a.py'), 'x = 1\n', { mode: 0o640 });
    writeFileSync(join(work, 'tests', 'test_a.py'), 't\n');
    writeFileSync(join(work, 'tests', 'data', 'd.json'), '{}\n');
    writeFileSync(join(work, 'conf.json'), '{}\n');
    const plan = planWorkspaceCopy(work, ['tests', 'conf.json', 'tests/data'], '/workspace', 10);
    if (typeof plan === 'string') throw new Error(plan);
    try {
      expect(plan.args).toEqual([
        '--perms', '0755', '--dir', '/workspace/src',
        '--perms', '0640', '--file', '10', '/workspace/src/a.py',
        '--perms', '0644', '--ro-bind-data', '11', '/workspace/conf.json',
        '--perms', '0755', '--size', String(2 * 4096 + 256 * 1024), '--tmpfs', '/workspace/tests',
        '--perms', '0755', '--dir', '/workspace/tests/data',
        '--perms', '0644', '--file', '12', '/workspace/tests/data/d.json',
        '--perms', '0644', '--file', '13', '/workspace/tests/test_a.py',
        '--remount-ro', '/workspace/tests',
      ]);
      expect(plan.fds).toHaveLength(4);
      expect(plan.writableBytes).toBe(4096);
    } finally {
      plan.close();
    }
  });
});

describe('reaching paths as the unprivileged host uid', () => {
  it('finds the outermost directory it may not enter, and lays a tmpfs with only the needed paths over it', () => {
    const root = mkdtempSync(join(tmpdir(), 'packet-kit-walls-'));
    dirs.push(root);
    mkdirSync(join(root, 'open', 'lib'), { recursive: true, mode: 0o755 });
    mkdirSync(join(root, 'closed', 'py', 'lib'), { recursive: true });
    mkdirSync(join(root, 'closed', 'py', 'bin'), { recursive: true });
    chmodSync(root, 0o755);
    chmodSync(join(root, 'open'), 0o755);
    chmodSync(join(root, 'closed'), 0o700);
    const ids = { uid: 64_533, gid: 64_533 };
    const blocked = blockedPaths([join(root, 'open', 'lib'), join(root, 'closed', 'py', 'lib'), join(root, 'closed', 'py', 'bin'), join(root, 'closed', 'py')], ids);
    expect([...blocked]).toEqual([[join(root, 'closed'), [join(root, 'closed', 'py')]]]);
    expect(stageOneArgs(blocked, ids, '/usr/bin/setpriv')).toEqual([
      '--dev-bind', '/', '/',
      '--tmpfs', join(root, 'closed'),
      '--bind', join(root, 'closed', 'py'), join(root, 'closed', 'py'),
      '--die-with-parent', '--chdir', '/',
      '--cap-drop', 'ALL', '--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID',
      '--', '/usr/bin/setpriv', '--reuid=64533', '--regid=64533', '--clear-groups', '--inh-caps=-all', '--',
    ]);
  });
});

describe("the sandbox's /etc", () => {
  it('takes only allowlisted host entries: files copied, folders bound, links recreated; never shadow or passwd', () => {
    const etc = mkdtempSync(join(tmpdir(), 'packet-kit-etc-'));
    dirs.push(etc);
    for (const name of ['shadow', 'gshadow', 'passwd', 'group', 'sudoers', 'ld.so.cache', 'protocols']) writeFileSync(join(etc, name), `${name}\n`);
    mkdirSync(join(etc, 'alternatives'));
    mkdirSync(join(etc, 'python3.11'));
    mkdirSync(join(etc, 'ssh'));
    symlinkSync('/usr/share/zoneinfo/Etc/UTC', join(etc, 'localtime'));
    const entries = hostEtcEntries(etc);
    expect(entries.map((e) => e.inside)).toEqual(['/etc/alternatives', '/etc/ld.so.cache', '/etc/localtime', '/etc/protocols', '/etc/python3.11']);
    const plan = planEtc(entries, 5);
    if (typeof plan === 'string') throw new Error(plan);
    try {
      expect(plan.data[0]).toMatch(/^sandbox:x:1000:1000:/);
      expect(plan.fds).toHaveLength(2);
      const args = plan.args.join(' ');
      expect(args).toMatch(/^--perms 0755 --size \d+ --tmpfs \/etc /);
      expect(args).toContain('--perms 0644 --file 5 /etc/passwd');
      expect(args).toContain(`--ro-bind ${etc}/alternatives /etc/alternatives`);
      expect(args).toContain('--symlink /usr/share/zoneinfo/Etc/UTC /etc/localtime');
      expect(args).toContain(`--file ${5 + plan.data.length} /etc/ld.so.cache`);
      expect(args.endsWith('--remount-ro /etc')).toBe(true);
      expect(args).not.toMatch(/shadow|sudoers|ssh/);
    } finally {
      plan.close();
    }
  });
});
