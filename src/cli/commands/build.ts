import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BuildSteps, RehearsalOutcome } from '../../bundle/build.ts';
import { KIT_ROOT, startSiteBuilder } from '../../bundle/site-build.ts';
import type { Diagnostic } from '../../errors/diagnostic.ts';
import type { Reporter } from '../../rehearse/reporter.ts';
import { buildSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';
import { parsePoolOptions } from '../pool-options.ts';

// The Astro child starts before the rest of the build's modules load (about 0.4 s of them: the
// lint, the loader, the zips), so only node:*, site-build.ts and types are imported up front.
const buildModules = async () => {
  const [build, zipCache, catalog, diagnostic, load, format, check, profiler] = await Promise.all([
    import('../../bundle/build.ts'),
    import('../../bundle/zip-cache.ts'),
    import('../../errors/catalog.ts'),
    import('../../errors/diagnostic.ts'),
    import('../../packets/load.ts'),
    import('../format-diagnostics.ts'),
    import('./check.ts'),
    import('@secretlint/profiler'),
  ]);
  // secretlint profiles every rule on every text unless told not to (a performance mark each, kept
  // until the process ends): as its README advises for library use, off. Half of the scan's time.
  profiler.secretLintProfiler.setEnabled(false);
  return { ...build, ...zipCache, ...catalog, ...diagnostic, ...load, ...format, ...check };
};

/** The rehearsal's own modules, loaded only when the build rehearses. */
const rehearsalModules = async () => {
  const [server, cache, environment, run, command] = await Promise.all([
    import('../../llm/scripted-server.ts'),
    import('../../rehearse/cache.ts'),
    import('../../rehearse/environment.ts'),
    import('../../rehearse/rehearse.ts'),
    import('./rehearse.ts'),
  ]);
  return { ...server, ...cache, ...environment, ...run, ...command };
};

/** A quiet rehearsal reporter for the build: only packets that do not fail closed, with their defects. */
function buildReporter(out: (text: string) => void): Reporter {
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

/** `packet build`. */
export async function buildCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(buildSpec, args);
  if (values.help) {
    io.out(helpText(buildSpec));
    return 0;
  }
  if (positionals.length) {
    io.err(`packet build: the build takes no packet ids (the site lists every packet); use \`packet check ${positionals.join(' ')}\` or \`packet rehearse ${positionals.join(' ')}\` for some.\n`);
    return 2;
  }
  const pool = parsePoolOptions('build', values, io);
  if (!pool) return 2;
  const { jobs, timeout } = pool;
  const cwd = io.cwd;
  const packetsDir = path.resolve(cwd, values.packets);
  const outDir = path.resolve(cwd, values['out-dir']);
  const reviewerDir = path.resolve(cwd, values['reviewer-dir']);
  const reportFile = path.resolve(cwd, values.report);
  const siteRoot = values['site-root'] ? path.resolve(cwd, values['site-root']) : KIT_ROOT;
  // The targets are replaced whole: never a folder that holds the project, the packets or the other target.
  const inside = (child: string, parent: string) => child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
  for (const [flag, target] of [['--out-dir', outDir], ['--reviewer-dir', reviewerDir]] as const) {
    const other = target === outDir ? reviewerDir : outDir;
    const held = [cwd, packetsDir, siteRoot, other].find((p) => inside(p, target));
    if (held || inside(target, packetsDir)) {
      const why = held ? `would replace a folder holding ${path.relative(cwd, held) || '.'}` : 'is inside the packets folder';
      io.err(`packet build: ${flag} ${path.relative(cwd, target) || '.'} ${why}; give it a folder of its own (default: ${flag === '--out-dir' ? 'dist' : 'out/reviewer'}).\n`);
      return 2;
    }
  }
  // Astro starts now, while the packets are checked and zipped; the kit's own site waits for the manifest (site-manifest-gate.ts).
  const site = startSiteBuilder({ root: siteRoot, env: io.env, tag: String(process.pid), packetsDir, early: siteRoot === KIT_ROOT });
  // Ctrl-C or SIGTERM: stop the Astro child, remove the staging folders, keep the previous output.
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    io.err(`\npacket build: ${signal}: stopping; the previous ${values['out-dir']}/ is kept.\n`);
    controller.abort(signal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const started = performance.now();
  try {
    const { runBuild, readReportFile, directoryZipCache, kitFingerprint, diagnose, Errors, sortDiagnostics, loadPackets, formatDiagnosticsText, checkLoadedPackets } = await buildModules();
    const folders = new Map<string, string>();
    const printDiagnostics = (list: readonly Diagnostic[]) => {
      if (list.length) io.err(formatDiagnosticsText(sortDiagnostics(list), { cwd, frames: io.isTTY, color: io.isTTY && !io.env.NO_COLOR }));
    };
    const steps: BuildSteps = {
      async load() {
        const loaded = await loadPackets({ packetsDir: values.packets, cwd });
        for (const s of loaded.sources) folders.set(s.id, path.join(packetsDir, s.folder));
        return loaded;
      },
      lint: (packets) => checkLoadedPackets(packets, { cwd, lint: true, ...(values.config ? { config: values.config } : {}), outDir: values['out-dir'] }),
      ...(values['skip-rehearse']
        ? {}
        : {
            async rehearse(packets): Promise<RehearsalOutcome> {
              const { prepareRunEnvironment, startScriptedServer, replyStoreFromDirs, rehearse, directoryCache, writeFileAtomic } = await rehearsalModules();
              const bwrapPath = io.env.PACKET_KIT_BWRAP;
              const prepared = await prepareRunEnvironment({ env: io.env, tmpDir: tmpdir(), allowUnconfined: values.unconfined, ...(bwrapPath ? { bwrapPath } : {}) });
              if (!prepared.ok) return { ok: false, diagnostic: diagnose(Errors.SandboxUnavailable, { file: values.packets }, { reason: prepared.message }) };
              const { environment } = prepared;
              // The scripted replies are part of the offline rehearsal, as in `packet rehearse` (whose
              // cached results this reuses): the embedded endpoint on 127.0.0.1, receipts kept in memory.
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
                  jobs,
                  timeoutMs: timeout * 1000,
                  cache: directoryCache(path.resolve(cwd, 'node_modules/.cache/packet-kit/rehearse')),
                  reporters: [buildReporter((s) => io.out(s))],
                  scratchDir: tmpdir(),
                  date: io.now,
                  now: () => performance.now(),
                  scripted: { url: server.url, outDir: null, cwd },
                });
                await writeFileAtomic(reportFile, JSON.stringify(report, null, 2) + '\n');
                return { ok: true, report };
              } finally {
                await server.close();
                await environment.dispose();
              }
            },
          }),
      lastReport: () => readReportFile(reportFile),
      buildSite: ({ outDir: staging, manifestFile, signal }) => site.build({ outDir: staging, manifestFile, signal }),
    };

    const result = await runBuild({
      cwd,
      outDir,
      reviewerDir,
      steps,
      reader: (packet) => {
        const dir = folders.get(packet.id) ?? path.resolve(cwd, packet.dir);
        // Synchronous reads: packet files are small, and a thread-pool round trip per file costs more than the read.
        return async (rel) => {
          try {
            const b = readFileSync(path.join(dir, rel));
            return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
          } catch {
            return undefined;
          }
        };
      },
      zipCache: directoryZipCache(path.resolve(cwd, 'node_modules/.cache/packet-kit/zips'), kitFingerprint(KIT_ROOT)),
      log: (line) => io.out(line),
      report: printDiagnostics,
      signal: controller.signal,
      now: () => performance.now(),
      tag: String(process.pid),
    });
    if (!result.ok) {
      const d = result.diagnostic;
      const where = result.step === 'interrupted' ? 'interrupted' : `failed at step "${result.step}"`;
      const packets = result.packets.length ? ` (packet${result.packets.length === 1 ? '' : 's'}: ${result.packets.join(', ')})` : '';
      io.err(`packet build: ${where}${packets}.\n${d.code} ${d.message}\n  hint: ${d.hint}\n`);
      if (result.step === 'interrupted') return controller.signal.reason === 'SIGTERM' ? 143 : 130;
      return result.exitCode;
    }
    const rel = (p: string) => path.relative(cwd, p).split(path.sep).join('/') || '.';
    io.out(`build: done       ${result.packets.length} packet${result.packets.length === 1 ? '' : 's'} in ${((performance.now() - started) / 1000).toFixed(1)} s: ${rel(outDir)}/, ${rel(reviewerDir)}/\n`);
    return 0;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    await site.dispose();
  }
}
