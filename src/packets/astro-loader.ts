import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'astro/zod';
import type { Loader, LoaderContext } from 'astro/loaders';
import { sortDiagnostics } from '../errors/diagnostic.ts';
import { renderDiagnostic } from '../errors/render.ts';
import { starterReader } from './fs-source.ts';
import { parsePacketIsolated, readSources } from './load.ts';
import type { Packet } from './packet.ts';
import { declaredKind, parsePacket } from './parse.ts';
import { publicDrill, publicDrillSchema } from './public-drill.ts';
import { publicPacket, publicPacketSchema, type PublicPacket } from './public.ts';

/** Options of the site's packet loaders. */
export interface PacketLoaderOptions {
  /** The packets folder, relative to the project root. */
  packetsDir: string;
  /**
   * Turns a part body (MDX) into the Markdown the site renders, given the body and its file; the
   * site passes the zip's own conversion, so a page shows what PROMPT.md holds. Default: the body
   * as it is.
   */
  markdownOf?: (body: string, file: string) => string;
}

/** Every valid packet with its public view; throws, naming the packet, when one is invalid. */
async function loadPublicPackets(context: LoaderContext, packetsDir: string): Promise<{ packet: Packet; view: PublicPacket }[]> {
  const cwd = fileURLToPath(context.config.root);
  const { sources } = await readSources({ packetsDir, cwd });
  const out: { packet: Packet; view: PublicPacket }[] = [];
  for (const source of sources) {
    const { packet, drill, diagnostics } = parsePacketIsolated(source);
    if (drill) continue; // drills are their own collection (drillLoader)
    const errors = sortDiagnostics(diagnostics.filter((d) => d.severity === 'error'));
    if (!packet || errors.length) {
      const lines = errors.map((d) => renderDiagnostic(d).trimEnd());
      throw new Error(`packet "${source.id}" is not valid; run \`npx packet check ${source.id}\`:\n${lines.join('\n')}`);
    }
    out.push({ packet, view: publicPacket(packet, starterReader(path.resolve(cwd, packetsDir, source.folder))) });
  }
  return out;
}

/**
 * The Astro content loader of the site. It reads the same files through the same parse function,
 * schema and id function as the CLI, and stores only each packet's public view. The entry's body
 * is the prompt, rendered as Markdown for `render()`. A packet's build status (its zip, its
 * rehearsal) is not stored here: pages read it from the build manifest when they render
 * (src/site/build-status-of.ts), so the collection loads while `packet build` still writes the zips.
 */
export function packetLoader(options: PacketLoaderOptions): Loader {
  return {
    name: 'packet-kit',
    schema: publicPacketSchema,
    async load(context: LoaderContext) {
      const packets = await loadPublicPackets(context, options.packetsDir);
      context.store.clear();
      for (const { packet, view } of packets) {
        const data = await context.parseData({ id: packet.id, data: view });
        const body = packet.prompt.body;
        const markdown = options.markdownOf?.(body, packet.prompt.file) ?? body;
        context.store.set({ id: packet.id, data, body, rendered: await context.renderMarkdown(markdown), digest: packet.digest });
      }
    },
  };
}

/** An entry of the rubric notes collection; the notes themselves are the entry's body. */
export const rubricNotesSchema = z.strictObject({
  /** The packet id. */
  id: z.string(),
  /** The packet's content digest. */
  digest: z.string(),
});

/**
 * The rubric's reviewer notes (the body of `rubric.mdx`, public: the zip ships it as RUBRIC.md),
 * one entry per packet, so the rubric page can `render()` them as Markdown. The rubric's
 * frontmatter lives in the packets collection.
 */
export function rubricNotesLoader(options: Pick<PacketLoaderOptions, 'packetsDir' | 'markdownOf'>): Loader {
  return {
    name: 'packet-kit-rubric-notes',
    schema: rubricNotesSchema,
    async load(context: LoaderContext) {
      const packets = await loadPublicPackets(context, options.packetsDir);
      context.store.clear();
      for (const { packet, view } of packets) {
        const data = await context.parseData({ id: packet.id, data: { id: packet.id, digest: packet.digest } });
        const body = view.rubricBody;
        const markdown = options.markdownOf?.(body, packet.rubric.file) ?? body;
        context.store.set({ id: packet.id, data, body, rendered: await context.renderMarkdown(markdown), digest: packet.digest });
      }
    },
  };
}

/**
 * The site's drills: the same parse function over the same folders, each drill's public view (the
 * diffs without their key), its prompt rendered as the entry's body.
 */
export function drillLoader(options: Pick<PacketLoaderOptions, 'packetsDir' | 'markdownOf'>): Loader {
  return {
    name: 'packet-kit-drills',
    schema: publicDrillSchema,
    async load(context: LoaderContext) {
      const cwd = fileURLToPath(context.config.root);
      const { sources } = await readSources({ packetsDir: options.packetsDir, cwd });
      context.store.clear();
      for (const source of sources) {
        const { drill, diagnostics } = parsePacketIsolated(source);
        if (!drill && declaredKind(source.parts.prompt) !== 'drill') continue;
        const errors = sortDiagnostics(diagnostics.filter((d) => d.severity === 'error'));
        if (!drill || errors.length) {
          const lines = errors.map((d) => renderDiagnostic(d).trimEnd());
          throw new Error(`drill "${source.id}" is not valid; run \`npx packet check ${source.id}\`:\n${lines.join('\n')}`);
        }
        const data = await context.parseData({ id: drill.id, data: publicDrill(drill) });
        const markdown = options.markdownOf?.(drill.prompt.body, drill.prompt.file) ?? drill.prompt.body;
        context.store.set({ id: drill.id, data, body: drill.prompt.body, rendered: await context.renderMarkdown(markdown), digest: drill.digest });
      }
    },
  };
}
