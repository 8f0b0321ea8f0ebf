// The Astro build of `packet build`, in its own process (see site-build.ts): it can be stopped
// with SIGTERM without stopping the CLI, gets the site's environment without the CLI's own being
// changed, and gives Vite's memory back when it ends. It starts early and loads astro while the
// CLI checks the packets and writes the zips, then waits for one line on standard input: the
// build's options as JSON. End of input without a line means "not needed": it exits quietly.
// An entry point like src/cli/bin.js: input in, exit code out.
import { build } from 'astro';

interface ChildOptions {
  root: string;
  outDir: string;
  cacheDir: string;
  logLevel: 'warn' | 'info' | 'error';
  /** Set before the build: PACKET_KIT_MANIFEST and PACKET_KIT_PACKETS, read by the site's content config. */
  env: Record<string, string>;
}

async function firstLine(): Promise<string | undefined> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += (chunk as Buffer).toString('utf8');
    const eol = text.indexOf('\n');
    if (eol !== -1) return text.slice(0, eol);
  }
  return text.trim() ? text : undefined;
}

const line = await firstLine();
if (line !== undefined) {
  const options = JSON.parse(line) as ChildOptions;
  Object.assign(process.env, options.env);
  try {
    await build({ root: options.root, outDir: options.outDir, cacheDir: options.cacheDir, logLevel: options.logLevel });
    process.exitCode = 0;
  } catch (err) {
    process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
    process.exitCode = 1;
  }
  process.stdin.destroy();
}
