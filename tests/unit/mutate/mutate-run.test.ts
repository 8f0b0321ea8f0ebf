import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mutateRun } from '../../../src/mutate/mutate-run.ts';
import type { MutateReporter } from '../../../src/mutate/mutate-reporters.ts';
import { SCRATCH_MARKER, SCRATCH_PREFIX } from '../../../src/sandbox/scratch.ts';
import { fakeSandboxMaker } from '../../support/fake-sandbox.ts';
import { tempPackets, type TempPackets } from '../../support/packet-fixtures.ts';

let t: TempPackets;
let parent: string;
beforeEach(async () => {
  t = await tempPackets();
  await t.add('alpha');
  parent = await mkdtemp(path.join(tmpdir(), 'packet-mutate-scratch-'));
});
afterEach(async () => {
  await t.dispose();
  await rm(parent, { recursive: true, force: true });
});

const flags = { id: 'alpha', packets: 'packets', unconfined: false, 'api-key-env': 'OPENAI_API_KEY', count: 2, feedback: 0, timeout: 5, jobs: 1, 'attempt-timeout': 5, model: 'scripted:alpha/sample' };

describe('packet mutate: the scratch root', () => {
  it('runs every workspace inside a scratch root of its own, removes it at the end, and sweeps a dead run’s', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const stale = path.join(parent, `${SCRATCH_PREFIX}dead`);
    await mkdir(stale);
    await writeFile(path.join(stale, SCRATCH_MARKER), JSON.stringify({ pid: dead, uid: process.getuid!() }));
    const fake = fakeSandboxMaker();
    const markers: boolean[] = [];
    const said: string[] = [];
    const reporter: MutateReporter = { onMessage: (m) => void said.push(m), onDiagnostic: (d) => void said.push(d.code) };
    const run = fake.prepare;
    const outcome = await mutateRun(flags, {
      env: {},
      cwd: t.root,
      now: () => new Date('2026-11-29T12:00:00Z'),
      tmpDir: parent,
      prepareSandbox: async (o) => {
        // The stale root is gone before the new one is made; the marker of the new one is there.
        markers.push(await stat(stale).then(() => true, () => false));
        markers.push(await stat(path.join(o.tmpDir, SCRATCH_MARKER)).then(() => true, () => false));
        return run(o);
      },
    }, reporter);
    // The fake sandbox runs nothing: the sample cannot be judged, which is a sandbox failure (2).
    expect(outcome.exitCode).toBe(2);
    expect(said.length).toBeGreaterThan(0);
    expect(markers).toEqual([false, true]);
    const root = fake.seen.prepared[0]!.tmpDir;
    expect(path.dirname(root)).toBe(parent);
    expect(path.basename(root).startsWith(SCRATCH_PREFIX)).toBe(true);
    expect(fake.seen.runs.length).toBeGreaterThan(0);
    for (const spec of fake.seen.runs) expect(spec.workdir.startsWith(`${root}${path.sep}`)).toBe(true);
    expect(await readdir(parent)).toEqual([]);
    expect(fake.seen.disposed).toBe(1);
  });
});
