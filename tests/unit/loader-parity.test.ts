import { pathToFileURL } from 'node:url';
import type { LoaderContext } from 'astro/loaders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packetLoader } from '../../src/packets/astro-loader.ts';
import { starterReader } from '../../src/packets/fs-source.ts';
import { loadPackets } from '../../src/packets/load.ts';
import path from 'node:path';
import { publicPacket, publicPacketSchema } from '../../src/packets/public.ts';
import { tempPackets, type TempPackets } from '../support/packet-fixtures.ts';

/** Run the Astro loader the way Astro does, with an in-memory store. */
async function runAstroLoader(root: string, packetsDir: string) {
  const stored = new Map<string, { id: string; data: Record<string, unknown>; body?: string; digest?: string | number }>();
  const context = {
    collection: 'packets',
    config: { root: pathToFileURL(root.endsWith('/') ? root : root + '/') },
    store: {
      clear: () => stored.clear(),
      set: (entry: { id: string; data: Record<string, unknown>; body?: string; digest?: string | number }) => {
        stored.set(entry.id, entry);
        return true;
      },
    },
    parseData: async ({ data }: { data: Record<string, unknown> }) => publicPacketSchema.parseAsync(data),
    logger: { info() {}, warn() {}, error() {}, debug() {} },
  } as unknown as LoaderContext;
  await packetLoader({ packetsDir }).load(context);
  return stored;
}

describe('one loader, two adapters', () => {
  let t: TempPackets;
  beforeAll(async () => {
    t = await tempPackets();
    await t.add('alpha');
    await t.add('beta', { title: 'Beta: the second' });
    await t.edit('beta', 'prompt.mdx', 'level: junior', 'level: senior');
  });
  afterAll(() => t.dispose());

  it('gives the same ids and data through the CLI loader and the Astro loader', async () => {
    const cli = await loadPackets({ packetsDir: 'packets', cwd: t.root });
    const site = await runAstroLoader(t.root, 'packets');
    expect([...site.keys()].sort()).toEqual(cli.packets.map((p) => p.id).sort());
    expect([...site.keys()].sort()).toEqual(['alpha', 'beta']);
    for (const packet of cli.packets) {
      const entry = site.get(packet.id)!;
      expect(entry.data).toEqual(publicPacket(packet, starterReader(path.join(t.packets, packet.id))));
      expect((entry.data as { starter: { path: string; text?: string }[] }).starter.find((f) => f.path === 'src/duration.py')?.text).toContain('def parse_duration');
      expect(entry.digest).toBe(packet.digest);
      expect(entry.body).toBe(packet.prompt.body);
    }
    expect((site.get('beta')!.data as { prompt: { level: string } }).prompt.level).toBe('senior');
  });

  it('stores nothing secret in the site collection', async () => {
    const site = await runAstroLoader(t.root, 'packets');
    const text = JSON.stringify([...site.values()]);
    const cli = await loadPackets({ packetsDir: 'packets', cwd: t.root });
    const packet = cli.packets[0]!;
    for (const secret of [packet.sample.body.trim().split('\n')[0]!, packet.failures.data.modes[0]!.title, 'sample/src', 'hidden/', 'mutants/']) {
      expect(text).not.toContain(secret);
    }
  });

  it('refuses to build the site from an invalid packet, naming it', async () => {
    await t.edit('beta', 'rubric.mdx', 'minutes: 10', 'minutes: ten');
    await expect(runAstroLoader(t.root, 'packets')).rejects.toThrow(/packet "beta" is not valid[\s\S]*rubric\.mdx:\d+:\d+ PK107/);
  });
});
