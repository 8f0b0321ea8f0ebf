import { fileURLToPath } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
import { describe, expect, it } from 'vitest';
import { drillLoader, packetLoader, rubricNotesLoader } from '../../../src/packets/astro-loader.ts';
import { readSources } from '../../../src/packets/load.ts';
import { KINDS } from '../../../src/packets/kinds/index.ts';
import { CATALOG_ID, catalogedEntries, catalogLoader, catalogOf, ofKind, SITE_COLLECTIONS, type Catalog } from '../../../src/site/catalog.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Run a content loader on a stand-in of Astro's context; what it stores. */
async function load(loader: Loader): Promise<{ id: string; data: unknown }[]> {
  const stored: { id: string; data: unknown }[] = [];
  const context = {
    config: { root: new URL('../../../', import.meta.url) },
    parseData: async ({ data }: { data: unknown }) => data,
    renderMarkdown: async () => ({ html: '' }),
    store: { clear: () => stored.splice(0), set: (entry: { id: string; data: unknown }) => stored.push(entry) },
  } as unknown as LoaderContext;
  await loader.load(context);
  return stored;
}
const ids = async (loader: Loader) => (await load(loader)).map((e) => e.id).sort();

describe("the site's catalog of collections", () => {
  it('puts each packet of the shipped folder in the collection its loader stores it in', async () => {
    const { sources } = await readSources({ packetsDir: 'packets', cwd: ROOT });
    const catalog = catalogOf(sources);
    expect(catalog.ids).toEqual({ packets: await ids(packetLoader({ packetsDir: 'packets' })), drills: await ids(drillLoader({ packetsDir: 'packets' })) });
    expect(catalog.ids.drills!.length).toBeGreaterThan(0);
    expect(catalog.ids.packets!.length).toBeGreaterThan(0);
  });

  it('lists every collection, an empty one as an empty list', () => {
    const prompt = (kind: string) => `---\nkind: ${kind}\ntitle: T\n---\n# T\n`;
    expect(catalogOf([])).toEqual({ ids: { packets: [], drills: [] } });
    expect(catalogOf([{ id: 'b', parts: { prompt: prompt('lab') } }, { id: 'a', parts: {} }, { id: 'c', parts: { prompt: prompt('drill') } }])).toEqual({ ids: { packets: ['a', 'b'], drills: ['c'] } });
  });

  it("puts a packet of each kind in the collection its kind's descriptor names, and lists exactly those collections", () => {
    const prompt = (kind: string) => `---\nkind: ${kind}\ntitle: T\n---\n# T\n`;
    const catalog = catalogOf(KINDS.map((k) => ({ id: `a-${k.kind}`, parts: { prompt: prompt(k.kind) } })));
    for (const k of KINDS) expect(catalog.ids[k.collection], k.kind).toContain(`a-${k.kind}`);
    expect(Object.keys(catalog.ids).sort()).toEqual([...new Set(KINDS.map((k) => k.collection))].sort());
    expect([...SITE_COLLECTIONS].sort()).toEqual(['drills', 'packets']);
  });

  it("keeps the entries of one kind by their prompt's kind", () => {
    const entry = (kind: 'takehome' | 'lab' | 'drill') => ({ data: { prompt: { kind } } });
    expect([entry('takehome'), entry('lab'), entry('drill')].filter(ofKind('lab'))).toEqual([entry('lab')]);
    expect([entry('takehome'), entry('lab')].filter(ofKind('takehome'))).toEqual([entry('takehome')]);
  });

  it('does not read a collection the catalog lists empty, and checks the one it reads', async () => {
    const catalog: Catalog = { ids: { packets: ['a', 'b'], drills: [] } };
    let reads = 0;
    const read = (entries: { id: string }[]) => async () => {
      reads += 1;
      return entries;
    };
    expect(await catalogedEntries(catalog, 'drills', read([{ id: 'x' }]))).toEqual([]);
    expect(reads).toBe(0);
    expect(await catalogedEntries(catalog, 'packets', read([{ id: 'b' }, { id: 'a' }]))).toEqual([{ id: 'b' }, { id: 'a' }]);
    expect(reads).toBe(1);
    await expect(catalogedEntries(catalog, 'packets', read([{ id: 'a' }]))).rejects.toThrow('the collection "packets" holds a, and the site\'s catalog lists a, b');
    await expect(catalogedEntries(undefined, 'packets', read([]))).rejects.toThrow(`no entry "${CATALOG_ID}"`);
  });

  it('holds only the packets of a selection (`packet build <id>...`), in the catalog and in every collection', async () => {
    const chosen = ['drill-retry-backoff', 'fetch-retry-ticket'];
    const [entry] = await load(catalogLoader({ packetsDir: 'packets', ids: chosen }));
    expect((entry!.data as Catalog).ids).toEqual({ packets: ['fetch-retry-ticket'], drills: ['drill-retry-backoff'] });
    expect(await ids(packetLoader({ packetsDir: 'packets', ids: chosen }))).toEqual(['fetch-retry-ticket']);
    expect(await ids(rubricNotesLoader({ packetsDir: 'packets', ids: chosen }))).toEqual(['fetch-retry-ticket']);
    expect(await ids(drillLoader({ packetsDir: 'packets', ids: chosen }))).toEqual(['drill-retry-backoff']);
  });

  it('is loaded as one entry, the same for the same folder', async () => {
    const { sources } = await readSources({ packetsDir: 'packets', cwd: ROOT });
    expect(await load(catalogLoader({ packetsDir: 'packets' }))).toEqual([{ id: CATALOG_ID, data: catalogOf(sources) }]);
  });
});
