// The Astro build of `packet report`, in its own process (as the site's, see
// src/bundle/astro-build-child.ts): Vite's memory goes back when it ends, and the CLI's own
// environment is not changed. One line of JSON on standard input: the build's folders and the
// view file; the exit code says how it went.
import module from 'node:module';
import { createInterface } from 'node:readline';

if (!process.env.CI) module.enableCompileCache?.();
const { build } = await import('astro');

interface ChildOptions {
  /** The build's own folder (Astro's root: its .astro/ and caches stay inside). */
  root: string;
  /** The report site's pages and components (src/report-site). */
  srcDir: string;
  outDir: string;
  /** The view JSON the page reads. */
  view: string;
}

const first = await createInterface({ input: process.stdin, crlfDelay: Infinity })[Symbol.asyncIterator]().next();
if (first.done) process.exit(0);
const o = JSON.parse(first.value as string) as ChildOptions;
process.env.PACKET_KIT_REPORT_VIEW = o.view;
try {
  await build({
    root: o.root,
    srcDir: o.srcDir,
    outDir: o.outDir,
    publicDir: `${o.root}/public`,
    cacheDir: `${o.root}/cache`,
    configFile: false,
    logLevel: 'warn',
    trailingSlash: 'ignore',
    devToolbar: { enabled: false },
    // One file, styles inlined: nothing to fetch, so it opens from file://.
    build: { format: 'file', inlineStylesheets: 'always' },
  });
  process.exitCode = 0;
} catch (err) {
  process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  process.exitCode = 1;
}
process.stdin.destroy();
