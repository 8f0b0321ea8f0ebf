import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { LoaderContext } from 'astro/loaders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packetLoader, rubricNotesLoader } from '../../../src/packets/astro-loader.ts';
import { starterReader } from '../../../src/packets/fs-source.ts';
import { loadPackets } from '../../../src/packets/load.ts';
import { codePackets, packetsOfKind } from '../../../src/packets/packet.ts';
import { splitRubricBody } from '../../../src/packets/rubric-notes.ts';
import path from 'node:path';
import { publicPacket, publicPacketSchema } from '../../../src/packets/public.ts';
import { tempPackets, type TempPackets } from '../../support/packet-fixtures.ts';

interface StoredEntry {
  id: string;
  data: Record<string, unknown>;
  body?: string;
  rendered?: { html: string };
  digest?: string | number;
}

/** Run a site loader the way Astro does, with an in-memory store and a stand-in Markdown renderer. */
async function runLoader(root: string, loader: ReturnType<typeof packetLoader>) {
  const stored = new Map<string, StoredEntry>();
  const context = {
    collection: 'packets',
    config: { root: pathToFileURL(root.endsWith('/') ? root : root + '/') },
    store: {
      clear: () => stored.clear(),
      set: (entry: StoredEntry) => {
        stored.set(entry.id, entry);
        return true;
      },
    },
    parseData: async ({ data }: { data: Record<string, unknown> }) => ('schema' in loader ? (loader.schema as typeof publicPacketSchema) : publicPacketSchema).parseAsync(data),
    renderMarkdown: async (body: string) => ({ html: `<rendered>${body}</rendered>`, metadata: {} }),
    logger: { info() {}, warn() {}, error() {}, debug() {} },
  } as unknown as LoaderContext;
  await loader.load(context);
  return stored;
}

/** Run the site's packet loader. */
const runAstroLoader = (root: string, packetsDir: string) => runLoader(root, packetLoader({ packetsDir }));

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
    expect([...site.keys()].sort()).toEqual(codePackets(cli.packets).map((p) => p.id).sort());
    expect([...site.keys()].sort()).toEqual(['alpha', 'beta']);
    for (const packet of codePackets(cli.packets)) {
      const entry = site.get(packet.id)!;
      const view = publicPacket(packet, starterReader(path.join(t.packets, packet.id)));
      expect(entry.data).toEqual(view);
      // The build status is read by the pages from the manifest, never stored with the public view.
      expect(entry.data).not.toHaveProperty('download');
      expect(entry.data).not.toHaveProperty('rehearsal');
      expect(entry.rendered?.html).toBe(`<rendered>${packet.prompt.body}</rendered>`);
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
    const packet = packetsOfKind(cli.packets, 'takehome')[0]!;
    for (const secret of [packet.sample.body.trim().split('\n')[0]!, packet.failures.data.modes[0]!.title, 'sample/src', 'hidden/', 'mutants/']) {
      expect(text).not.toContain(secret);
    }
  });

  it('renders the Markdown that markdownOf makes of a body, and stores the body as it is', async () => {
    const cli = await loadPackets({ packetsDir: 'packets', cwd: t.root });
    const markdownOf = (body: string, file: string) => `${file}\n${body.toUpperCase()}`;
    const site = await runLoader(t.root, packetLoader({ packetsDir: 'packets', markdownOf }));
    const notes = await runLoader(t.root, rubricNotesLoader({ packetsDir: 'packets', markdownOf }));
    for (const packet of codePackets(cli.packets)) {
      expect(site.get(packet.id)!.body).toBe(packet.prompt.body);
      expect(site.get(packet.id)!.rendered?.html).toBe(`<rendered>${packet.prompt.file}\n${packet.prompt.body.toUpperCase()}</rendered>`);
      expect(notes.get(packet.id)!.rendered?.html).toBe(`<rendered>${packet.rubric.file}\n${splitRubricBody(packet.rubric).publicBody.toUpperCase()}</rendered>`);
    }
  });

  it('keeps the rubric notes beside the packets, rendered, without their reviewer-only sections', async () => {
    const cli = await loadPackets({ packetsDir: 'packets', cwd: t.root });
    const notes = await runLoader(t.root, rubricNotesLoader({ packetsDir: 'packets' }));
    for (const packet of codePackets(cli.packets)) {
      const entry = notes.get(packet.id)!;
      const split = splitRubricBody(packet.rubric);
      expect(entry.data).toEqual({ id: packet.id, digest: packet.digest });
      expect(entry.body).toBe(split.publicBody);
      expect(entry.rendered?.html).toContain(split.publicBody);
      // The scaffold's rubric has reviewer-only notes; none of their words reach the collection.
      expect(split.reviewerBody).toContain('Score refusal by trying one bad');
      expect(JSON.stringify(entry)).not.toContain('Score refusal by trying one bad');
    }
  });

  it('refuses to build the site from an invalid packet, naming it', async () => {
    await t.edit('beta', 'rubric.mdx', 'minutes: 10', 'minutes: ten');
    await expect(runAstroLoader(t.root, 'packets')).rejects.toThrow(/packet "beta" is not valid[\s\S]*rubric\.mdx:\d+:\d+ PK107/);
  });
});
