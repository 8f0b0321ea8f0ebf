import { defineCollection } from 'astro:content';
import { renderBody, toMarkdown } from './bundle/markdown.ts';
import { siteManifest } from './bundle/site-manifest-gate.ts';
import { packetLoader, rubricNotesLoader } from './packets/astro-loader.ts';

// `packet build` sets the packets folder and hands over the manifest (see bundle/site-manifest-gate.ts); a plain
// `astro build` reads ./packets and PACKET_KIT_MANIFEST, if set (without it: no downloads, nothing rehearsed).
const packetsDir = process.env.PACKET_KIT_PACKETS || 'packets';
// The zip's conversion of a part body to plain Markdown (MDX comments and expressions out), so a page shows what PROMPT.md and RUBRIC.md hold.
const markdownOf = (body: string, file: string) => toMarkdown(renderBody(body, file));

/** The public packets: prompt, rubric and starter tree only (see src/packets/public.ts), with their build status. */
const packets = defineCollection({
  loader: {
    ...packetLoader({ packetsDir, markdownOf }),
    // `packet build` starts Astro before the zips are written: this collection waits for the
    // manifest, while the others load.
    async load(context) {
      return packetLoader({ packetsDir, manifest: await siteManifest(), markdownOf }).load(context);
    },
  },
});

/** The rubrics' reviewer notes, rendered on the rubric pages. */
const rubricNotes = defineCollection({
  loader: rubricNotesLoader({ packetsDir, markdownOf }),
});

export const collections = { packets, rubricNotes };
