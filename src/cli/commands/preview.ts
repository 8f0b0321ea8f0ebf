import { stat } from 'node:fs/promises';
import path from 'node:path';
import { serveStatic, type StaticServer } from '../../preview/static-server.ts';
import { previewSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';
import { untilStopped } from '../until-stopped.ts';

/** `packet preview`: the built site on 127.0.0.1, with its 404 page, until Ctrl-C. */
export async function previewCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand(previewSpec, args);
  if (values.help) {
    io.out(helpText(previewSpec));
    return 0;
  }
  const { port } = values;
  const dir = path.resolve(io.cwd, values['out-dir']);
  if (!(await stat(path.join(dir, 'index.html')).catch(() => undefined))?.isFile()) {
    io.err(`packet preview: ${values['out-dir']}/ holds no built site (no index.html); run \`npm run build\` first, or pass --out-dir DIR.\n`);
    return 1;
  }
  let server: StaticServer;
  try {
    server = await serveStatic(dir, port);
  } catch (err) {
    io.err(`packet preview: cannot listen on 127.0.0.1:${port}: ${(err as Error).message}; pick another port with --port N, or --port 0 for any free one.\n`);
    return 2;
  }
  io.out(`serving ${values['out-dir']}/ at ${server.url}/ (Ctrl-C stops it)\n`);
  const why = await untilStopped();
  await server.close();
  io.out(`stopped (${why})\n`);
  return 0;
}
