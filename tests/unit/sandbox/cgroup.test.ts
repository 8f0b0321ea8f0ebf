import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRunCgroup, detectCgroupDelegation, eventCount, prepareCgroupParent } from '../../../src/sandbox/cgroup.ts';
import { runCgroupParent } from '../../../src/sandbox/create.ts';

const roots: string[] = [];
afterAll(() => {
  for (const dir of roots) rmSync(dir, { recursive: true, force: true });
});

/** A fake / with /proc/self/cgroup, /proc/self/mountinfo and the cgroup folder's files. */
function fakeRoot(o: { cgroup: string; mounts: string[]; dir?: string; files?: Record<string, string> }): string {
  const root = mkdtempSync(join(tmpdir(), 'packet-kit-cgroup-'));
  roots.push(root);
  mkdirSync(join(root, 'proc/self'), { recursive: true });
  writeFileSync(join(root, 'proc/self/cgroup'), o.cgroup);
  writeFileSync(join(root, 'proc/self/mountinfo'), `${o.mounts.join('\n')}\n`);
  if (o.dir) {
    mkdirSync(join(root, o.dir), { recursive: true });
    for (const [name, text] of Object.entries(o.files ?? {})) writeFileSync(join(root, o.dir, name), text);
  }
  return root;
}

const V2_MOUNT = '30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate';
const SCOPE = '/user.slice/user-1000.slice/user@1000.service/app.slice/kit.scope';

describe('cgroup v2 delegation, read from /proc and /sys', () => {
  it('is absent on a hybrid hierarchy whose cgroup v2 has no memory or pids (this machine\'s kind)', () => {
    const root = fakeRoot({
      cgroup: '4:memory:/process_api/8b06\n1:cpu:/\n0::/\n',
      mounts: [
        '35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
        '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
      ],
      dir: 'sys/fs/cgroup/unified',
      files: { 'cgroup.controllers': 'hugetlb\n', 'cgroup.subtree_control': '', 'cgroup.procs': '1\n' },
    });
    expect(detectCgroupDelegation(root)).toEqual({
      available: false,
      reason: 'the cgroup v2 hierarchy at /sys/fs/cgroup/unified offers hugetlb to /sys/fs/cgroup/unified, not memory and pids (a hybrid hierarchy: they are bound to cgroup v1)',
    });
  });

  it('is absent with cgroup v1 alone, or with no cgroup2 mount', () => {
    expect(detectCgroupDelegation(fakeRoot({ cgroup: '4:memory:/\n1:cpu:/\n', mounts: [] }))).toEqual({
      available: false,
      reason: 'this process is in no cgroup v2 hierarchy (/proc/self/cgroup has no 0:: line: cgroup v1 only)',
    });
    expect(detectCgroupDelegation(fakeRoot({ cgroup: '0::/\n', mounts: ['22 1 0:21 / /proc rw - proc proc rw'] }))).toEqual({
      available: false,
      reason: 'no cgroup v2 hierarchy is mounted',
    });
  });

  it('is there in a delegated scope whose subtree_control already enables memory and pids', () => {
    const root = fakeRoot({
      cgroup: `0::${SCOPE}\n`,
      mounts: [V2_MOUNT],
      dir: `sys/fs/cgroup${SCOPE}`,
      files: { 'cgroup.controllers': 'cpu io memory pids\n', 'cgroup.subtree_control': 'memory pids\n', 'cgroup.procs': '4242\n', 'cgroup.type': 'domain\n' },
    });
    expect(detectCgroupDelegation(root)).toEqual({ available: true, dir: join(root, `sys/fs/cgroup${SCOPE}`), enable: false });
  });

  it('is there, to be enabled, in an empty delegated folder; absent in one that holds processes', () => {
    const files = { 'cgroup.controllers': 'memory pids\n', 'cgroup.subtree_control': '\n', 'cgroup.type': 'domain\n' };
    const empty = fakeRoot({ cgroup: `0::${SCOPE}\n`, mounts: [V2_MOUNT], dir: `sys/fs/cgroup${SCOPE}`, files: { ...files, 'cgroup.procs': '' } });
    const found = detectCgroupDelegation(empty);
    expect(found).toEqual({ available: true, dir: join(empty, `sys/fs/cgroup${SCOPE}`), enable: true });
    if (!found.available) throw new Error('unreachable');
    expect(prepareCgroupParent(found)).toBeNull();
    expect(readFileSync(join(found.dir, 'cgroup.subtree_control'), 'utf8')).toBe('+memory +pids');

    const busy = fakeRoot({ cgroup: `0::${SCOPE}\n`, mounts: [V2_MOUNT], dir: `sys/fs/cgroup${SCOPE}`, files: { ...files, 'cgroup.procs': '4242\n' } });
    expect(detectCgroupDelegation(busy)).toMatchObject({ available: false, reason: expect.stringMatching(new RegExp(`^/sys/fs/cgroup${SCOPE} holds processes, so it cannot enable memory and pids`)) });
  });

  it('is absent on a read-only cgroup2 mount (a container without delegation)', () => {
    const root = fakeRoot({
      cgroup: '0::/\n',
      mounts: ['30 23 0:26 / /sys/fs/cgroup ro,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw'],
      dir: 'sys/fs/cgroup',
      files: { 'cgroup.controllers': 'memory pids\n', 'cgroup.subtree_control': 'memory pids\n' },
    });
    expect(detectCgroupDelegation(root)).toEqual({ available: false, reason: 'the cgroup v2 hierarchy at /sys/fs/cgroup is mounted read-only' });
  });

  it('gives the note the run says once at start when there is none', () => {
    const root = fakeRoot({ cgroup: '1:cpu:/\n', mounts: [] });
    expect(runCgroupParent(root)).toEqual({
      parent: null,
      note: "no cgroup caps a run's total memory and processes (this process is in no cgroup v2 hierarchy (/proc/self/cgroup has no 0:: line: cgroup v1 only)); each process keeps its own caps (memory, processes, CPU), but their sum is not capped.",
    });
  });
});

describe("a run's cgroup", () => {
  it('is made with its caps, takes a pid, reads the kernel\'s counts, and is removed', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'packet-kit-cgroup-parent-'));
    roots.push(parent);
    const made = createRunCgroup(parent, 'run-1', { memoryBytes: 70254592, pids: 12 });
    if (typeof made === 'string') throw new Error(made);
    expect(readFileSync(join(made.dir, 'memory.max'), 'utf8')).toBe('70254592');
    expect(readFileSync(join(made.dir, 'pids.max'), 'utf8')).toBe('12');
    expect(existsSync(join(made.dir, 'memory.swap.max'))).toBe(false); // set only where the kernel has it
    expect(made.join(4242)).toBeNull();
    expect(readFileSync(join(made.dir, 'cgroup.procs'), 'utf8')).toBe('4242');
    expect(made.events()).toEqual({ oomKills: 0, pidsRefused: 0 });
    writeFileSync(join(made.dir, 'memory.events'), 'low 0\nhigh 0\nmax 7\noom 2\noom_kill 2\noom_group_kill 0\n');
    writeFileSync(join(made.dir, 'pids.events'), 'max 3\n');
    expect(made.events()).toEqual({ oomKills: 2, pidsRefused: 3 });
    await made.close(); // a plain folder is not empty: left, without waiting
    expect(readFileSync(join(made.dir, 'cgroup.kill'), 'utf8')).toBe('1');
  });

  it('is refused when it cannot be made', () => {
    expect(createRunCgroup(join(tmpdir(), 'packet-kit-no-such-parent', 'x'), 'run-1', { memoryBytes: 1, pids: 1 })).toMatch(/^could not make the run's cgroup .*ENOENT/);
  });

  it('reads flat-keyed counts', () => {
    expect(eventCount('max 0\noom_kill 3\n', 'oom_kill')).toBe(3);
    expect(eventCount('oom_kill_x 3\n', 'oom_kill')).toBe(0);
    expect(eventCount(null, 'max')).toBe(0);
  });
});
