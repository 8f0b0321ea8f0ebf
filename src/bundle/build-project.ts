/**
 * `packet build` as a library call, from its flags to its exit code: the two output folders
 * checked (the numbers come checked by the flag spec), the Astro child started at once, the
 * build's modules loaded while it starts, the steps on disk (with the run context's sandbox, made when first needed) run by
 * `runBuild`, Ctrl-C or SIGTERM turned into a clean stop that keeps the previous output.
 * Everything said goes to the reporter.
 *
 * The Astro child starts before the rest of the build's modules load (about 0.4 s of them: the
 * lint, the loader, the zips), so only node:*, site-build.ts, targets.ts and types are imported
 * up front here.
 */
import path from 'node:path';
import type { RunHost } from '../runs/context.ts';
import { poolOf, type PoolFlags } from '../runs/run-flags.ts';
import type { BuildReporter } from './build.ts';
import { KIT_ROOT, startSiteBuilder } from './site-build.ts';
import { targetProblem } from './targets.ts';

/** The flags of `packet build`, as parsed: `--jobs` (default: the cores) and `--timeout` within the flag spec's bounds. */
export interface BuildFlags extends PoolFlags {
  packets: string;
  'out-dir': string;
  'reviewer-dir': string;
  'skip-rehearse': boolean;
  unconfined: boolean;
  report: string;
  config?: string | undefined;
  'site-root'?: string | undefined;
  /** `--variants N`: the variants made of every packet with parameters, over its `variants.count`. */
  variants?: number | undefined;
  /** The packets to build (`packet build <id>...`); every packet of the folder when absent or empty. */
  ids?: readonly string[] | undefined;
}

/** What the build takes from above it: what the site publishes of the kit's own (docs, schemas), loaded when needed. */
export interface BuildProjectOptions {
  kitTexts(): Promise<readonly string[]>;
  /** The process whose signals stop the build; default this one. */
  signals?: Pick<NodeJS.Process, 'once' | 'removeListener'>;
  /** The suffix of the staging folders; default the process id. */
  tag?: string;
}

const buildModules = async () => {
  const [build, steps, zipCache, fingerprint, canary] = await Promise.all([
    import('./build.ts'),
    import('./build-steps.ts'),
    import('./zip-cache.ts'),
    import('../kit/fingerprint.ts'),
    import('./canary.ts'),
  ]);
  return { ...build, ...steps, ...zipCache, ...fingerprint, ...canary };
};

/** Build as `packet build` does: 0 built, 1 a packet or the site failed, 2 rehearsal inconclusive, no sandbox, an output folder that cannot be written or another build publishing into it, an unknown packet id, or a wrong flag, 130/143 interrupted. */
export async function buildProject(flags: BuildFlags, host: RunHost, reporter: BuildReporter, o: BuildProjectOptions): Promise<number> {
  const pool = poolOf(flags);
  const { cwd } = host;
  const packetsDir = path.resolve(cwd, flags.packets);
  const outDir = path.resolve(cwd, flags['out-dir']);
  const reviewerDir = path.resolve(cwd, flags['reviewer-dir']);
  const siteRoot = flags['site-root'] ? path.resolve(cwd, flags['site-root']) : KIT_ROOT;
  for (const [flag, target, other, fallback] of [['--out-dir', outDir, reviewerDir, 'dist'], ['--reviewer-dir', reviewerDir, outDir, 'out/reviewer']] as const) {
    const why = targetProblem(target, other, { cwd, packetsDir, siteRoot });
    if (why) {
      reporter.onMessage?.(`packet build: ${flag} ${path.relative(cwd, target) || '.'} ${why}; give it a folder of its own (default: ${fallback}).\n`);
      return 2;
    }
  }
  const tag = o.tag ?? String(process.pid);
  // Astro starts now, while the packets are checked and zipped; the kit's own site waits for the manifest (site-manifest-gate.ts).
  const ids = flags.ids?.length ? [...flags.ids] : undefined;
  const site = startSiteBuilder({ root: siteRoot, env: host.env, tag, packetsDir, ...(ids ? { ids } : {}), ...(flags.variants !== undefined ? { variants: flags.variants } : {}), early: siteRoot === KIT_ROOT });
  // Ctrl-C or SIGTERM: stop the Astro child, remove the staging folders, keep the previous output.
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    reporter.onMessage?.(`\npacket build: ${signal}: stopping; the previous ${flags['out-dir']}/ is kept.\n`);
    controller.abort(signal);
  };
  const signals = o.signals ?? process;
  signals.once('SIGINT', onSignal);
  signals.once('SIGTERM', onSignal);
  const started = performance.now();
  let disposeSteps: (() => Promise<void>) | undefined;
  try {
    const [, m, kitTexts] = await Promise.all([reporter.onRunStart?.(), buildModules(), o.kitTexts()]);
    const kit = m.kitFingerprint(KIT_ROOT);
    const cache = (name: string) => path.resolve(cwd, 'node_modules/.cache/packet-kit', name);
    const built = m.fsBuildSteps({
      cwd,
      packets: flags.packets,
      outDir: flags['out-dir'],
      ...(flags.config ? { config: flags.config } : {}),
      reportFile: path.resolve(cwd, flags.report),
      rehearse: !flags['skip-rehearse'],
      sandbox: { jobs: pool.jobs, timeoutMs: pool.timeoutMs, allowUnconfined: flags.unconfined },
      host,
      reporter,
      site,
      kit,
      ...(flags.variants !== undefined ? { variants: flags.variants } : {}),
    });
    disposeSteps = built.dispose;
    const result = await m.runBuild({
      cwd,
      outDir,
      reviewerDir,
      steps: built.steps,
      reader: built.reader,
      zipCache: m.directoryZipCache(cache('zips'), kit),
      canaryCache: m.directoryCanaryCache(cache('canary'), kit),
      reporter,
      ...(ids ? { ids } : {}),
      signal: controller.signal,
      now: () => performance.now(),
      tag,
      kitTexts,
      ...(flags.variants !== undefined ? { variants: flags.variants } : {}),
    });
    reporter.onRunEnd?.({ result, seconds: (performance.now() - started) / 1000, outDir, reviewerDir });
    if (result.ok) return 0;
    if (result.step === 'interrupted') return controller.signal.reason === 'SIGTERM' ? 143 : 130;
    return result.exitCode;
  } finally {
    signals.removeListener('SIGINT', onSignal);
    signals.removeListener('SIGTERM', onSignal);
    await site.dispose();
    await disposeSteps?.();
  }
}
