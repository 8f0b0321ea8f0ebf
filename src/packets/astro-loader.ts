import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'astro/zod';
import type { Loader, LoaderContext } from 'astro/loaders';
import { sortDiagnostics } from '../errors/diagnostic.ts';
import { renderDiagnostic } from '../errors/render.ts';
import { readFile } from 'node:fs/promises';
import { starterReader } from './fs-source.ts';
import { kindNamed, type KindDescriptor, type SiteCollection } from './kinds/index.ts';
import { parsePacketIsolated, readSources } from './load.ts';
import { hasCode, type CodePacket, type Packet } from './packet.ts';
import { memoReader, packetVariantValues, renderVariant, type PacketBytesReader } from './variants-render.ts';
import { variantCount } from './variants.ts';
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
  /**
   * How many variants the build made of each packet with variants (`packet build --variants N`,
   * handed to the site as PACKET_KIT_VARIANTS); each packet's `variants.count` when absent.
   */
  variants?: number | undefined;
}

/** A packet the site shows: the packet its pages are made from (a packet with variants: its variant v1, rendered), its public view and the packet as written. */
interface ShownPacket {
  /** What the pages show: the packet itself, or for a packet with variants its rendered variant v1 (no placeholder left). */
  packet: Packet;
  view: unknown;
  /** The packet as its folder holds it (placeholders as written). */
  source: Packet;
  /** Its folder, absolute. */
  dir: string;
}

/** A reader of a packet folder's files. */
function folderReader(dir: string): PacketBytesReader {
  return memoReader(async (rel) => readFile(path.join(dir, rel)).then((b) => new Uint8Array(b), () => undefined));
}

/**
 * Variant k of a packet with variants as the site shows it: its files rendered
 * (`renderVariant`), parsed again, and the kind's public view made from the rendered packet and
 * its rendered starter, so the prompt, the rubric notes, the starter tree and a lab's
 * suggestions all hold the variant's values and never a `[[variant.NAME]]`. The view's `digest`
 * stays the packet's own (the build's manifest and the rubric page read it); `variant` carries
 * the variant's.
 */
export async function variantShown(packet: CodePacket, read: PacketBytesReader, k: number, count: number): Promise<{ packet: CodePacket; view: unknown }> {
  const values = packetVariantValues(packet, Math.max(k, count))[k - 1];
  if (!values) throw new Error(`packet "${packet.id}" has no variant v${k}`);
  const result = await renderVariant(packet, read, k, values);
  if (!result.variant) {
    const errors = sortDiagnostics(result.diagnostics.filter((d) => d.severity === 'error'));
    const lines = errors.map((d) => renderDiagnostic(d).trimEnd());
    throw new Error(`variant ${result.id} of packet "${packet.id}" is not a valid packet once its values are written in; run \`npx packet check ${packet.id}\`:\n${lines.join('\n')}`);
  }
  const v = result.variant;
  const view = kindNamed(v.packet.kind).publicView(v.packet as never, (rel) => v.files.get(`starter/${rel}`)) as Record<string, unknown>;
  return { packet: v.packet, view: { ...view, digest: packet.digest, variant: { id: v.id, number: v.number, digest: v.digest, count } } };
}

/** How many variants of a packet with variants the site shows (`variants` overriding the field's); 0 for a packet without. */
export function shownVariantCount(packet: Packet, variants: number | undefined): number {
  const spec = hasCode(packet) ? packet.prompt.data.variants : undefined;
  return spec ? variantCount(spec, variants) : 0;
}

/**
 * Every valid packet whose kind the given collection shows, with its public view (the kind's
 * `publicView`); throws, naming the packet, when one of them is invalid.
 */
async function loadPublicViews(context: LoaderContext, { packetsDir, ids, variants }: Pick<PacketLoaderOptions, 'packetsDir' | 'ids' | 'variants'>, collection: SiteCollection): Promise<ShownPacket[]> {
  const cwd = fileURLToPath(context.config.root);
  const { sources } = await readSources({ packetsDir, cwd, ...(ids ? { ids } : {}) });
  const out: ShownPacket[] = [];
  for (const source of sources) {
    const kind = kindNamed(declaredKind(source.parts.prompt)) as KindDescriptor;
    if (kind.collection !== collection) continue;
    const { packet, diagnostics } = parsePacketIsolated(source);
    const errors = sortDiagnostics(diagnostics.filter((d) => d.severity === 'error'));
    if (!packet || errors.length) {
      const lines = errors.map((d) => renderDiagnostic(d).trimEnd());
      throw new Error(`${collection === 'drills' ? 'drill' : 'packet'} "${source.id}" is not valid; run \`npx packet check ${source.id}\`:\n${lines.join('\n')}`);
    }
    const dir = path.resolve(cwd, packetsDir, source.folder);
    const count = shownVariantCount(packet, variants);
    if (count && hasCode(packet)) {
      // A packet with variants is shown as its variant v1, the one its public zip holds.
      const shown = await variantShown(packet, folderReader(dir), 1, count);
      out.push({ ...shown, source: packet, dir });
    } else out.push({ packet, view: kind.publicView(packet, starterReader(dir)), source: packet, dir });
  }
  return out;
}

/** Every valid packet of the `packets` collection with its public view. */
async function loadPublicPackets(context: LoaderContext, options: Pick<PacketLoaderOptions, 'packetsDir' | 'ids' | 'variants'>): Promise<(ShownPacket & { view: PublicPacket })[]> {
  return (await loadPublicViews(context, options, 'packets')) as (ShownPacket & { view: PublicPacket })[];
}

/**
 * A loader of a collection made from the packets' public views: each load reads them afresh,
 * clears the store, then hands each packet, in order, to `store`, which stores its entries.
 */
function publicPacketsLoader(
  name: string,
  schema: z.ZodType,
  options: Pick<PacketLoaderOptions, 'packetsDir' | 'ids' | 'variants'>,
  store: (context: LoaderContext, shown: ShownPacket & { view: PublicPacket }) => Promise<void>,
): Loader {
  return {
    name,
    schema,
    async load(context: LoaderContext) {
      const packets = await loadPublicPackets(context, options);
      context.store.clear();
      for (const shown of packets) await store(context, shown);
    },
  };
}

/**
 * Store one entry of a collection: its data parsed by the collection's schema, its body as it
 * is, and that body rendered as Markdown (through `markdownOf` when given, which names `file`).
 */
async function storeEntry(
  context: LoaderContext,
  { markdownOf }: Pick<PacketLoaderOptions, 'markdownOf'>,
  entry: { id: string; data: Record<string, unknown>; body: string; file: string; digest: string },
): Promise<void> {
  const data = await context.parseData({ id: entry.id, data: entry.data });
  const markdown = markdownOf?.(entry.body, entry.file) ?? entry.body;
  context.store.set({ id: entry.id, data, body: entry.body, rendered: await context.renderMarkdown(markdown), digest: entry.digest });
}

/**
 * The Astro content loader of the site. It reads the same files through the same parse function,
 * schema and id function as the CLI, and stores only each packet's public view. The entry's body
 * is the prompt, rendered as Markdown for `render()`. A packet's build status (its zip, its
 * rehearsal) is not stored here: pages read it from the build manifest when they render
 * (src/site/build-status-of.ts), so the collection loads while `packet build` still writes the zips.
 */
export function packetLoader(options: PacketLoaderOptions): Loader {
  return publicPacketsLoader('packet-kit', publicPacketSchema, options, async (context, { packet, view }) => {
    await storeEntry(context, options, { id: packet.id, data: view, body: packet.prompt.body, file: packet.prompt.file, digest: packet.digest });
  });
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
export function rubricNotesLoader(options: Pick<PacketLoaderOptions, 'packetsDir' | 'ids' | 'markdownOf' | 'variants'>): Loader {
  return publicPacketsLoader('packet-kit-rubric-notes', rubricNotesSchema, options, async (context, { packet, view, source }) => {
    await storeEntry(context, options, { id: packet.id, data: { id: packet.id, digest: source.digest }, body: view.rubricBody, file: packet.rubric.file, digest: packet.digest });
  });
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
        await storeEntry(context, options, { id: drill.id, data: view as Record<string, unknown>, body: drill.prompt.body, file: drill.prompt.file, digest: drill.digest });
      }
    },
  };
}

/** The id of variant k's entry of a lab in the lab variants collection: `<id>/v<k>`. */
export function labVariantEntryId(id: string, k: number): string {
  return `${id}/v${k}`;
}

/**
 * The variants v2, v3, ... of every lab with variants, each its own public view (rendered as in
 * {@link variantShown}) with its prompt rendered as the entry's body: the pages
 * `/labs/<id>/v<k>/`. Variant v1 is the lab's own entry of the packets collection. Each entry's
 * id is {@link labVariantEntryId}.
 */
export function labVariantsLoader(options: PacketLoaderOptions): Loader {
  return publicPacketsLoader('packet-kit-lab-variants', publicPacketSchema, options, async (context, { source, dir }) => {
    const count = shownVariantCount(source, options.variants);
    if (source.kind !== 'lab' || count < 2) return;
    const read = folderReader(dir);
    for (let k = 2; k <= count; k++) {
      const { packet, view } = await variantShown(source, read, k, count);
      const id = labVariantEntryId(source.id, k);
      await storeEntry(context, options, { id, data: view as Record<string, unknown>, body: packet.prompt.body, file: packet.prompt.file, digest: (view as PublicPacket).variant!.digest });
    }
  });
}
