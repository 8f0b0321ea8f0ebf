import { fileURLToPath } from 'node:url';
import type { LoaderContext } from 'astro/loaders';
import { describe, expect, it } from 'vitest';
import { loadPackets, readSources } from '../../../src/packets/load.ts';
import { CATALOG_ID, catalogedEntries, catalogLoader, catalogOf, type Catalog } from '../../../src/site/catalog.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ids = (list: readonly { id: string }[]) => list.map((p) => p.id).sort();

describe("the site's catalog of collections", () => {
  it('puts each packet of the shipped folder in the collection its loader stores it in', async () => {
    const { sources } = await readSources({ packetsDir: 'packets', cwd: ROOT });
    const { packets, drills } = await loadPackets({ packetsDir: 'packets', cwd: ROOT });
    const catalog = catalogOf(sources);
    expect(catalog.ids).toEqual({ packets: ids(packets), drills: ids(drills) });
    expect(catalog.ids.drills!.length).toBeGreaterThan(0);
    expect(catalog.ids.packets!.length).toBeGreaterThan(0);
  });

  it('lists every collection, an empty one as an empty list', () => {
    const prompt = (kind: string) => `---\nkind: ${kind}\ntitle: T\n---\n# T\n`;
    expect(catalogOf([])).toEqual({ ids: { packets: [], drills: [] } });
    expect(catalogOf([{ id: 'b', parts: { prompt: prompt('lab') } }, { id: 'a', parts: {} }, { id: 'c', parts: { prompt: prompt('drill') } }])).toEqual({ ids: { packets: ['a', 'b'], drills: ['c'] } });
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

  it('is loaded as one entry, the same for the same folder', async () => {
    const stored: { id: string; data: unknown }[] = [];
    const context = {
      config: { root: new URL('../../../', import.meta.url) },
      parseData: async ({ data }: { data: unknown }) => data,
      store: { clear: () => stored.splice(0), set: (entry: { id: string; data: unknown }) => stored.push(entry) },
    } as unknown as LoaderContext;
    await catalogLoader({ packetsDir: 'packets' }).load(context);
    const { sources } = await readSources({ packetsDir: 'packets', cwd: ROOT });
    expect(stored).toEqual([{ id: CATALOG_ID, data: catalogOf(sources) }]);
  });
});
