import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestRunner } from '../../../src/judge/run-tests.ts';
import { loadPacketFiles, type PacketFiles } from '../../../src/judge/workspace.ts';
import { labTables, type LabTablesOptions, type TableOutcome } from '../../../src/labs/table-cache.ts';
import { combinationCount } from '../../../src/packets/lab-compose.ts';
import { loadPackets } from '../../../src/packets/load.ts';
import { codePackets } from '../../../src/packets/packet.ts';
import type { RunResult, RunSpec, Sandbox } from '../../../src/sandbox/types.ts';
import { tempPackets, type TempPackets } from '../../support/packet-fixtures.ts';

/**
 * The lab table cache over a sandbox that only counts its runs: it answers the driver with one
 * record per combination (every test unreported, so `missing`), read from the spec the driver
 * would have read. An unchanged lab is computed once; a changed lab or `fresh` computes again.
 */
let t: TempPackets;
let scratch: string;
const runs: RunSpec[] = [];

const countingSandbox: Sandbox = {
  kind: 'bubblewrap',
  async run(spec: RunSpec): Promise<RunResult> {
    runs.push(spec);
    const { marker, variants } = JSON.parse(await readFile(path.join(spec.workdir, '.packet-kit-lab', 'spec.json'), 'utf8')) as { marker: string; variants: unknown[] };
    const lines = [...Array(combinationCount(variants.length)).keys()].map((index) => `${marker} ${JSON.stringify({ index, tests: {} })}`);
    return { kind: 'bubblewrap', exitCode: 0, signal: null, timedOut: false, outputFlooded: false, stdout: `${lines.join('\n')}\n`, stderr: '', stdoutTruncated: false, stderrTruncated: false, durationMs: 7, cwd: '/workspace' };
  },
};
const runner: TestRunner = { sandbox: countingSandbox, mounts: { pathPrepend: [], readOnlyPaths: [] }, timeoutMs: 30_000 };

async function labFiles(): Promise<PacketFiles> {
  const loaded = await loadPackets({ packetsDir: 'packets', cwd: t.root, ids: ['lab'] });
  const packet = codePackets(loaded.packets).find((p) => p.id === 'lab');
  if (!packet) throw new Error(`fixture lab does not load: ${loaded.diagnostics.map((d) => d.message).join('; ')}`);
  return loadPacketFiles(packet, path.join(t.packets, 'lab'));
}

const options = (dir: string | null, extra: Partial<LabTablesOptions> = {}): LabTablesOptions => ({ runner, scratchDir: scratch, dir, interpreter: 'Python 3.12.0', kit: 'kit-fingerprint', ...extra });

function table(outcome: TableOutcome) {
  if ('error' in outcome) throw new Error(outcome.error);
  return outcome;
}

beforeAll(async () => {
  t = await tempPackets();
  await t.add('lab', {}, 'lab');
  scratch = await mkdtemp(path.join(tmpdir(), 'packet-kit-table-cache-'));
});

afterAll(async () => {
  await t?.dispose();
  await rm(scratch, { recursive: true, force: true });
});

describe('labTables', () => {
  it('computes a lab once: the second call is served from the cache folder, with no sandbox run', async () => {
    const dir = path.join(scratch, 'cache-once');
    const files = await labFiles();
    runs.length = 0;

    const first = table(await labTables(options(dir))(files));
    expect(first.cached).toBe(false);
    expect(first.runMs).toBe(7);
    expect(first.table.combinations).toHaveLength(27);
    expect(first.table.digest).toBe(files.packet.digest);
    expect(runs).toHaveLength(1);
    expect(await readdir(dir)).toHaveLength(1);

    // A later run (a new source over the same folder, as the build after a rehearsal) reads it back.
    const second = table(await labTables(options(dir))(await labFiles()));
    expect(second).toEqual({ table: first.table, cached: true, runMs: 0 });
    expect(runs).toHaveLength(1);
  });

  it('computes the table when its cache folder cannot be written (a file where it must be): a cache only saves time', async () => {
    const blocked = path.join(scratch, 'blocked-cache');
    await writeFile(blocked, 'a file, not a folder');
    runs.length = 0;
    const outcome = table(await labTables(options(path.join(blocked, 'labs')))(await labFiles()));
    expect(outcome.cached).toBe(false);
    expect(outcome.table.combinations).toHaveLength(27);
    expect(runs).toHaveLength(1);
  });

  it('shares one computation between calls of one source, with or without a folder', async () => {
    const files = await labFiles();
    runs.length = 0;
    const tables = labTables(options(null));
    const [a, b] = await Promise.all([tables(files), tables(files)]);
    expect(table(a).cached).toBe(false);
    expect(b).toBe(a);
    expect(await tables(files)).toBe(a);
    expect(runs).toHaveLength(1);
  });

  it("computes again when the lab's files change (a different digest), and keeps both tables", async () => {
    const dir = path.join(scratch, 'cache-digest');
    const before = await labFiles();
    runs.length = 0;
    table(await labTables(options(dir))(before));

    await t.write('lab', 'starter/README.md', `${await t.read('lab', 'starter/README.md')}\nOne more line.\n`);
    const after = await labFiles();
    expect(after.packet.digest).not.toBe(before.packet.digest);

    const recomputed = table(await labTables(options(dir))(after));
    expect(recomputed.cached).toBe(false);
    expect(recomputed.table.digest).toBe(after.packet.digest);
    expect(runs).toHaveLength(2);
    expect(await readdir(dir)).toHaveLength(2);

    // The unchanged lab's table is still there, and still served.
    expect(table(await labTables(options(dir))(before)).cached).toBe(true);
    expect(runs).toHaveLength(2);
  });

  it('computes again with fresh (--no-cache), and keeps the new table for the next run', async () => {
    const dir = path.join(scratch, 'cache-fresh');
    const files = await labFiles();
    runs.length = 0;
    table(await labTables(options(dir))(files));

    const fresh = table(await labTables(options(dir, { fresh: true }))(files));
    expect(fresh.cached).toBe(false);
    expect(runs).toHaveLength(2);

    expect(table(await labTables(options(dir))(files)).cached).toBe(true);
    expect(runs).toHaveLength(2);
  });
});
