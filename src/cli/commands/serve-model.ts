import path from 'node:path';
import { parseArgs } from 'node:util';
import { diagnose } from '../../errors/catalog.ts';
import { ModelErrors } from '../../errors/model-catalog.ts';
import { FAULT_MODELS, replyStoreFromDirs, startScriptedServer, type ScriptedServer } from '../../llm/scripted-server.ts';
import { loadPackets } from '../../packets/load.ts';
import type { CliIo } from '../io.ts';

export const serveModelHelp = `Usage: packet serve-model [options]

Serve the embedded scripted endpoint: an OpenAI-compatible API on 127.0.0.1
(POST /v1/chat/completions with usage, GET /v1/models). Model names:

  scripted:<packet>/<reply>   the text of packets/<packet>/replies/<reply>.md
  fault:<kind>                one failure each, for tests (listed below)
  flaky:<n>:<model>           HTTP 503 for the first n requests, then <model>
  fault:<kind>@<model>        a fault that changes a reply (slow, no-usage, length,
                              think, sse, gzip, finish-error, ...) around <model>'s

  --port N          port on 127.0.0.1 (default: 0, any free port; the URL is printed)
  --packets DIR     the packets folder (default: packets)
  --slow-ms N       delay of fault:slow in ms (default: 30000)

Stop it with Ctrl-C. It listens on 127.0.0.1 only.
`;

/** Wait until the process is asked to stop: SIGINT, SIGTERM, or (when started with an IPC channel, as tests do) the parent going away. */
function untilStopped(): Promise<string> {
  return new Promise((resolve) => {
    const done = (why: string) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      process.off('disconnect', onDisconnect);
      resolve(why);
    };
    const onInt = () => done('SIGINT');
    const onTerm = () => done('SIGTERM');
    const onDisconnect = () => done('parent gone');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    if (process.connected) process.once('disconnect', onDisconnect);
  });
}

/** `packet serve-model`. */
export async function serveModelCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '0' },
      packets: { type: 'string', default: 'packets' },
      'slow-ms': { type: 'string', default: '30000' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.out(serveModelHelp + '\nFault models:\n' + Object.entries(FAULT_MODELS).map(([k, v]) => `  ${k.padEnd(28)} ${v}`).join('\n') + '\n');
    return 0;
  }
  const port = Number(values.port);
  const slowMs = Number(values['slow-ms']);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    io.err(`packet serve-model: --port must be a whole number from 0 to 65535, not "${values.port}".\n`);
    return 2;
  }
  if (!Number.isInteger(slowMs) || slowMs < 0) {
    io.err(`packet serve-model: --slow-ms must be a whole number of milliseconds, not "${values['slow-ms']}".\n`);
    return 2;
  }
  const loaded = await loadPackets({ packetsDir: values.packets, cwd: io.cwd });
  const packetsDir = path.resolve(io.cwd, values.packets);
  const folders = new Map(loaded.sources.map((s) => [s.id, path.join(packetsDir, s.folder)]));
  const store = replyStoreFromDirs(new Map(loaded.packets.map((p) => [p.id, { dir: folders.get(p.id)!, replies: p.trees.replies }])));
  let server: ScriptedServer;
  try {
    server = await startScriptedServer({ replies: store, port, slowMs });
  } catch (err) {
    const d = diagnose(ModelErrors.ServePortUnavailable, { file: '--port' }, { port, reason: (err as Error).message });
    io.err(`${d.code} ${d.message}\n  hint: ${d.hint}\n`);
    return 2;
  }
  const scripted = (await store.list()).length;
  io.out(`serving ${scripted} scripted replies and ${Object.keys(FAULT_MODELS).length} fault models at ${server.url}\n`);
  io.out(`try: npx packet rehearse --endpoint ${server.url} --model 'scripted:{packet}/sample'\n`);
  const why = await untilStopped();
  await server.close();
  io.out(`stopped (${why}) after ${server.requests.length} request${server.requests.length === 1 ? '' : 's'}\n`);
  return 0;
}
