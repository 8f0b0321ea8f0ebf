import path from 'node:path';
import { checkLoadedPackets, projectLintCache } from '../check/check-packets.ts';
import { diagnose } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import type { LabTables } from '../labs/table-cache.ts';
import type { LabTable } from '../labs/table.ts';
import type { VariantTable } from './lab-variant-tables.ts';
import { readBytesCappedSync } from '../packets/capped-read.ts';
import { FILE_LIMIT_MAX_MB, MIB } from '../packets/file-limits.ts';
import { loadPackets } from '../packets/load.ts';
import type { CodePacket, Lab, Packet } from '../packets/packet.ts';
import type { RehearsalReporter } from '../rehearse/reporter.ts';
import type { ReadySandbox, RunContext, RunHost } from '../runs/context.ts';
import type { BuildReporter, BuildSteps, LabTablesOutcome, RehearsalOutcome } from './build.ts';
import type { PacketFileReader } from './candidate-zip.ts';
import { readReportFile } from './build.ts';
import type { SiteBuilder } from './site-build.ts';
import { forTerminal } from '../errors/escape.ts';

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
  /** The outside world: the environment (PACKET_KIT_BWRAP is read from it), the clock for the report's date. */
  host: RunHost;
  /** Where the rehearsal's lines go. */
  reporter: Pick<BuildReporter, 'onLine'>;
  /** The Astro child, started early. */
  site: SiteBuilder;
  /** The fingerprint of the kit's code, which the caches of search indexes are tied to. */
  kit: string;
  /** `--variants N`: checked against every packet with parameters (PK153). */
  variants?: number;
}

/** A quiet rehearsal reporter for the build: only packets that do not fail closed, with their defects. */
export function buildReporter(out: (text: string) => void): RehearsalReporter {
  return {
    onPacketEnd(report) {
      if (report.status === 'fails-closed') return;
      out(`  ${report.status.toUpperCase()} ${forTerminal(report.id)} ${forTerminal(report.version)}\n`);
      for (const c of report.checks.filter((x) => !x.ok)) out(`    ${forTerminal(c.id)}: ${forTerminal(c.defect ?? c.actual)}\n`);
    },
    onRunEnd(report) {
      if (report.sandbox.notice) out(`  note: ${forTerminal(report.sandbox.notice, { lines: true })}\n`);
    },
  };
}

/** The sandbox of a build, shared by the rehearsal and the labs' tables. */
type Sandboxed = { ok: true; ctx: RunContext; ready: ReadySandbox; tables: LabTables } | { ok: false; diagnostic: Diagnostic };

/** The build's steps and file reader for a project on disk; `dispose` removes the sandbox's scratch root once the build is over. */
export function fsBuildSteps(o: FsBuildOptions): { steps: BuildSteps; reader: (packet: Pick<Packet, 'id' | 'dir'>) => PacketFileReader; dispose(): Promise<void> } {
  const packetsDir = path.resolve(o.cwd, o.packets);
  const folders = new Map<string, string>();
  let sandbox: Promise<Sandboxed> | undefined;
  let context: RunContext | undefined;
  // Prepared once, when the rehearsal or the labs first need it: the run context's sandbox, in a
  // scratch root of the build's own, removed after it, on Ctrl-C or SIGTERM, or by a later run.
  const sandboxed = () =>
    (sandbox ??= (async (): Promise<Sandboxed> => {
      const { openRunContext } = await import('../runs/context.ts');
      const ctx = (context = openRunContext('build', o.host, { unconfined: o.sandbox.allowUnconfined, packets: o.packets }, { onMessage: (text) => o.reporter.onLine?.(`  ${text}`) })!);
      const made = await ctx.sandbox();
      if (!made.ok) return { ok: false, diagnostic: made.diagnostic };
      const tables = made.ready.labTables({ dir: 'node_modules/.cache/packet-kit/labs', kit: o.kit, timeoutMs: o.sandbox.timeoutMs });
      return { ok: true, ctx, ready: made.ready, tables };
    })());
  const steps: BuildSteps = {
    async load(ids) {
      const loaded = await loadPackets({ packetsDir: o.packets, cwd: o.cwd, ...(ids?.length ? { ids } : {}) });
      for (const s of loaded.sources) folders.set(s.id, path.join(packetsDir, s.folder));
      return loaded;
    },
    lint: (packets) => checkLoadedPackets(packets, { cwd: o.cwd, lint: true, ...(o.config ? { config: o.config } : {}), outDir: o.outDir, lintCache: projectLintCache(o.cwd, o.kit), ...(o.variants !== undefined ? { variants: o.variants } : {}) }),
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
    return async (rel) => readBytesCappedSync(path.join(dir, rel), FILE_LIMIT_MAX_MB * MIB);
  };
  return { steps, reader, dispose: async () => await context?.dispose() };
}

/**
 * Every lab's test table, as many at once as the rehearsal runs tests (cached, shared with
 * `packet rehearse`); a lab with variants has one per variant (src/bundle/lab-variant-tables.ts),
 * each said as it is known, its v1's standing for the lab.
 */
async function labTablesOf(o: FsBuildOptions, sandboxed: () => Promise<Sandboxed>, labs: Lab[], folders: ReadonlyMap<string, string>): Promise<LabTablesOutcome> {
  const ready = await sandboxed();
  if (!ready.ok) return { ok: false, packets: labs.map((p) => p.id), diagnostic: ready.diagnostic, exitCode: 2 };
  const [{ default: pLimit }, { loadPacketFiles }, { LabBundleErrors }, { labVariantTables }] = await Promise.all([
    import('p-limit'),
    import('../judge/workspace.ts'),
    import('../errors/lab-catalog.ts'),
    import('./lab-variant-tables.ts'),
  ]);
  const limit = pLimit(o.sandbox.jobs);
  const failed = (lab: Lab, reason: string): LabTablesOutcome => ({ ok: false, packets: [lab.id], diagnostic: diagnose(LabBundleErrors.LabTableFailed, { file: lab.dir }, { packet: lab.id, reason }), exitCode: 1 });
  const tables = new Map<string, LabTable>();
  const variants = new Map<string, VariantTable[]>();
  let cached = 0;
  const outcomes = await Promise.all(
    labs.map(async (lab): Promise<LabTablesOutcome | undefined> => {
      const dir = folders.get(lab.id)!;
      if (!lab.prompt.data.variants) {
        const outcome = await limit(async () => ready.tables(await loadPacketFiles(lab, dir)));
        if ('error' in outcome) return failed(lab, outcome.error);
        tables.set(lab.id, outcome.table);
        if (outcome.cached) cached++;
        return undefined;
      }
      const got = await labVariantTables(lab, {
        read: async (rel) => readBytesCappedSync(path.join(dir, rel), FILE_LIMIT_MAX_MB * MIB),
        ...(o.variants !== undefined ? { count: o.variants } : {}),
        scratchDir: ready.ready.scratchDir,
        files: (v, vdir) => loadPacketFiles(v.packet, vdir),
        table: ready.tables,
        schedule: (fn) => limit(fn),
        onVariant: (l, v) =>
          o.reporter.onLine?.(`  labs: ${forTerminal(l.id)} ${v.id}: ${v.table.combinations.length} combinations${v.cached ? ' (cached)' : ''}\n`),
      });
      if (!got.ok) return failed(lab, got.error);
      variants.set(lab.id, got.variants);
      tables.set(lab.id, got.variants[0]!.table);
      cached += got.variants.filter((v) => v.cached).length;
      return undefined;
    }),
  );
  const failure = outcomes.find((x) => x !== undefined);
  if (failure) return failure;
  // The labs' order, whatever order their tables ended in.
  const ordered = new Map(labs.flatMap((l) => (tables.has(l.id) ? [[l.id, tables.get(l.id)!] as const] : [])));
  return { ok: true, tables: ordered, variants, cached };
}

/**
 * The offline rehearsal, as `packet rehearse` runs it (and with its cache): the sandbox, and the
 * embedded scripted endpoint on 127.0.0.1 for the scripted replies, receipts kept in memory.
 */
async function rehearseOffline(o: FsBuildOptions, sandboxed: () => Promise<Sandboxed>, packets: CodePacket[], folders: ReadonlyMap<string, string>): Promise<RehearsalOutcome> {
  const [{ rehearse }, { jsonReportFile }, { directoryCache }, { replySource }] = await Promise.all([
    import('../rehearse/rehearse.ts'),
    import('../rehearse/report-file.ts'),
    import('../rehearse/cache.ts'),
    import('../rehearse/rehearse-variants.ts'),
  ]);
  const ready = await sandboxed();
  if (!ready.ok) return { ok: false, diagnostic: ready.diagnostic };
  const { environment } = ready.ready;
  const server = await ready.ctx.scriptedServer(packets.map((p) => replySource(p, folders.get(p.id)!)));
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
      reporters: [buildReporter((text) => o.reporter.onLine?.(text))],
      scratchDir: ready.ready.scratchDir,
      date: o.host.now,
      now: () => performance.now(),
      scripted: { url: server.url, outDir: null, cwd: o.cwd },
      labTables: ready.tables,
      ...(o.variants !== undefined ? { variants: o.variants } : {}),
    });
    await jsonReportFile(o.reportFile).onReport!(report);
    return { ok: true, report };
  } finally {
    await server.close();
  }
}
