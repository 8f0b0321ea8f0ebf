import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkLoadedPackets, projectLintCache } from '../check/check-packets.ts';
import { diagnose, Errors } from '../errors/catalog.ts';
import { loadPackets } from '../packets/load.ts';
import type { Packet } from '../packets/packet.ts';
import type { Reporter } from '../rehearse/reporter.ts';
import type { BuildSteps, RehearsalOutcome } from './build.ts';
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
  /** The rehearsal, unless skipped. */
  rehearse?: {
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

/** The build's steps and file reader for a project on disk. */
export function fsBuildSteps(o: FsBuildOptions): { steps: BuildSteps; reader: (packet: Packet) => PacketFileReader } {
  const packetsDir = path.resolve(o.cwd, o.packets);
  const folders = new Map<string, string>();
  const rehearsal = o.rehearse;
  const steps: BuildSteps = {
    async load() {
      const loaded = await loadPackets({ packetsDir: o.packets, cwd: o.cwd });
      for (const s of loaded.sources) folders.set(s.id, path.join(packetsDir, s.folder));
      return loaded;
    },
    lint: (packets) => checkLoadedPackets(packets, { cwd: o.cwd, lint: true, ...(o.config ? { config: o.config } : {}), outDir: o.outDir, lintCache: projectLintCache(o.cwd, o.kit) }),
    ...(rehearsal ? { rehearse: (packets: Packet[]) => rehearseOffline(o, rehearsal, packets, folders) } : {}),
    lastReport: () => readReportFile(o.reportFile),
    buildSite: ({ outDir, manifestFile, signal }) => o.site.build({ outDir, manifestFile, signal }),
    searchIndex: async (packets, outputDir) =>
      (await import('./search-index.ts')).buildSearchIndex(packets, outputDir, { dir: path.resolve(o.cwd, 'node_modules/.cache/packet-kit/search'), kit: o.kit }),
  };
  const reader = (packet: Packet): PacketFileReader => {
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
  return { steps, reader };
}

/**
 * The offline rehearsal, as `packet rehearse` runs it (and with its cache): the sandbox, and the
 * embedded scripted endpoint on 127.0.0.1 for the scripted replies, receipts kept in memory.
 */
async function rehearseOffline(o: FsBuildOptions, r: NonNullable<FsBuildOptions['rehearse']>, packets: Packet[], folders: ReadonlyMap<string, string>): Promise<RehearsalOutcome> {
  const [{ prepareRunEnvironment }, { startScriptedServer, replyStoreFromDirs }, { rehearse }, { directoryCache }] = await Promise.all([
    import('../rehearse/environment.ts'),
    import('../llm/scripted-server.ts'),
    import('../rehearse/rehearse.ts'),
    import('../rehearse/cache.ts'),
  ]);
  const bwrapPath = o.env.PACKET_KIT_BWRAP;
  const prepared = await prepareRunEnvironment({ env: o.env, tmpDir: tmpdir(), allowUnconfined: r.allowUnconfined, ...(bwrapPath ? { bwrapPath } : {}) });
  if (!prepared.ok) return { ok: false, diagnostic: diagnose(Errors.SandboxUnavailable, { file: o.packets }, { reason: prepared.message }) };
  const { environment } = prepared;
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
      jobs: r.jobs,
      timeoutMs: r.timeoutMs,
      cache: directoryCache(path.resolve(o.cwd, 'node_modules/.cache/packet-kit/rehearse')),
      reporters: [buildReporter(o.out)],
      scratchDir: tmpdir(),
      date: o.now,
      now: () => performance.now(),
      scripted: { url: server.url, outDir: null, cwd: o.cwd },
    });
    await writeWhole(o.reportFile, JSON.stringify(report, null, 2) + '\n');
    return { ok: true, report };
  } finally {
    await server.close();
    await environment.dispose();
  }
}
