import { defineCollection } from 'astro:content';
import { z } from 'astro/zod';
import { renderBody, toMarkdown } from './bundle/markdown.ts';
import { siteManifest } from './bundle/site-manifest-gate.ts';
import { errorReferenceMarkdown } from './errors/reference.ts';
import { drillLoader, packetLoader, rubricNotesLoader } from './packets/astro-loader.ts';
import { literalText } from './site/markdown-text.ts';

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

/** The drills: each one's prompt and diffs, never their key (see src/packets/public-drill.ts). */
const drills = defineCollection({
  loader: drillLoader({ packetsDir, markdownOf }),
});

/** The error reference, one entry generated from the error catalog. */
const errorReference = defineCollection({
  loader: {
    name: 'packet-kit-error-reference',
    async load(context) {
      // The catalog's area headings are `####` (they sit under README's own headings); on the page they are the top sections.
      const body = literalText(errorReferenceMarkdown()).replace(/^#### /gm, '## ');
      context.store.clear();
      context.store.set({ id: 'reference', data: {}, body, rendered: await context.renderMarkdown(body) });
    },
  },
  schema: z.strictObject({}),
});

export const collections = { packets, rubricNotes, drills, errorReference };
