/**
 * Build the HTML report with the site's stack: a small Astro project (src/report-site) that lays
 * out one view JSON, built in a child process in a work folder inside the kit (Astro renders from
 * chunks that import the kit's packages, so they must sit where node_modules is found), then
 * `index.html` moved into the report's folder.
 */
import { spawn } from 'node:child_process';
import { mkdir, readdir, realpath, rename, rm, writeFile, cp } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { forTerminal } from '../errors/escape.ts';
import type { ReportView } from './view.ts';

/**
 * The view with every string's control characters but LF and tab shown as escapes. The page's
 * Astro components escape HTML in what they lay out; these they would pass through, and a
 * report's texts come from models, servers and the runs' output.
 */
export function inertView<T>(value: T): T {
  if (typeof value === 'string') return forTerminal(value, { lines: true }) as T;
  if (Array.isArray(value)) return value.map((v) => inertView(v)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inertView(v)])) as T;
  return value;
}

const CHILD = fileURLToPath(new URL('./astro-report-child.ts', import.meta.url));
const SITE = fileURLToPath(new URL('../report-site/', import.meta.url));

/** How the build ended, with the tail of what Astro printed. */
export type HtmlBuildResult = { ok: true } | { ok: false; reason: string; output: string };

/** Options of {@link buildHtmlReport}. */
export interface HtmlBuildOptions {
  view: ReportView;
  /** The report's folder; `index.html` goes there. */
  outDir: string;
  /** The kit's root: the work folder goes under its node_modules/.cache/. */
  kitRoot: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Names the work folder (the process id). */
  tag: string;
  /** The Node binary (default: the one running now). */
  nodePath?: string;
}

/** Build `index.html` into `outDir`. */
export async function buildHtmlReport(o: HtmlBuildOptions): Promise<HtmlBuildResult> {
  // Through node_modules' real path: Vite resolves the root to it, and the pages (srcDir) by their
  // path relative to the root, so a linked node_modules would otherwise lead them to another tree.
  const modules = await realpath(path.join(o.kitRoot, 'node_modules')).catch(() => path.join(o.kitRoot, 'node_modules'));
  const work = path.join(modules, '.cache', 'packet-kit', `report-${o.tag}`);
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  try {
    const view = path.join(work, 'view.json');
    await writeFile(view, JSON.stringify(inertView(o.view)));
    const astroOut = path.join(work, 'out');
    let output = '';
    const child = spawn(o.nodePath ?? process.execPath, [CHILD], { cwd: work, env: { ...o.env, ASTRO_TELEMETRY_DISABLED: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-64 * 1024);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.stdin.on('error', () => {});
    const ended = new Promise<{ code: number | null; error?: Error }>((resolve) => {
      child.on('error', (error) => resolve({ code: null, error }));
      child.on('close', (code) => resolve({ code }));
    });
    child.stdin.end(`${JSON.stringify({ root: work, srcDir: SITE, outDir: astroOut, view })}\n`);
    const end = await ended;
    if (end.error || end.code !== 0) return { ok: false, reason: end.error?.message ?? `astro build exited with ${end.code}`, output };
    await mkdir(o.outDir, { recursive: true });
    for (const name of await readdir(astroOut)) {
      const to = path.join(o.outDir, name);
      await rm(to, { recursive: true, force: true });
      try {
        await rename(path.join(astroOut, name), to);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
        await cp(path.join(astroOut, name), to, { recursive: true });
      }
    }
    return { ok: true };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
