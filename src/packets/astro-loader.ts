import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
import { sortDiagnostics } from '../errors/diagnostic.ts';
import { starterReader } from './fs-source.ts';
import { readSources } from './load.ts';
import { parsePacket } from './parse.ts';
import { publicPacket, publicPacketSchema } from './public.ts';

/** Options of the site's packet loader. */
export interface PacketLoaderOptions {
  /** The packets folder, relative to the project root. */
  packetsDir: string;
}

/**
 * The Astro content loader of the site. It reads the same files through the same parse function,
 * schema and id function as the CLI, and stores only each packet's public view.
 */
export function packetLoader(options: PacketLoaderOptions): Loader {
  return {
    name: 'packet-kit',
    schema: publicPacketSchema,
    async load(context: LoaderContext) {
      const cwd = fileURLToPath(context.config.root);
      const { sources } = await readSources({ packetsDir: options.packetsDir, cwd });
      context.store.clear();
      for (const source of sources) {
        const { packet, diagnostics } = parsePacket(source);
        const errors = sortDiagnostics(diagnostics.filter((d) => d.severity === 'error'));
        if (!packet || errors.length) {
          const lines = errors.map((d) => `${d.file}:${d.line ?? 1}:${d.column ?? 1} ${d.code} ${d.message}`);
          throw new Error(`packet "${source.id}" is not valid; run \`npx packet check ${source.id}\`:\n${lines.join('\n')}`);
        }
        const data = await context.parseData({ id: packet.id, data: publicPacket(packet, starterReader(path.resolve(cwd, options.packetsDir, source.folder))) });
        context.store.set({ id: packet.id, data, body: packet.prompt.body, digest: packet.digest });
      }
    },
  };
}
