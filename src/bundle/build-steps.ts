import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkLoadedPackets, projectLintCache } from '../check/check-packets.ts';
import { diagnose, Errors } from '../errors/catalog.ts';
import type { LabTables } from '../labs/table-cache.ts';
import type { LabTable } from '../labs/table.ts';
import { loadPackets } from '../packets/load.ts';
import type { CodePacket, Lab, Packet } from '../packets/packet.ts';
import type { RunEnvironment } from '../rehearse/environment.ts';
import type { Reporter } from '../rehearse/reporter.ts';
import type { BuildSteps, LabTablesOutcome, RehearsalOutcome } from './build.ts';
import type { PacketFileReader } from './candidate-zip.ts';
import { readReportFile } from './build.ts';
import type { SiteBuilder } from './site-build.ts';

/**
 * The outside steps of `packet build` on a real project: packets read from disk, the check's
 * lint and version drift, the offline rehearsal in the sandbox with the embedded scripted
 * endpoint, the last report, and the Astro child. The CLI parses flags and prints; this puts the
 * pieces together.
 */

/** Where and how a build on disk works. */
export interface FsBuildOptions {
  /** The working directory. */
  cwd: string;
  /** The packets folder, as given (relative to `cwd`). */
  packets: string;
  /** The site folder, as given: the check compares its packets.json for version bumps. */
  outDir: string;
  /** The lint settings file, when given. */
  config?: string;
  /** The rehearsal report, absolute: written by the rehearsal, read for the reviewer bundles when it is skipped. */
  reportFile: string;
  /** Rehearse (unless skipped). */
  rehearse: boolean;
  /** The sandbox the rehearsal and the labs' tables run in, prepared when first needed. */
  sandbox: {
    jobs: number;
    timeoutMs: number;
    /** Run the packets' own trees without a sandbox where bubblewrap is unusable. */
    allowUnconfined: boolean;
  };
  /** The environment (PACKET_KIT_BWRAP is read from it). */
  env: Readonly<Record<string, string | undefined>>;
  /** The clock, for the report's date. */
  now(): Date;
  /** Where the rehearsal's lines go. */
  out(text: string): void;
  /** The Astro child, started early. */
  site: SiteBuilder;
  /** The fingerprint of the kit's code, which the caches of search indexes are tied to. */
  kit: string;
}

/** A quiet rehearsal reporter for the build: only packets that do not fail closed, with their defects. */
export function buildReporter(out: (text: string) => void): Reporter {
  return {
    onPacketEnd(report) {
      if (report.status === 'fails-closed') return;
      out(`  ${report.status.toUpperCase()} ${report.id} ${report.version}\n`);
      for (const c of report.checks.filter((x) => !x.ok)) out(`    ${c.id}: ${c.defect ?? c.actual}\n`);
    },
    onRunEnd(report) {
      if (report.sandbox.notice) out(`  note: ${report.sandbox.notice}\n`);
    },
  };
}

/** Write a file whole or not at all: a temporary file, then a rename. */
async function writeWhole(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

/** The sandbox of a build, shared by the rehearsal and the labs' tables. */
type Sandboxed = { ok: true; environment: RunEnvironment; tables: LabTables; scratchDir: string } | { ok: false; message: string };

/** The build's steps and file reader for a project on disk; `dispose` removes the sandbox's scratch root once the build is over. */
export function fsBuildSteps(o: FsBuildOptions): { steps: BuildSteps; reader: (packet: Pick<Packet, 'id' | 'dir'>) => PacketFileReader; dispose(): Promise<void> } {
  const packetsDir = path.resolve(o.cwd, o.packets);
  const folders = new Map<string, string>();
  let sandbox: Promise<Sandboxed> | undefined;
  let disposeSandbox: (() => Promise<void>) | undefined;
  // Prepared once, when the rehearsal or the labs first need it: the self-test, the interpreter,
  // and a scratch root of the build's own, removed after it, on Ctrl-C or SIGTERM, or by a later run.
  const sandboxed = () =>
    (sandbox ??= (async (): Promise<Sandboxed> => {
      const [{ prepareRunEnvironment }, { createScratchRoot }, { labTables }] = await Promise.all([
        import('../rehearse/environment.ts'),
        import('../sandbox/scratch.ts'),
        import('../labs/table-cache.ts'),
      ]);
      const scratchRoot = await createScratchRoot({ parent: tmpdir() });
      const bwrapPath = o.env.PACKET_KIT_BWRAP;
      const prepared = await prepareRunEnvironment({ env: o.env, tmpDir: scratchRoot.dir, allowUnconfined: o.sandbox.allowUnconfined, ...(bwrapPath ? { bwrapPath } : {}) });
      if (!prepared.ok) {
        await scratchRoot.dispose();
        return { ok: false, message: prepared.message };
      }
      const { environment } = prepared;
      disposeSandbox = async () => {
        await environment.dispose();
        await scratchRoot.dispose();
      };
      const tables = labTables({
        runner: { sandbox: environment.sandbox, mounts: environment.interpreter.mounts, timeoutMs: o.sandbox.timeoutMs },
        scratchDir: scratchRoot.dir,
        dir: path.resolve(o.cwd, 'node_modules/.cache/packet-kit/labs'),
        interpreter: environment.interpreter.version,
        kit: o.kit,
      });
      return { ok: true, environment, tables, scratchDir: scratchRoot.dir };
    })());
  const steps: BuildSteps = {
    async load() {
      const loaded = await loadPackets({ packetsDir: o.packets, cwd: o.cwd });
      for (const s of loaded.sources) folders.set(s.id, path.join(packetsDir, s.folder));
      return loaded;
    },
    lint: (packets) => checkLoadedPackets(packets, { cwd: o.cwd, lint: true, ...(o.config ? { config: o.config } : {}), outDir: o.outDir, lintCache: projectLintCache(o.cwd, o.kit) }),
    ...(o.rehearse ? { rehearse: (packets: CodePacket[]) => rehearseOffline(o, sandboxed, packets, folders) } : {}),
    labTables: (labs) => labTablesOf(o, sandboxed, labs, folders),
    lastReport: () => readReportFile(o.reportFile),
    // The last `packet mutate` run of each packet, in its default folder.
    lastMutation: async (packet) => (await import('../mutate/report.ts')).readMutationRun(path.resolve(o.cwd, 'out', 'mutate', packet.id)),
    buildSite: ({ outDir, manifestFile, signal }) => o.site.build({ outDir, manifestFile, signal }),
    searchIndex: async (packets, outputDir) =>
      (await import('./search-index.ts')).buildSearchIndex(packets, outputDir, { dir: path.resolve(o.cwd, 'node_modules/.cache/packet-kit/search'), kit: o.kit }),
  };
  const reader = (packet: Pick<Packet, 'id' | 'dir'>): PacketFileReader => {
    const dir = folders.get(packet.id) ?? path.resolve(o.cwd, packet.dir);
    // Synchronous reads: packet files are small, and a thread-pool round trip per file costs more than the read.
    return async (rel) => {
      try {
        const b = readFileSync(path.join(dir, rel));
        return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
      } catch {
        return undefined;
      }
    };
  };
  return { steps, reader, dispose: async () => await disposeSandbox?.() };
}

/** Every lab's test table, as many at once as the rehearsal runs tests (cached, shared with `packet rehearse`). */
async function labTablesOf(o: FsBuildOptions, sandboxed: () => Promise<Sandboxed>, labs: Lab[], folders: ReadonlyMap<string, string>): Promise<LabTablesOutcome> {
  const ready = await sandboxed();
  if (!ready.ok) return { ok: false, packets: labs.map((p) => p.id), diagnostic: diagnose(Errors.SandboxUnavailable, { file: o.packets }, { reason: ready.message }), exitCode: 2 };
  const [{ default: pLimit }, { loadPacketFiles }, { LabBundleErrors }] = await Promise.all([import('p-limit'), import('../judge/workspace.ts'), import('../errors/lab-catalog.ts')]);
  const limit = pLimit(o.sandbox.jobs);
  const outcomes = await Promise.all(labs.map((lab) => limit(async () => ({ lab, outcome: await ready.tables(await loadPacketFiles(lab, folders.get(lab.id)!)) }))));
  const tables = new Map<string, LabTable>();
  let cached = 0;
  for (const { lab, outcome } of outcomes) {
    if ('error' in outcome) return { ok: false, packets: [lab.id], diagnostic: diagnose(LabBundleErrors.LabTableFailed, { file: lab.dir }, { packet: lab.id, reason: outcome.error }), exitCode: 1 };
    tables.set(lab.id, outcome.table);
    if (outcome.cached) cached++;
  }
  return { ok: true, tables, cached };
}

/**
 * The offline rehearsal, as `packet rehearse` runs it (and with its cache): the sandbox, and the
 * embedded scripted endpoint on 127.0.0.1 for the scripted replies, receipts kept in memory.
 */
async function rehearseOffline(o: FsBuildOptions, sandboxed: () => Promise<Sandboxed>, packets: CodePacket[], folders: ReadonlyMap<string, string>): Promise<RehearsalOutcome> {
  const [{ startScriptedServer, replyStoreFromDirs }, { rehearse }, { directoryCache }] = await Promise.all([
    import('../llm/scripted-server.ts'),
    import('../rehearse/rehearse.ts'),
    import('../rehearse/cache.ts'),
  ]);
  const ready = await sandboxed();
  if (!ready.ok) return { ok: false, diagnostic: diagnose(Errors.SandboxUnavailable, { file: o.packets }, { reason: ready.message }) };
  const { environment } = ready;
  const server = await startScriptedServer({
    replies: replyStoreFromDirs(new Map(packets.map((p) => [p.id, { dir: folders.get(p.id)!, replies: p.trees.replies }]))),
  });
  try {
    const report = await rehearse({
      packets,
      packetDirs: folders,
      sandbox: environment.sandbox,
      sandboxNotice: environment.notice,
      interpreter: environment.interpreter,
      jobs: o.sandbox.jobs,
      timeoutMs: o.sandbox.timeoutMs,
      cache: directoryCache(path.resolve(o.cwd, 'node_modules/.cache/packet-kit/rehearse'), o.kit),
      reporters: [buildReporter(o.out)],
      scratchDir: ready.scratchDir,
      date: o.now,
      now: () => performance.now(),
      scripted: { url: server.url, outDir: null, cwd: o.cwd },
      labTables: ready.tables,
    });
    await writeWhole(o.reportFile, JSON.stringify(report, null, 2) + '\n');
    return { ok: true, report };
  } finally {
    await server.close();
  }
}
