import path from 'node:path';
import { KIT_ROOT, startSiteBuilder } from '../../bundle/site-build.ts';
import { targetProblem } from '../../bundle/targets.ts';
import type { Diagnostic } from '../../errors/diagnostic.ts';
import { renderDiagnostic } from '../../errors/render.ts';
import { buildSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';
import { parsePoolOptions } from '../pool-options.ts';

// The Astro child starts before the rest of the build's modules load (about 0.4 s of them: the
// lint, the loader, the zips), so only node:*, site-build.ts and types are imported up front.
const buildModules = async () => {
  const [build, steps, zipCache, diagnostic, format, docs, canary] = await Promise.all([
    import('../../bundle/build.ts'),
    import('../../bundle/build-steps.ts'),
    import('../../bundle/zip-cache.ts'),
    import('../../errors/diagnostic.ts'),
    import('../format-diagnostics.ts'),
    import('../../docs/generated-sections.ts'),
    import('../../bundle/canary.ts'),
  ]);
  return { ...build, ...steps, ...zipCache, ...diagnostic, ...format, ...docs, ...canary };
};

/** `packet build`: flags in, the build (src/bundle/build.ts) run, its lines and its result printed. */
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
  const cwd = io.cwd;
  const packetsDir = path.resolve(cwd, values.packets);
  const outDir = path.resolve(cwd, values['out-dir']);
  const reviewerDir = path.resolve(cwd, values['reviewer-dir']);
  const siteRoot = values['site-root'] ? path.resolve(cwd, values['site-root']) : KIT_ROOT;
  for (const [flag, target, other, fallback] of [['--out-dir', outDir, reviewerDir, 'dist'], ['--reviewer-dir', reviewerDir, outDir, 'out/reviewer']] as const) {
    const why = targetProblem(target, other, { cwd, packetsDir, siteRoot });
    if (why) {
      io.err(`packet build: ${flag} ${path.relative(cwd, target) || '.'} ${why}; give it a folder of its own (default: ${fallback}).\n`);
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
  let disposeSteps: (() => Promise<void>) | undefined;
  try {
    const m = await buildModules();
    const kit = m.kitFingerprint(KIT_ROOT);
    const cache = (name: string) => path.resolve(cwd, 'node_modules/.cache/packet-kit', name);
    const built = m.fsBuildSteps({
      cwd,
      packets: values.packets,
      outDir: values['out-dir'],
      ...(values.config ? { config: values.config } : {}),
      reportFile: path.resolve(cwd, values.report),
      rehearse: !values['skip-rehearse'],
      sandbox: { jobs: pool.jobs, timeoutMs: pool.timeout * 1000, allowUnconfined: values.unconfined },
      env: io.env,
      now: io.now,
      out: (text) => io.out(text),
      site,
      kit,
    });
    disposeSteps = built.dispose;
    const { steps, reader } = built;
    const printDiagnostics = (list: readonly Diagnostic[]) => {
      if (list.length) io.err(m.formatDiagnosticsText(m.sortDiagnostics(list), { cwd, frames: io.isTTY, color: io.isTTY && !io.env.NO_COLOR }));
    };
    const result = await m.runBuild({
      cwd,
      outDir,
      reviewerDir,
      steps,
      reader,
      zipCache: m.directoryZipCache(cache('zips'), kit),
      canaryCache: m.directoryCanaryCache(cache('canary'), kit),
      log: (line) => io.out(line),
      report: printDiagnostics,
      signal: controller.signal,
      now: () => performance.now(),
      tag: String(process.pid),
      kitTexts: m.kitPublicTexts(),
    });
    if (!result.ok) {
      const d = result.diagnostic;
      const where = result.step === 'interrupted' ? 'interrupted' : `failed at step "${result.step}"`;
      const packets = result.packets.length ? ` (packet${result.packets.length === 1 ? '' : 's'}: ${result.packets.join(', ')})` : '';
      io.err(`packet build: ${where}${packets}.\n${renderDiagnostic(d, { place: false })}`);
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
    await disposeSteps?.();
  }
}
