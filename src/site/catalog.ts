import { fileURLToPath } from 'node:url';
import { z } from 'astro/zod';
import type { Loader, LoaderContext } from 'astro/loaders';
import { readSources } from '../packets/load.ts';
import { KINDS, kindNamed, type SiteCollection } from '../packets/kinds/index.ts';
import { declaredKind } from '../packets/parse.ts';
import type { PacketKind } from '../packets/schema/index.ts';

/**
 * The content collections of packets, one per page set: each kind's descriptor names the one its
 * public view is in (`collection`), and src/content.config.ts defines it.
 */
export const SITE_COLLECTIONS: readonly SiteCollection[] = [...new Set(KINDS.map((k) => k.collection))];

/** A keep of `entryPaths`: the entries of one kind (a lab's pages, among the `packets` collection). */
export function ofKind(kind: PacketKind): (entry: { data: { prompt: { kind: PacketKind } } }) => boolean {
  return (entry) => entry.data.prompt.kind === kind;
}

/** The id of the catalog collection's one entry. */
export const CATALOG_ID = 'catalog';

/** The catalog's one entry: the ids of the packets each collection holds. */
export const catalogSchema = z.strictObject({
  /** Collection name to the ids in it, sorted; a collection with no packets has an empty list. */
  ids: z.record(z.string(), z.array(z.string())),
});

/** The catalog's one entry. */
export type Catalog = z.infer<typeof catalogSchema>;

/** The catalog of packet sources: each id under the collection of its declared kind. */
export function catalogOf(sources: readonly { id: string; parts: { prompt?: string } }[]): Catalog {
  const ids: Record<string, string[]> = {};
  for (const collection of SITE_COLLECTIONS) ids[collection] = [];
  for (const source of sources) ids[kindNamed(declaredKind(source.parts.prompt)).collection]!.push(source.id);
  for (const list of Object.values(ids)) list.sort();
  return { ids };
}

/**
 * The entries a page set reads, checked against the catalog: none when the catalog lists none (Astro
 * is then not asked for the collection, which it would warn "does not exist or is empty"); an error
 * when the collection and the catalog disagree.
 */
export async function catalogedEntries<E extends { id: string }>(catalog: Catalog | undefined, collection: SiteCollection, read: () => Promise<E[]>): Promise<E[]> {
  if (!catalog) throw new Error(`the site's catalog collection has no entry "${CATALOG_ID}"; it is defined in src/content.config.ts`);
  const ids = catalog.ids[collection] ?? [];
  if (ids.length === 0) return [];
  const entries = await read();
  const found = entries.map((e) => e.id).sort();
  if (found.join('\n') !== ids.join('\n')) {
    throw new Error(`the collection "${collection}" holds ${found.join(', ') || 'nothing'}, and the site's catalog lists ${ids.join(', ')}`);
  }
  return entries;
}

/**
 * The loader of the catalog collection: one entry, always there, listing which packets each
 * collection holds, read from the kind each prompt declares (the rule the packet and drill
 * loaders split the folders by).
 */
export function catalogLoader(options: { packetsDir: string; ids?: readonly string[] | undefined }): Loader {
  return {
    name: 'packet-kit-catalog',
    schema: catalogSchema,
    async load(context: LoaderContext) {
      const { sources } = await readSources({ packetsDir: options.packetsDir, cwd: fileURLToPath(context.config.root), ...(options.ids ? { ids: options.ids } : {}) });
      const data = await context.parseData({ id: CATALOG_ID, data: catalogOf(sources) });
      context.store.clear();
      context.store.set({ id: CATALOG_ID, data });
    },
  };
}
