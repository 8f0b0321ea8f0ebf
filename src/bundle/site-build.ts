import { spawn } from 'node:child_process';
import { cp, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pidAlive } from './pid-alive.ts';

/** The kit's own folder: the Astro project (astro.config.mjs, src/pages) the site is built from. */
export { KIT_ROOT } from '../kit/fingerprint.ts';

const CHILD = fileURLToPath(new URL('./astro-build-child.ts', import.meta.url));

/** Options of {@link startSiteBuilder}: what is known before the packets are. */
export interface SiteBuilderOptions {
  /** The Astro project root. */
  root: string;
  /** The environment the child starts from. */
  env: Readonly<Record<string, string | undefined>>;
  /** Names this build's work folder (the process id). */
  tag: string;
  /** Absolute path of the packets folder, handed to the site as PACKET_KIT_PACKETS. */
  packetsDir: string;
  /** The packets the site shows, handed to it as PACKET_KIT_IDS (JSON); every packet of the folder when absent or empty. */
  ids?: readonly string[];
  /** `--variants N`: how many variants of each packet with variants the site shows, handed to it as PACKET_KIT_VARIANTS; each one's `variants.count` when absent. */
  variants?: number;
  /**
   * Start the build now, before the manifest exists: only for a site whose pages wait for it (the
   * kit's own, see site-manifest-gate.ts). Otherwise the child only loads astro
   * now, and the build starts when {@link SiteBuilder.build} is called.
   */
  early: boolean;
  /** The Node binary; default: the one running now (the pinned Node under npx and npm scripts). */
  nodePath?: string;
}

/** What one site build needs, once the zips and the manifest are written. */
export interface SiteBuildArgs {
  /** Where the pages go (the build's staging folder, which already holds the zips and the manifest). */
  outDir: string;
  /** Absolute path of `packets.json`, handed to the site (site-manifest-gate.ts; PACKET_KIT_MANIFEST when started late). */
  manifestFile: string;
  /** Stops the build: the child is sent SIGTERM. */
  signal?: AbortSignal;
}

/** A started Astro child, waiting for its build. */
export interface SiteBuilder {
  /** Run the build (once) and add the pages to `outDir`. */
  build(args: SiteBuildArgs): Promise<SiteBuildResult>;
  /** Stop the child if it is still waiting or running; safe to call at any time. */
  dispose(): Promise<void>;
}

/** How the Astro build ended, with what it printed (the last 64 KiB). */
export type SiteBuildResult = { ok: true; output: string } | { ok: false; output: string; reason: string };

const OUTPUT_LIMIT = 64 * 1024;

/**
 * The work folder of one Astro build, inside the project: `node_modules/.cache/packet-kit/site-<tag>/`.
 * Astro renders pages from server chunks it writes under its output folder when that folder is
 * under the working directory, and under `<cwd>/.astro/.prerender/` otherwise; those chunks import
 * the project's packages, so they must sit inside the project, and two builds at once (a test and
 * a bench) must not share them. So Astro builds here, with its own cache, and the pages are moved
 * to `outDir` afterwards.
 */
export function siteWorkDir(root: string, tag: string): string {
  return path.join(root, 'node_modules', '.cache', 'packet-kit', `site-${tag}`);
}

/** Remove the work folders of builds whose process is gone (killed with SIGKILL, say). */
async function removeStaleWorkDirs(root: string): Promise<void> {
  const parent = path.dirname(siteWorkDir(root, 'x'));
  const names = await readdir(parent).catch(() => [] as string[]);
  for (const name of names) {
    const m = /^site-(\d+)$/.exec(name);
    if (m && !pidAlive(Number(m[1]))) await rm(path.join(parent, name), { recursive: true, force: true });
  }
}

/** Move every entry of `from` into `to`; an entry `to` already has is an error (the site must not overwrite the zips or the manifest). */
async function moveInto(from: string, to: string): Promise<string | undefined> {
  await mkdir(to, { recursive: true });
  for (const name of (await readdir(from)).sort()) {
    const target = path.join(to, name);
    if (await stat(target).catch(() => undefined)) return `the site wrote "${name}", which the build writes itself`;
    try {
      await rename(path.join(from, name), target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await cp(path.join(from, name), target, { recursive: true });
    }
  }
  return undefined;
}

/**
 * Start the Astro child now and build when asked: `astro build`, the programmatic `build()` of
 * astro (see astro-build-child.ts), in a work folder inside the project, then the pages moved to
 * `outDir`. The child loads astro (~0.5 s) while the caller checks the packets and writes the
 * zips; with `early` it also starts the build at once, so that Vite is set up and the collections
 * are loaded meanwhile, and the pages wait until {@link SiteBuilder.build} hands the manifest over.
 */
export function startSiteBuilder(options: SiteBuilderOptions): SiteBuilder {
  const work = siteWorkDir(options.root, options.tag);
  const astroOut = path.join(work, 'out');
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.length > OUTPUT_LIMIT * 2) output = output.slice(-OUTPUT_LIMIT);
  };
  const child = spawn(options.nodePath ?? process.execPath, [CHILD], {
    cwd: options.root,
    env: { ...options.env, ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.stdin.on('error', () => {}); // a child that died early: its exit says why
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    child.on('error', (error) => resolve({ code: null, signal: null, error }));
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  const selection: Record<string, string> = {
    ...(options.ids?.length ? { PACKET_KIT_IDS: JSON.stringify(options.ids) } : {}),
    ...(options.variants !== undefined ? { PACKET_KIT_VARIANTS: String(options.variants) } : {}),
  };
  const start = (env: Record<string, string>) =>
    child.stdin.write(`${JSON.stringify({ root: options.root, outDir: astroOut, cacheDir: path.join(work, 'cache'), logLevel: 'warn', env: { ...env, ...selection } })}\n`);
  // A fresh work folder, then (early) the build starts.
  const ready = (async () => {
    await removeStaleWorkDirs(options.root);
    await rm(work, { recursive: true, force: true });
    await mkdir(work, { recursive: true });
    if (options.early) start({ PACKET_KIT_PACKETS: options.packetsDir });
  })();
  ready.catch(() => {}); // build() and dispose() wait for it
  let started = false;
  return {
    async build(args) {
      if (started) throw new Error('startSiteBuilder: build() runs once');
      started = true;
      const stop = () => child.kill('SIGTERM');
      args.signal?.addEventListener('abort', stop);
      try {
        await ready;
        if (args.signal?.aborted) stop();
        if (!options.early) start({ PACKET_KIT_PACKETS: options.packetsDir, PACKET_KIT_MANIFEST: args.manifestFile });
        else child.stdin.write(`${JSON.stringify({ manifest: args.manifestFile })}\n`);
        child.stdin.end();
        const end = await exited;
        const tail = output.slice(-OUTPUT_LIMIT);
        if (end.error) return { ok: false, output: tail, reason: end.error.message };
        if (end.code !== 0 || args.signal?.aborted) return { ok: false, output: tail, reason: end.signal ? `stopped by ${end.signal}` : `astro build exited with ${end.code}` };
        const clash = await moveInto(astroOut, args.outDir);
        return clash ? { ok: false, output: tail, reason: clash } : { ok: true, output: tail };
      } finally {
        args.signal?.removeEventListener('abort', stop);
        await rm(work, { recursive: true, force: true });
      }
    },
    async dispose() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await ready.catch(() => {});
      await rm(work, { recursive: true, force: true });
    },
  };
}
