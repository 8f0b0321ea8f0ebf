import { getCollection, type CollectionEntry } from 'astro:content';
import { entriesOf } from './entries.ts';

/**
 * The pages of the variants v2, v3, ... of the labs with variants (`/labs/<id>/v<k>/`), read from
 * the lab variants collection (src/content.config.ts). The collection is read only when a lab of
 * the packets collection has more than one variant, so a site without one builds without Astro's
 * warning about an empty collection.
 */

/** The props of a variant's lab page. */
export interface LabVariantProps {
  entry: CollectionEntry<'labVariants'>;
}

/** The `getStaticPaths` of the variants' lab pages: one per variant k >= 2, at `{ id, variant: "v<k>" }`. */
export async function labVariantPaths(): Promise<{ params: { id: string; variant: string }; props: LabVariantProps }[]> {
  const labs = (await entriesOf('packets')).filter((e) => e.data.prompt.kind === 'lab' && (e.data.variant?.count ?? 0) > 1);
  if (!labs.length) return [];
  const expected = new Set(labs.flatMap((e) => Array.from({ length: e.data.variant!.count - 1 }, (_, i) => `${e.id}/v${i + 2}`)));
  const entries = (await getCollection('labVariants')).filter((e) => expected.has(e.id));
  if (entries.length !== expected.size) throw new Error(`the lab variants collection holds ${entries.length} of the ${expected.size} variant pages the labs with variants need`);
  return entries.map((entry) => ({ params: { id: entry.data.id, variant: entry.data.variant!.id }, props: { entry } }));
}

/** The variants v2, v3, ... of one lab with variants, in order; none for a lab without. */
export async function labVariantEntriesOf(lab: { id: string; variant?: { count: number } | undefined }): Promise<CollectionEntry<'labVariants'>[]> {
  if ((lab.variant?.count ?? 0) < 2) return [];
  const entries = (await getCollection('labVariants')).filter((e) => e.data.id === lab.id && e.id.startsWith(`${lab.id}/`));
  return entries.sort((a, b) => a.data.variant!.number - b.data.variant!.number);
}

/** The head of a lab page: its title, and whether search engines are kept out (a variant other than v1: its address is sent, never listed). */
export function labPageHead(packet: { prompt: { title: string }; variant?: { id: string; number: number } | undefined }): { title: string; noindex: boolean } {
  const own = packet.variant !== undefined && packet.variant.number > 1;
  return { title: own ? `Lab: ${packet.prompt.title} (variant ${packet.variant!.id})` : `Lab: ${packet.prompt.title}`, noindex: own };
}
