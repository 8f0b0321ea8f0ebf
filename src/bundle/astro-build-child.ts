// The Astro build of `packet build`, in its own process (see site-build.ts): it can be stopped
// with SIGTERM without stopping the CLI, gets the site's environment without the CLI's own being
// changed, and gives Vite's memory back when it ends. It starts early and loads astro while the
// CLI checks the packets and writes the zips. An entry point like src/cli/bin.js: input in, exit
// code out. On standard input, lines of JSON:
//   1. the build's options and environment: the build starts. When the environment has no
//      PACKET_KIT_MANIFEST, the pages wait at the gate (site-manifest-gate.ts) while Vite is
//      set up and the collections load, until
//   2. `{"manifest": "/abs/packets.json"}`, once the manifest is written: the gate opens.
// End of input before the build has what it needs means "not needed": it exits quietly.
import module from 'node:module';
import { createInterface } from 'node:readline';
import { installManifestGate } from './site-manifest-gate.ts';

// As astro's own bin does before it loads anything: V8's code cache on disk (not in CI, where it is never reused).
if (!process.env.CI) module.enableCompileCache?.();
const { build } = await import('astro');

interface ChildOptions {
  root: string;
  outDir: string;
  cacheDir: string;
  logLevel: 'warn' | 'info' | 'error';
  /** Set before the build: PACKET_KIT_PACKETS and (unless it comes later) PACKET_KIT_MANIFEST, read by the site's content config. */
  env: Record<string, string>;
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })[Symbol.asyncIterator]();
const first = await lines.next();
if (first.done) process.exit(0);
const options = JSON.parse(first.value as string) as ChildOptions;
Object.assign(process.env, options.env);
const gate = options.env.PACKET_KIT_MANIFEST ? undefined : installManifestGate();
const built = build({ root: options.root, outDir: options.outDir, cacheDir: options.cacheDir, logLevel: options.logLevel }).then(
  () => 0,
  (err: unknown) => {
    process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
    return 1;
  },
);
if (gate) {
  const second = await lines.next();
  // The CLI stopped before the zips were written: nothing of this build is wanted.
  if (second.done) process.exit(0);
  gate.open((JSON.parse(second.value as string) as { manifest: string }).manifest);
}
process.exitCode = await built;
process.stdin.destroy();
