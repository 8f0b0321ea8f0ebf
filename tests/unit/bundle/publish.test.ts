import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recoverTargets } from '../../../src/bundle/build.ts';
import { journalPath, lockPath, publish, PublishBusyError } from '../../../src/bundle/publish.ts';

const CHILD = fileURLToPath(new URL('./publish-child.ts', import.meta.url));
/** A tag of a process that cannot exist (above Linux's default pid_max), as a killed build's is. */
const TAG = '4194306';
/** The tag of a second build, as dead. */
const TAG2 = '4194307';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'packet-publish-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const dist = () => path.join(root, 'dist');
const reviewer = () => path.join(root, 'out', 'reviewer');

/** A published pair of version `v` at the targets, or staged beside them. */
async function pair(version: string, where: 'targets' | 'staging', withSite = true, tag = TAG) {
  const site = where === 'targets' ? dist() : path.join(root, `.dist-staging-${tag}`);
  const bundles = where === 'targets' ? reviewer() : path.join(root, 'out', `.reviewer-staging-${tag}`);
  if (withSite) {
    await mkdir(path.join(site, 'zips'), { recursive: true });
    await writeFile(path.join(site, 'index.html'), `site ${version}`);
    await writeFile(path.join(site, 'zips', 'p-1.zip'), `zip ${version}`);
  }
  await mkdir(bundles, { recursive: true });
  await writeFile(path.join(bundles, 'p-1.zip'), `bundle ${version}`);
}

/** The versions of the site and the bundles at the targets. */
async function published(): Promise<[string | null, string | null]> {
  const read = (f: string) => readFile(f, 'utf8').catch(() => null);
  return [await read(path.join(dist(), 'index.html')), await read(path.join(reviewer(), 'p-1.zip'))];
}

/** Everything beside the targets that a publish leaves: staging and aside folders, journals. */
async function leftovers(): Promise<string[]> {
  return [...(await readdir(root)), ...(await readdir(path.join(root, 'out')).catch(() => []))].filter((n) => n.startsWith('.'));
}

/** Publish in a child process that SIGKILLs itself just before `step`. */
function publishKilledAt(step: string): Promise<NodeJS.Signals | null> {
  const child = spawn(process.execPath, [CHILD, root, step, TAG], { stdio: 'inherit' });
  return new Promise((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
}

/**
 * Two publishes in an interleaving: the first (the pair staged with TAG) stops just before
 * `pauseAt`; while it is stopped there a second (staged with TAG2) runs in its own process, to
 * the end or killed before `secondKilledAt`; then the first goes on, to the end or killed before
 * `firstKilledAt`. Returns what each printed and how the first ended.
 */
function interleaved(pauseAt: string, secondKilledAt: string, firstKilledAt: string): Promise<{ out: string; signal: NodeJS.Signals | null }> {
  const child = spawn(process.execPath, [CHILD, root, firstKilledAt, TAG, pauseAt, TAG2, secondKilledAt], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  return new Promise((resolve) => child.on('exit', (_code, signal) => resolve({ out, signal })));
}

const STEPS = ['journal', 'aside:0', 'in:0', 'aside:1', 'in:1', 'commit', 'clean:0', 'clean:1', 'done'] as const;

describe('publishing the site and the reviewer bundles', () => {
  it('replaces both, and leaves nothing beside them', async () => {
    await pair('1', 'targets');
    await pair('2', 'staging');
    publish([{ target: dist(), staging: path.join(root, `.dist-staging-${TAG}`) }, { target: reviewer(), staging: path.join(root, 'out', `.reviewer-staging-${TAG}`) }], TAG);
    expect(await published()).toEqual(['site 2', 'bundle 2']);
    expect(await leftovers()).toEqual([]);
  });

  for (const step of STEPS) {
    // Before the second staging folder is renamed in, the previous pair comes back; from then on, the new one stays.
    const expected = STEPS.indexOf(step) < STEPS.indexOf('commit') ? ['site 1', 'bundle 1'] : ['site 2', 'bundle 2'];
    it(`killed just before "${step}", is resolved by the next build to one whole pair (${expected[0]!.slice(-1) === '1' ? 'the previous' : 'the new'})`, async () => {
      await pair('1', 'targets');
      await pair('2', 'staging');
      expect(await publishKilledAt(step)).toBe('SIGKILL');
      if (step === 'aside:1') {
        // Between the two swaps: the new site beside the old bundles, the state a kill left before.
        expect(await published()).toEqual(['site 2', 'bundle 1']);
      }
      const lines = recoverTargets(dist(), reviewer());
      expect(await published()).toEqual(expected);
      expect(await leftovers()).toEqual([]);
      if (step !== 'journal') expect(lines[0]).toMatch(expected[0] === 'site 1' ? /^undid an interrupted publish/ : /^finished an interrupted publish/);
    });
  }

  it('undoes a publish into targets that did not exist before, leaving none', async () => {
    await pair('2', 'staging');
    expect(await publishKilledAt('aside:1')).toBe('SIGKILL');
    recoverTargets(dist(), reviewer());
    expect(await published()).toEqual([null, null]);
    expect(await leftovers()).toEqual([]);
  });

  it('leaves the journal of a publish still running alone', async () => {
    await pair('1', 'targets');
    await writeFile(journalPath(dist()), JSON.stringify({ schemaVersion: 1, pid: process.ppid, targets: [] }));
    expect(recoverTargets(dist(), reviewer())).toEqual([]);
    expect(existsSync(journalPath(dist()))).toBe(true);
  });

  it('puts a failed rename back at once, and throws', async () => {
    await pair('1', 'targets');
    await pair('2', 'staging', false); // no staged site: its rename fails
    expect(() =>
      publish([{ target: dist(), staging: path.join(root, `.dist-staging-${TAG}`) }, { target: reviewer(), staging: path.join(root, 'out', `.reviewer-staging-${TAG}`) }], TAG),
    ).toThrow(/ENOENT/);
    expect(await published()).toEqual(['site 1', 'bundle 1']);
    expect(existsSync(journalPath(dist()))).toBe(false);
  });

  describe('two publishes at once', () => {
    beforeEach(async () => {
      await pair('1', 'targets');
      await pair('2', 'staging', true, TAG);
      await pair('3', 'staging', true, TAG2);
    });

    it('the second, started while the first is between its two swaps, is refused, and the first publishes its whole pair', async () => {
      const { out, signal } = await interleaved('aside:1', 'none', 'none');
      recoverTargets(dist(), reviewer());
      expect(await published()).toEqual(['site 2', 'bundle 2']);
      expect(signal).toBeNull();
      expect(out).toMatch(/^busy: \d+\nnested: 3\n$/);
      expect(await leftovers()).toEqual([]);
    });

    it('the second killed in its swap while the first is stopped in its own, then the first killed: the recovery gives back one whole pair', async () => {
      const { signal } = await interleaved('aside:1', 'aside:0', 'aside:1');
      expect(signal).toBe('SIGKILL');
      const lines = recoverTargets(dist(), reviewer());
      expect(await published()).toEqual(['site 1', 'bundle 1']);
      expect(lines[0]).toMatch(/^undid an interrupted publish/);
      expect(await leftovers()).toEqual([]);
    });

    it('takes over the lock of a killed publish, resolving its journal first', async () => {
      expect(await publishKilledAt('in:1')).toBe('SIGKILL');
      expect(existsSync(lockPath(dist()))).toBe(true);
      publish([{ target: dist(), staging: path.join(root, `.dist-staging-${TAG2}`) }, { target: reviewer(), staging: path.join(root, 'out', `.reviewer-staging-${TAG2}`) }], TAG2);
      expect(await published()).toEqual(['site 3', 'bundle 3']);
      recoverTargets(dist(), reviewer());
      expect(await leftovers()).toEqual([]);
    });

    it('takes over a lock that names no process, and removes the files a killed taker of the lock left', async () => {
      await writeFile(lockPath(dist()), '');
      await writeFile(`${lockPath(dist())}.${TAG}.new`, `${TAG}\n`);
      publish([{ target: dist(), staging: path.join(root, `.dist-staging-${TAG2}`) }, { target: reviewer(), staging: path.join(root, 'out', `.reviewer-staging-${TAG2}`) }], TAG2);
      expect(await published()).toEqual(['site 3', 'bundle 3']);
      expect(recoverTargets(dist(), reviewer())).toContain(`removed .dist-publish.lock.${TAG}.new`);
      expect(await leftovers()).toEqual([]);
    });

    it('refuses a publish while a live process holds the lock, touching nothing', async () => {
      await writeFile(lockPath(dist()), `${process.ppid}\n`);
      const go = () => publish([{ target: dist(), staging: path.join(root, `.dist-staging-${TAG}`) }, { target: reviewer(), staging: path.join(root, 'out', `.reviewer-staging-${TAG}`) }], TAG);
      expect(go).toThrow(PublishBusyError);
      expect(await published()).toEqual(['site 1', 'bundle 1']);
      expect(existsSync(path.join(root, `.dist-staging-${TAG}`))).toBe(true);
      expect(existsSync(journalPath(dist()))).toBe(false);
    });
  });
});
