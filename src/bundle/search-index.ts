import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { toString } from 'mdast-util-to-string';
import type { CodePacket } from '../packets/packet.ts';
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
export function searchRecord(packet: CodePacket): SearchRecord {
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

/** Where earlier indexes are kept, and the fingerprint of the kit (and so of Pagefind) that made them. */
export interface SearchIndexCache {
  dir: string;
  kit: string;
  /** Indexes kept besides the newest (default 4). */
  keep?: number;
}

/**
 * Index the packets' records and write the index into `outputDir` (served as `/pagefind/`). With a
 * cache, the index of the same records made by the same kit is copied instead of made again.
 */
export async function buildSearchIndex(packets: readonly CodePacket[], outputDir: string, cache?: SearchIndexCache): Promise<SearchIndexResult> {
  if (!cache) return writeIndex(packets.map(searchRecord), outputDir);
  // A record is made from the packet's content alone (its digest) by the kit's code.
  const key = createHash('sha256').update(JSON.stringify([cache.kit, packets.map((p) => [p.id, p.digest])])).digest('hex');
  const kept = path.join(cache.dir, key);
  if (await stat(kept).catch(() => undefined)) {
    await cp(kept, outputDir, { recursive: true });
    return { ok: true, records: packets.length };
  }
  const result = await writeIndex(packets.map(searchRecord), outputDir);
  if (result.ok) {
    try {
      await mkdir(cache.dir, { recursive: true });
      const tmp = `${kept}.${process.pid}.tmp`;
      await cp(outputDir, tmp, { recursive: true });
      await rename(tmp, kept);
      const entries = await Promise.all((await readdir(cache.dir)).filter((n) => /^[0-9a-f]{64}$/.test(n)).map(async (n) => ({ n, t: (await stat(path.join(cache.dir, n))).mtimeMs })));
      for (const { n } of entries.sort((a, b) => b.t - a.t).slice(cache.keep ?? 4)) await rm(path.join(cache.dir, n), { recursive: true, force: true });
    } catch {
      // A cache that cannot be written only costs time.
    }
  }
  return result;
}

async function writeIndex(records: readonly SearchRecord[], outputDir: string): Promise<SearchIndexResult> {
  const pagefind = await import('pagefind');
  try {
    const { index, errors } = await pagefind.createIndex({ forceLanguage: 'en' });
    if (!index) return { ok: false, reason: errors.join('; ') || 'pagefind did not start' };
    for (const r of records) {
      const added = await index.addCustomRecord({ url: r.url, content: r.content, language: 'en', meta: r.meta });
      if (added.errors.length) return { ok: false, reason: added.errors.join('; ') };
    }
    const written = await index.writeFiles({ outputPath: outputDir });
    if (written.errors.length) return { ok: false, reason: written.errors.join('; ') };
    return { ok: true, records: records.length };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  } finally {
    await pagefind.close();
  }
}
