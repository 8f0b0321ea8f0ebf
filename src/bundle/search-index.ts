import { toString } from 'mdast-util-to-string';
import type { Packet } from '../packets/packet.ts';
import { renderBody } from './markdown.ts';

/**
 * The site's search index, made by Pagefind (a maintained static search library: a Rust indexer
 * shipped as an npm package, a small WebAssembly search in the browser, files fetched on demand),
 * so the catalog finds a packet by any word of its prompt once the library outgrows a page of
 * cards. One record per packet, from its public parts only (title, summary, tags, language and
 * the prompt as the candidate reads it), so the index can be made while Astro builds the pages;
 * the canary scan opens its files like any other.
 */

/** The text a packet is found by. */
export interface SearchRecord {
  /** The packet page, `/packets/<id>/`. */
  url: string;
  /** Title, summary, tags and the prompt's text. */
  content: string;
  /** Shown with a result; `id` maps a result back to its catalog card. */
  meta: { title: string; id: string };
}

/** A packet's search record: its public text only. */
export function searchRecord(packet: Packet): SearchRecord {
  const p = packet.prompt.data;
  const prompt = toString(renderBody(packet.prompt.body, packet.prompt.file), { includeHtml: false });
  return {
    url: `/packets/${packet.id}/`,
    content: [p.title, p.summary, p.tags.join(' '), p.language, prompt].join('\n'),
    meta: { title: p.title, id: packet.id },
  };
}

/** How indexing ended. */
export type SearchIndexResult = { ok: true; records: number } | { ok: false; reason: string };

/** Index the packets' records and write the index into `outputDir` (served as `/pagefind/`). */
export async function buildSearchIndex(packets: readonly Packet[], outputDir: string): Promise<SearchIndexResult> {
  const pagefind = await import('pagefind');
  try {
    const { index, errors } = await pagefind.createIndex({ forceLanguage: 'en' });
    if (!index) return { ok: false, reason: errors.join('; ') || 'pagefind did not start' };
    for (const packet of packets) {
      const r = searchRecord(packet);
      const added = await index.addCustomRecord({ url: r.url, content: r.content, language: 'en', meta: r.meta });
      if (added.errors.length) return { ok: false, reason: added.errors.join('; ') };
    }
    const written = await index.writeFiles({ outputPath: outputDir });
    if (written.errors.length) return { ok: false, reason: written.errors.join('; ') };
    return { ok: true, records: packets.length };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  } finally {
    await pagefind.close();
  }
}
