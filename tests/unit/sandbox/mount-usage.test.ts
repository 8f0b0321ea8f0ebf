import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { leafDescendants, measureMounts } from '../../../src/sandbox/mount-usage.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A fake /proc: each pid with its children, its mount namespace, and a root holding /dev/shm. */
function fakeProc(tree: Record<string, { children: number[]; ns: string }>): string {
  const proc = mkdtempSync(join(tmpdir(), 'packet-kit-proc-'));
  dirs.push(proc);
  for (const [pid, { children, ns }] of Object.entries(tree)) {
    mkdirSync(join(proc, pid, 'task', pid), { recursive: true });
    writeFileSync(join(proc, pid, 'task', pid, 'children'), children.length ? `${children.join(' ')} ` : '');
    mkdirSync(join(proc, pid, 'ns'));
    symlinkSync(ns, join(proc, pid, 'ns', 'mnt'));
    mkdirSync(join(proc, pid, 'root', 'dev', 'shm'), { recursive: true });
  }
  return proc;
}

describe("the kit's measure of the run's mounts", () => {
  it('finds the leaves of the tree it started, deepest first', () => {
    const proc = fakeProc({
      self: { children: [], ns: 'mnt:[1]' },
      '10': { children: [11], ns: 'mnt:[1]' },
      '11': { children: [12, 14], ns: 'mnt:[2]' },
      '12': { children: [13], ns: 'mnt:[2]' },
      '13': { children: [], ns: 'mnt:[2]' },
      '14': { children: [], ns: 'mnt:[2]' },
    });
    expect(leafDescendants(10, proc)).toEqual([13, 14]);
    expect(leafDescendants(99, proc)).toEqual([]);
  });

  it("reads only through a process in the run's own mount namespace, never the host's", () => {
    const host = fakeProc({
      self: { children: [], ns: 'mnt:[1]' },
      '10': { children: [11], ns: 'mnt:[1]' },
      '11': { children: [], ns: 'mnt:[1]' }, // still outside: its /dev/shm would be the host's
    });
    expect(measureMounts(10, ['/dev/shm'], host)).toEqual({ full: [], unmeasured: 'no process of the run could be reached through /proc to measure its mounts' });
    const inside = fakeProc({
      self: { children: [], ns: 'mnt:[1]' },
      '10': { children: [11], ns: 'mnt:[1]' },
      '11': { children: [], ns: 'mnt:[2]' },
    });
    // A folder of the test machine's disk, with room: measured, and not full.
    expect(measureMounts(10, ['/dev/shm'], inside)).toEqual({ full: [] });
    expect(measureMounts(10, ['/no-such-mount'], inside).unmeasured).toBeDefined();
  });
});
