import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'astro/zod';
import type { Loader, LoaderContext } from 'astro/loaders';
import { sortDiagnostics } from '../errors/diagnostic.ts';
import { renderDiagnostic } from '../errors/render.ts';
import { starterReader } from './fs-source.ts';
import { kindNamed, type KindDescriptor, type SiteCollection } from './kinds/index.ts';
import { parsePacketIsolated, readSources } from './load.ts';
import type { Packet } from './packet.ts';
import { declaredKind } from './parse.ts';
import { publicDrillSchema } from './public-drill.ts';
import { publicPacketSchema, type PublicPacket } from './public.ts';

/** Options of the site's packet loaders. */
export interface PacketLoaderOptions {
  /** The packets folder, relative to the project root. */
  packetsDir: string;
  /** The packets shown (`packet build <id>...`); every packet of the folder when absent or empty. */
  ids?: readonly string[] | undefined;
  /**
   * Turns a part body (MDX) into the Markdown the site renders, given the body and its file; the
   * site passes the zip's own conversion, so a page shows what PROMPT.md holds. Default: the body
   * as it is.
   */
  markdownOf?: (body: string, file: string) => string;
}

/**
 * Every valid packet whose kind the given collection shows, with its public view (the kind's
 * `publicView`); throws, naming the packet, when one of them is invalid.
 */
async function loadPublicViews(context: LoaderContext, { packetsDir, ids }: Pick<PacketLoaderOptions, 'packetsDir' | 'ids'>, collection: SiteCollection): Promise<{ packet: Packet; view: unknown }[]> {
  const cwd = fileURLToPath(context.config.root);
  const { sources } = await readSources({ packetsDir, cwd, ...(ids ? { ids } : {}) });
  const out: { packet: Packet; view: unknown }[] = [];
  for (const source of sources) {
    const kind = kindNamed(declaredKind(source.parts.prompt)) as KindDescriptor;
    if (kind.collection !== collection) continue;
    const { packet, diagnostics } = parsePacketIsolated(source);
    const errors = sortDiagnostics(diagnostics.filter((d) => d.severity === 'error'));
    if (!packet || errors.length) {
      const lines = errors.map((d) => renderDiagnostic(d).trimEnd());
      throw new Error(`${collection === 'drills' ? 'drill' : 'packet'} "${source.id}" is not valid; run \`npx packet check ${source.id}\`:\n${lines.join('\n')}`);
    }
    out.push({ packet, view: kind.publicView(packet, starterReader(path.resolve(cwd, packetsDir, source.folder))) });
  }
  return out;
}

/** Every valid packet of the `packets` collection with its public view. */
async function loadPublicPackets(context: LoaderContext, options: Pick<PacketLoaderOptions, 'packetsDir' | 'ids'>): Promise<{ packet: Packet; view: PublicPacket }[]> {
  return (await loadPublicViews(context, options, 'packets')) as { packet: Packet; view: PublicPacket }[];
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
      const packets = await loadPublicPackets(context, options);
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

/** An entry of the rubric notes collection; the public notes themselves are the entry's body. */
export const rubricNotesSchema = z.strictObject({
  /** The packet id. */
  id: z.string(),
  /** The packet's content digest. */
  digest: z.string(),
});

/**
 * The rubric's public notes (the body of `rubric.mdx` without its reviewer-only sections, as the
 * zip's RUBRIC.md holds it), one entry per packet, so the rubric page can `render()` them as
 * Markdown. The rubric's frontmatter lives in the packets collection.
 */
export function rubricNotesLoader(options: Pick<PacketLoaderOptions, 'packetsDir' | 'ids' | 'markdownOf'>): Loader {
  return {
    name: 'packet-kit-rubric-notes',
    schema: rubricNotesSchema,
    async load(context: LoaderContext) {
      const packets = await loadPublicPackets(context, options);
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
export function drillLoader(options: Pick<PacketLoaderOptions, 'packetsDir' | 'ids' | 'markdownOf'>): Loader {
  return {
    name: 'packet-kit-drills',
    schema: publicDrillSchema,
    async load(context: LoaderContext) {
      const drills = await loadPublicViews(context, options, 'drills');
      context.store.clear();
      for (const { packet: drill, view } of drills) {
        const data = await context.parseData({ id: drill.id, data: view as Record<string, unknown> });
        const markdown = options.markdownOf?.(drill.prompt.body, drill.prompt.file) ?? drill.prompt.body;
        context.store.set({ id: drill.id, data, body: drill.prompt.body, rendered: await context.renderMarkdown(markdown), digest: drill.digest });
      }
    },
  };
}
