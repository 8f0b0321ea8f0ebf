import { getCollection, getEntry, type CollectionEntry } from 'astro:content';
import type { SiteCollection } from '../packets/kinds/index.ts';
import { CATALOG_ID, catalogedEntries } from './catalog.ts';

/**
 * Every entry of a collection of packets. Pages read them here, not with `getCollection`, so a
 * folder without a kind (no drills, say) builds without Astro's warning about an empty collection.
 */
export async function entriesOf<C extends SiteCollection>(collection: C): Promise<CollectionEntry<C>[]> {
  const catalog = await getEntry('catalog', CATALOG_ID);
  return catalogedEntries(catalog?.data, collection, () => getCollection(collection));
}

/** The props of a page of one entry. */
export interface EntryProps<C extends SiteCollection> {
  entry: CollectionEntry<C>;
}

/**
 * The `getStaticPaths` of a page set: a page per entry (those `keep` keeps), at its id, the entry
 * as its props.
 */
export async function entryPaths<C extends SiteCollection>(collection: C, keep: (entry: CollectionEntry<C>) => boolean = () => true) {
  const entries = await entriesOf(collection);
  return entries.filter(keep).map((entry) => ({ params: { id: entry.id }, props: { entry } satisfies EntryProps<C> }));
}
