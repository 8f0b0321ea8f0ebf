import path from 'node:path';
import { diagnose } from '../../errors/catalog.ts';
import { ModelErrors } from '../../errors/model-catalog.ts';
import { renderDiagnostic } from '../../errors/render.ts';
import { FAULT_MODELS, replyStoreFromDirs, startScriptedServer, type ScriptedServer } from '../../llm/scripted-server.ts';
import { loadPackets } from '../../packets/load.ts';
import { codePackets } from '../../packets/packet.ts';
import { replySource } from '../../rehearse/rehearse-variants.ts';
import { serveModelSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';
import { untilStopped } from '../until-stopped.ts';

/** `packet serve-model`. */
export async function serveModelCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand(serveModelSpec, args);
  if (values.help) {
    io.out(helpText(serveModelSpec, `Fault models:\n${Object.entries(FAULT_MODELS).map(([k, v]) => `  ${k.padEnd(28)} ${v}`).join('\n')}`));
    return 0;
  }
  const { port, 'slow-ms': slowMs } = values;
  const loaded = await loadPackets({ packetsDir: values.packets, cwd: io.cwd });
  const packetsDir = path.resolve(io.cwd, values.packets);
  const folders = new Map(loaded.sources.map((s) => [s.id, path.join(packetsDir, s.folder)]));
  // A packet with variants serves its first variant's replies, as `packet rehearse --model` gives the model that variant.
  const store = replyStoreFromDirs(new Map(codePackets(loaded.packets).map((p) => [p.id, replySource(p, folders.get(p.id)!)])));
  let server: ScriptedServer;
  try {
    server = await startScriptedServer({ replies: store, port, slowMs });
  } catch (err) {
    io.err(renderDiagnostic(diagnose(ModelErrors.ServePortUnavailable, { file: '--port' }, { port, reason: (err as Error).message }), { place: false }));
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
