/**
 * Compute a lab's test table: every combination of its suggestions' states, run with the real
 * visible and held-out tests in the sandbox. One sandbox run per lab: the driver (driver.py)
 * imports unittest once and forks workers; each worker runs a batch of combinations, putting
 * back the modules, path, environment and working directory between them. A batch of 1 forks
 * per combination (docs/labs.md, "The test table"); on these machines a fork costs most of a combination's
 * time, so the default batch is larger (`npm run bench` measures both against a fresh process
 * per combination). The driver reports per test; the kit trusts none of it beyond what it can
 * check: the expected tests are read from the test files (src/judge/test-ids.ts), a test the
 * driver did not report is `missing`, never a pass, and the rehearsal compares the table with
 * the judge's own runs of the combinations it judges.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestRunner } from '../judge/run-tests.ts';
import { canonicalTestId, testFileOf } from '../judge/test-ids.ts';
import { EMPTY_SUBMISSION, prepareWorkspace, type PacketFiles } from '../judge/workspace.ts';
import { combinationCount } from '../packets/lab-compose.ts';
import type { LabModel } from '../packets/lab-model.ts';
import { labModelOf } from '../packets/packet.ts';
import { unittestDiscovery } from '../packets/unittest-command.ts';
import { LAB_TABLE_VERSION, type LabTable, type TestResult } from './table.ts';

/** The driver's source, shipped beside this module. */
export const DRIVER_SOURCE = readFileSync(fileURLToPath(new URL('./driver.py', import.meta.url)), 'utf8');

/** The folder in the workspace that holds the driver, its spec and its results. */
const KIT_DIR = '.packet-kit-lab';

/** Default time one combination may take before it is killed and recorded as timed out. */
export const DEFAULT_COMBINATION_MS = 5_000;

/** Default combinations per forked worker. */
export const DEFAULT_BATCH = 27;

/** Bytes of the driver's standard output kept: its records (a few KiB per combination). */
const RESULTS_LIMIT = 32 * 1024 * 1024;

/** What computing a table needs. */
export interface PrecomputeOptions {
  /** The lab's files and rules (`loadPacketFiles`). */
  files: PacketFiles;
  runner: TestRunner;
  /** Parent folder for the workspace. */
  scratchDir: string;
  /** Time one combination may take; default {@link DEFAULT_COMBINATION_MS}. */
  combinationMs?: number;
  /** Combinations per forked worker (1: a fork per combination); default {@link DEFAULT_BATCH}. */
  batch?: number;
}

/** A computed table, with how long the sandbox run took. */
export interface PrecomputeResult {
  table: LabTable;
  /** Wall-clock ms of the sandbox run (the driver and every combination). */
  runMs: number;
}

/** Top-level module names a Python file imports (`import a.b` gives `a`; relative imports are skipped). */
export function importedModules(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(/^[ \t]*import[ \t]+([^\n#]+)/gm)) {
    for (const part of m[1]!.split(',')) {
      const name = /^\s*([A-Za-z_]\w*)/.exec(part)?.[1];
      if (name) names.add(name);
    }
  }
  for (const m of source.matchAll(/^[ \t]*from[ \t]+([A-Za-z_]\w*)[\w.]*[ \t]+import\b/gm)) names.add(m[1]!);
  return [...names].sort();
}

/**
 * The modules the driver may import before it forks: what the lab's code and tests import,
 * less every module of the workspace itself (its top-level files and folders), which must be
 * imported fresh in each combination.
 */
export function preimports(sources: Iterable<string>, workspacePaths: Iterable<string>): string[] {
  const local = new Set<string>();
  for (const p of workspacePaths) local.add(p.split('/')[0]!.replace(/\.py$/, ''));
  const names = new Set<string>();
  for (const s of sources) for (const name of importedModules(s)) if (!local.has(name) && name !== '__future__') names.add(name);
  return [...names].sort();
}

/** The workspace-relative path of a discovery folder (`.` for the root). */
function dirArg(dir: string): string {
  return dir.replace(/^\.\/+/, '').replace(/\/+$/, '') || '.';
}

/** Map the driver's outcomes (runner ids) onto the expected tests. */
function resultsOf(record: Record<string, unknown>, expected: readonly string[], testFiles: readonly string[]): TestResult[] {
  if (typeof record.timeout === 'number') return expected.map(() => ({ outcome: 'timeout', message: `the combination ran past ${record.timeout} s and was stopped` }));
  if (typeof record.crash === 'string') return expected.map(() => ({ outcome: 'crash', message: record.crash as string }));
  const reported = (record.tests && typeof record.tests === 'object' ? record.tests : {}) as Record<string, unknown>;
  const byId = new Map<string, TestResult>();
  const brokenFiles = new Map<string, string>();
  for (const [runnerId, value] of Object.entries(reported)) {
    if (!Array.isArray(value) || typeof value[0] !== 'string') continue;
    const outcome = value[0] as TestResult['outcome'];
    const message = typeof value[1] === 'string' ? value[1] : undefined;
    if (/^unittest\.loader\.(?:_FailedTest|ModuleImportFailure)\./.test(runnerId)) {
      const file = testFileOf(runnerId, testFiles);
      if (file) brokenFiles.set(file, message ?? 'the test module failed to import');
      continue;
    }
    const id = canonicalTestId(runnerId, testFiles);
    if (id) byId.set(id, { outcome, ...(message !== undefined ? { message } : {}) });
  }
  return expected.map((id) => {
    const broken = brokenFiles.get(id.split('::')[0]!);
    if (broken !== undefined) return { outcome: 'error', message: broken };
    return byId.get(id) ?? { outcome: 'missing', message: 'the runner did not report this test' };
  });
}

/** Compute the table of one lab. Never throws for the lab's own code: a run that cannot be made comes back as `error`. */
export async function precomputeLab(o: PrecomputeOptions): Promise<PrecomputeResult | { error: string }> {
  const { files } = o;
  const packet = files.packet;
  const model: LabModel | undefined = labModelOf(packet);
  if (!model) return { error: 'the packet is not a lab with resolved suggestions' };
  const discovery = unittestDiscovery(packet.prompt.data.test);
  if (!discovery) return { error: `the test command "${packet.prompt.data.test}" is not a unittest discovery` };
  if (files.expectedProblem) return { error: files.expectedProblem };
  const combinationMs = o.combinationMs ?? DEFAULT_COMBINATION_MS;
  const count = combinationCount(model.suggestions.length);

  const ws = await prepareWorkspace(files, EMPTY_SUBMISSION, { withHidden: true, canaries: false, parentDir: o.scratchDir, random: Math.random });
  if ('rejected' in ws) return { error: `the lab's files could not be laid out: ${ws.rejected}` };
  try {
    const kitDir = path.join(ws.dir, KIT_DIR);
    await mkdir(kitDir, { recursive: true });
    const sources = [...files.starter.values(), ...files.hidden.values()].map((b) => b.toString('utf8'));
    for (const s of model.suggestions) sources.push(s.offered, s.revised);
    const workspacePaths = [...files.starter.keys(), ...files.hidden.keys()];
    const spec = {
      files: model.files,
      variants: model.suggestions.map((s) => [s.original, s.offered, s.revised]),
      start: dirArg(discovery.start),
      top: discovery.top === null ? null : dirArg(discovery.top),
      pattern: discovery.pattern,
      preimport: ['unittest', ...preimports(sources, workspacePaths)],
      marker: `PACKET-KIT-LAB-${randomBytes(12).toString('hex')}`,
      timeout: combinationMs / 1000,
      batch: o.batch ?? DEFAULT_BATCH,
    };
    await writeFile(path.join(kitDir, 'driver.py'), DRIVER_SOURCE);
    await writeFile(path.join(kitDir, 'spec.json'), JSON.stringify(spec));
    const result = await o.runner.sandbox.run({
      workdir: ws.dir,
      command: `python3 ${KIT_DIR}/driver.py ${KIT_DIR}/spec.json`,
      timeoutMs: count * combinationMs + 30_000,
      pathPrepend: o.runner.mounts.pathPrepend,
      readOnlyPaths: o.runner.mounts.readOnlyPaths,
      readOnlyInWorkdir: ws.readOnly,
      env: { PYTHONUNBUFFERED: '1' },
      outputLimitBytes: RESULTS_LIMIT,
    });
    if (result.error) return { error: `the sandbox could not run the driver: ${result.error}` };
    const tail = result.stderr.trim().split('\n').slice(-5).join(' | ');
    if (result.stdoutTruncated) return { error: `the driver's results passed ${RESULTS_LIMIT} bytes (exit ${result.exitCode ?? result.signal} after ${Math.round(result.durationMs)} ms)` };
    const prefix = `${spec.marker} `;
    const lines = result.stdout.split('\n').filter((line) => line.startsWith(prefix));
    if (!lines.length) return { error: `the driver wrote no results (exit ${result.exitCode ?? result.signal} after ${Math.round(result.durationMs)} ms${tail ? `: ${tail}` : ''})` };
    const records = new Map<number, Record<string, unknown>>();
    for (const line of lines) {
      try {
        const rec = JSON.parse(line.slice(prefix.length)) as Record<string, unknown>;
        if (typeof rec.index === 'number' && Number.isInteger(rec.index) && rec.index >= 0 && rec.index < count) records.set(rec.index, rec);
      } catch {
        // A torn last line: the combination counts as not run.
      }
    }
    if (records.size !== count) {
      const why = result.timedOut ? 'the whole run hit its time limit' : `exit ${result.exitCode ?? result.signal}${tail ? `: ${tail}` : ''}`;
      return { error: `the driver reported ${records.size} of ${count} combinations (${why})` };
    }
    const visible = files.expected.visible.map((t) => t.id);
    const visibleSet = new Set(visible);
    const hidden = files.expected.all.map((t) => t.id).filter((id) => !visibleSet.has(id));
    const combinations = [...Array(count).keys()].map((index) => {
      const rec = records.get(index)!;
      const all = resultsOf(rec, [...visible, ...hidden], files.testFiles.all);
      return { visible: all.slice(0, visible.length), hidden: all.slice(visible.length) };
    });
    return {
      table: {
        schemaVersion: LAB_TABLE_VERSION,
        id: packet.id,
        version: packet.prompt.data.version,
        digest: packet.digest,
        suggestions: model.suggestions.map((s) => s.id),
        tests: { visible, hidden },
        combinations,
      },
      runMs: result.durationMs,
    };
  } finally {
    await ws.dispose();
  }
}
