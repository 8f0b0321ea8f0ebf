import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BuildSteps, LabTablesOutcome, RehearsalOutcome } from '../../bundle/build.ts';
import { KIT_ROOT, startSiteBuilder } from '../../bundle/site-build.ts';
import type { Diagnostic } from '../../errors/diagnostic.ts';
import type { Reporter } from '../../rehearse/reporter.ts';
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
  const [server, cache, run, command] = await Promise.all([
    import('../../llm/scripted-server.ts'),
    import('../../rehearse/cache.ts'),
    import('../../rehearse/rehearse.ts'),
    import('./rehearse.ts'),
    import('../../sandbox/scratch.ts'),
  ]);
  return { ...server, ...cache, ...run, ...command };
};

/** The sandbox and the labs' tables, loaded when the build rehearses or has labs. */
const sandboxModules = async () => {
  const [environment, tables, workspace, labCatalog, scratch] = await Promise.all([
    import('../../rehearse/environment.ts'),
    import('../../labs/table-cache.ts'),
    import('../../judge/workspace.ts'),
    import('../../errors/lab-catalog.ts'),
    import('../../sandbox/scratch.ts'),
  ]);
  return { ...environment, ...tables, ...workspace, ...labCatalog, ...scratch };
};

export const buildHelp = `Usage: packet build [options]

Build everything that ships, or nothing:
  1. check      validate and lint every packet; an error stops the build
  2. rehearse   the offline rehearsal (cached); a defect or an inconclusive
                packet stops the build
     labs       every lab's test table: each combination of its suggestions
                run with the visible and held-out tests in the sandbox
                (cached; also with --skip-rehearse)
  3. zips       the candidate zips <id>-<version>.zip (deterministic, refused
                files and secrets stop the build) and packets.json
  4. site       the Astro site
  5. canary     every secret line of every packet is searched in the whole site,
                zips opened; a leak stops the build
  6. reviewer   the reviewer bundles (all trees, KEY.md, the rehearsal result,
                and the last \`packet mutate\` run in out/mutate/<id>/: its score
                in KEY.md, its reports as MUTATION.json and MUTATION.html)
  7. swap       the new site and bundles replace the old ones at once
Everything is built in staging folders beside the targets: a failed or
interrupted build leaves the previous site and bundles as they were.

  --packets DIR        the packets folder (default: packets)
  --out-dir DIR        the site (default: dist); zips in DIR/zips/
  --reviewer-dir DIR   the reviewer bundles (default: out/reviewer)
  --skip-rehearse      a quick preview: no rehearsal, every packet is shown
                       as "not rehearsed"
  --unconfined         where bubblewrap is unusable, rehearse the packets' own
                       trees without isolation (see packet rehearse --help)
  --jobs N             rehearsal sandbox runs at once (default: cores)
  --timeout S          seconds per rehearsal test run (default: 30)
  --report FILE        the rehearsal report (default: out/rehearsal/report.json)
  --config FILE        the lint config (default: packet-kit.config.json)
  --site-root DIR      the Astro project (default: packet-kit's own)

Exit: 0 built, 1 a packet or the site failed, 2 inconclusive rehearsal or no
sandbox, 130/143 interrupted.
`;

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
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      packets: { type: 'string', default: 'packets' },
      'out-dir': { type: 'string', default: 'dist' },
      'reviewer-dir': { type: 'string', default: 'out/reviewer' },
      'skip-rehearse': { type: 'boolean', default: false },
      unconfined: { type: 'boolean', default: false },
      jobs: { type: 'string' },
      timeout: { type: 'string', default: '30' },
      report: { type: 'string', default: 'out/rehearsal/report.json' },
      config: { type: 'string' },
      'site-root': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.out(buildHelp);
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
  let disposeSandbox: (() => Promise<void>) | undefined;
  const started = performance.now();
  try {
    const { runBuild, readReportFile, directoryZipCache, kitFingerprint, diagnose, Errors, sortDiagnostics, loadPackets, formatDiagnosticsText, checkLoadedPackets } = await buildModules();
    const folders = new Map<string, string>();
    let drills: import('../../packets/drill.ts').Drill[] = [];
    // One sandbox for the rehearsal and the labs' tables, prepared on first use; the tables are shared (each lab's computed once).
    type Sandboxed = Awaited<ReturnType<typeof sandboxModules>>;
    type Ready = { ok: true; environment: import('../../rehearse/environment.ts').RunEnvironment; tables: import('../../labs/table-cache.ts').LabTables; scratchDir: string; m: Sandboxed } | { ok: false; message: string };
    let sandbox: Promise<Ready> | undefined;
    const sandboxed = () =>
      (sandbox ??= (async (): Promise<Ready> => {
        const m = await sandboxModules();
        const bwrapPath = io.env.PACKET_KIT_BWRAP;
        // Workspaces, the interpreter shim and the self-test go in a scratch root of the build's
        // own, removed after it, on Ctrl-C or SIGTERM, or by a later run.
        const scratchRoot = await m.createScratchRoot({ parent: tmpdir() });
        const prepared = await m.prepareRunEnvironment({ env: io.env, tmpDir: scratchRoot.dir, allowUnconfined: values.unconfined, ...(bwrapPath ? { bwrapPath } : {}) });
        if (!prepared.ok) {
          await scratchRoot.dispose();
          return { ok: false, message: prepared.message };
        }
        const { environment } = prepared;
        disposeSandbox = async () => {
          await environment.dispose();
          await scratchRoot.dispose();
        };
        const tables = m.labTables({
          runner: { sandbox: environment.sandbox, mounts: environment.interpreter.mounts, timeoutMs: timeout * 1000 },
          scratchDir: scratchRoot.dir,
          dir: path.resolve(cwd, 'node_modules/.cache/packet-kit/labs'),
          interpreter: environment.interpreter.version,
          kit: kitFingerprint(KIT_ROOT),
        });
        return { ok: true, environment, tables, scratchDir: scratchRoot.dir, m };
      })());
    const printDiagnostics = (list: readonly Diagnostic[]) => {
      if (list.length) io.err(formatDiagnosticsText(sortDiagnostics(list), { cwd, frames: io.isTTY, color: io.isTTY && !io.env.NO_COLOR }));
    };
    const steps: BuildSteps = {
      async load() {
        const loaded = await loadPackets({ packetsDir: values.packets, cwd });
        for (const s of loaded.sources) folders.set(s.id, path.join(packetsDir, s.folder));
        drills = loaded.drills;
        return loaded;
      },
      lint: (packets) => checkLoadedPackets(packets, { cwd, lint: true, ...(values.config ? { config: values.config } : {}), outDir: values['out-dir'] }, drills),
      ...(values['skip-rehearse']
        ? {}
        : {
            async rehearse(packets): Promise<RehearsalOutcome> {
              const { startScriptedServer, replyStoreFromDirs, rehearse, directoryCache, writeFileAtomic } = await rehearsalModules();
              const ready = await sandboxed();
              if (!ready.ok) return { ok: false, diagnostic: diagnose(Errors.SandboxUnavailable, { file: values.packets }, { reason: ready.message }) };
              const { environment } = ready;
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
                  cache: directoryCache(path.resolve(cwd, 'node_modules/.cache/packet-kit/rehearse'), kitFingerprint(KIT_ROOT)),
                  reporters: [buildReporter((s) => io.out(s))],
                  scratchDir: ready.scratchDir,
                  date: io.now,
                  now: () => performance.now(),
                  scripted: { url: server.url, outDir: null, cwd },
                  labTables: ready.tables,
                });
                await writeFileAtomic(reportFile, JSON.stringify(report, null, 2) + '\n');
                return { ok: true, report };
              } finally {
                await server.close();
              }
            },
          }),
      async labTables(labs): Promise<LabTablesOutcome> {
        const ready = await sandboxed();
        if (!ready.ok) return { ok: false, packets: labs.map((p) => p.id), diagnostic: diagnose(Errors.SandboxUnavailable, { file: values.packets }, { reason: ready.message }), exitCode: 2 };
        const tables = new Map<string, import('../../labs/table.ts').LabTable>();
        let cached = 0;
        // One table per sandbox run, as many at once as the rehearsal runs tests.
        const limit = (await import('p-limit')).default(jobs);
        const outcomes = await Promise.all(labs.map((lab) => limit(async () => ({ lab, outcome: await ready.tables(await ready.m.loadPacketFiles(lab, folders.get(lab.id)!)) }))));
        for (const { lab, outcome } of outcomes) {
          if ('error' in outcome) {
            return { ok: false, packets: [lab.id], diagnostic: diagnose(ready.m.LabBundleErrors.LabTableFailed, { file: lab.dir }, { packet: lab.id, reason: outcome.error }), exitCode: 1 };
          }
          tables.set(lab.id, outcome.table);
          if (outcome.cached) cached++;
        }
        return { ok: true, tables, cached };
      },
      lastReport: () => readReportFile(reportFile),
      // The last `packet mutate` run of each packet, in its default folder.
      lastMutation: async (packet) => (await import('../../mutate/report.ts')).readMutationRun(path.resolve(cwd, 'out', 'mutate', packet.id)),
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
    await disposeSandbox?.();
  }
}
