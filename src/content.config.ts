import { defineCollection } from 'astro:content';
import { renderBody, toMarkdown } from './bundle/markdown.ts';
import { drillLoader, labVariantsLoader, packetLoader, rubricNotesLoader } from './packets/astro-loader.ts';
import { catalogLoader } from './site/catalog.ts';

// `packet build` sets the packets folder; a plain `astro build` reads ./packets.
const packetsDir = process.env.PACKET_KIT_PACKETS || 'packets';
// `packet build <id>...` sets the packets the site shows (a JSON list); without it, every packet of the folder.
const ids: string[] | undefined = process.env.PACKET_KIT_IDS ? (JSON.parse(process.env.PACKET_KIT_IDS) as string[]) : undefined;
// The zip's conversion of a part body to plain Markdown (MDX comments and expressions out), so a page shows what PROMPT.md and RUBRIC.md hold.
// `packet build --variants N` sets how many variants of each packet with variants the site shows (PACKET_KIT_VARIANTS); else each one's `variants.count`.
const variants = process.env.PACKET_KIT_VARIANTS ? Number(process.env.PACKET_KIT_VARIANTS) : undefined;
const markdownOf = (body: string, file: string) => toMarkdown(renderBody(body, file));

/**
 * The public packets: prompt, rubric and starter tree only (see src/packets/public.ts). Their build
 * status comes from the manifest when the pages render (src/site/build-status-of.ts), so this
 * collection loads at once, while `packet build` is still writing the zips.
 */
const packets = defineCollection({
  loader: packetLoader({ packetsDir, ids, markdownOf, variants }),
});

/** The rubrics' reviewer notes, rendered on the rubric pages. */
const rubricNotes = defineCollection({
  loader: rubricNotesLoader({ packetsDir, ids, markdownOf, variants }),
});

/** The drills: each one's prompt and diffs, never their key (see src/packets/public-drill.ts). */
const drills = defineCollection({
  loader: drillLoader({ packetsDir, ids, markdownOf }),
});

/**
 * The variants v2, v3, ... of each lab with variants, each its own lab page (`/labs/<id>/v<k>/`);
 * v1 is the lab's entry in `packets`. Read only for a lab that has them (src/site/lab-variants.ts).
 */
const labVariants = defineCollection({
  loader: labVariantsLoader({ packetsDir, ids, markdownOf, variants }),
});

/**
 * Which packets each collection above holds, in one entry that is always there: pages read the
 * collections through it (src/site/entries.ts), so an empty one is never asked for.
 */
const catalog = defineCollection({
  loader: catalogLoader({ packetsDir, ids }),
});

export const collections = { packets, rubricNotes, drills, catalog, labVariants };
