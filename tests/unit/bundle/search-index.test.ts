import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSearchIndex, searchRecord } from '../../../src/bundle/search-index.ts';
import { memPacket } from './helpers.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'packet-search-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the search index', () => {
  it('holds each packet\'s public text: title, summary, tags and the prompt as the candidate reads it', () => {
    const { packet } = memPacket();
    const record = searchRecord(packet);
    expect(record.url).toBe('/packets/mem/');
    expect(record.meta).toEqual({ title: packet.prompt.data.title, id: 'mem' });
    expect(record.content).toContain('parse_duration');
    expect(record.content).toContain(packet.prompt.data.summary);
    // Nothing of the sample, the failure catalog or the frontmatter's secrets-adjacent fields.
    expect(record.content).not.toContain('PART.findall');
    expect(record.content).not.toContain('Only the first unit counts');
    expect(record.content).not.toContain('forbid');
  });

  it('is written by Pagefind, and copied from the cache for the same packets', async () => {
    const { packet } = memPacket();
    const cache = { dir: path.join(dir, 'cache'), kit: 'kit' };
    expect(await buildSearchIndex([packet], path.join(dir, 'one'), cache)).toEqual({ ok: true, records: 1 });
    const written = (await readdir(path.join(dir, 'one'))).sort();
    expect(written).toContain('pagefind.js');
    expect(await readdir(cache.dir)).toHaveLength(1);
    expect(await buildSearchIndex([packet], path.join(dir, 'two'), cache)).toEqual({ ok: true, records: 1 });
    expect((await readdir(path.join(dir, 'two'))).sort()).toEqual(written);
    expect(await readdir(cache.dir)).toHaveLength(1);
  });
});
