/**
 * Lab tables by what they are made of: the lab's content digest, its test command, the
 * interpreter, the sandbox, the driver's settings and a fingerprint of the kit's own code. An
 * unchanged lab is never run again; the rehearsal and the build share one computation (a table
 * being computed is waited for, not computed twice).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fsFault } from '../errors/fs-fault.ts';
import type { TestRunner } from '../judge/run-tests.ts';
import type { PacketFiles } from '../judge/workspace.ts';
import { DEFAULT_BATCH, DEFAULT_COMBINATION_MS, precomputeLab } from './precompute.ts';
import { LAB_TABLE_VERSION, type LabTable } from './table.ts';

/** A table, and whether it came from the cache. */
export type TableOutcome = { table: LabTable; cached: boolean; runMs: number } | { error: string };

/** Gives the table of a lab, computing it at most once. */
export type LabTables = (files: PacketFiles) => Promise<TableOutcome>;

/** What the tables depend on besides the lab. */
export interface LabTablesOptions {
  runner: TestRunner;
  /** Where workspaces are made. */
  scratchDir: string;
  /** The cache folder; null keeps tables in memory only. */
  dir: string | null;
  /** `sys.version` of the interpreter. */
  interpreter: string | null;
  /** A fingerprint of the kit's code (`kitFingerprint`). */
  kit: string;
  combinationMs?: number;
  batch?: number;
  /** Compute every table again (and keep the new one): `--no-cache`. */
  fresh?: boolean;
}

/** The cache key of a lab's table. */
export function tableKey(files: PacketFiles, o: Pick<LabTablesOptions, 'runner' | 'interpreter' | 'kit' | 'combinationMs' | 'batch'>): string {
  const parts = {
    v: LAB_TABLE_VERSION,
    digest: files.packet.digest,
    command: files.packet.prompt.data.test,
    interpreter: o.interpreter ?? 'none',
    sandbox: o.runner.sandbox.kind,
    kit: o.kit,
    combinationMs: o.combinationMs ?? DEFAULT_COMBINATION_MS,
    batch: o.batch ?? DEFAULT_BATCH,
  };
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

/** A source of lab tables over a folder cache (or none). */
export function labTables(o: LabTablesOptions): LabTables {
  const inFlight = new Map<string, Promise<TableOutcome>>();
  return (files) => {
    const key = tableKey(files, o);
    const known = inFlight.get(key);
    if (known) return known;
    const file = o.dir ? path.join(o.dir, `${files.packet.id}-${key}.json`) : null;
    const work = (async (): Promise<TableOutcome> => {
      if (file && !o.fresh) {
        try {
          const table = JSON.parse(await readFile(file, 'utf8')) as LabTable;
          if (table.digest === files.packet.digest && table.schemaVersion === LAB_TABLE_VERSION) return { table, cached: true, runMs: 0 };
        } catch {
          // Not cached yet.
        }
      }
      const computed = await precomputeLab({
        files,
        runner: o.runner,
        scratchDir: o.scratchDir,
        ...(o.combinationMs ? { combinationMs: o.combinationMs } : {}),
        ...(o.batch ? { batch: o.batch } : {}),
      });
      if ('error' in computed) {
        inFlight.delete(key);
        return computed;
      }
      if (file) {
        const tmp = `${file}.${process.pid}.tmp`;
        try {
          await mkdir(path.dirname(file), { recursive: true });
          await writeFile(tmp, JSON.stringify(computed.table));
          await rename(tmp, file);
        } catch (err) {
          // A cache that cannot be written (a read-only or full disk) only costs time the next run.
          if (!fsFault(err)) throw err;
          await rm(tmp, { force: true }).catch(() => undefined);
        }
      }
      return { table: computed.table, cached: false, runMs: computed.runMs };
    })();
    inFlight.set(key, work);
    return work;
  };
}
