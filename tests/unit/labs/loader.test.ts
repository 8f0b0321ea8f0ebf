import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LoaderContext } from 'astro/loaders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../../src/cli/io.ts';
import { runCli } from '../../../src/cli/run-cli.ts';
import { drillLoader, packetLoader } from '../../../src/packets/astro-loader.ts';
import { loadPackets } from '../../../src/packets/load.ts';
import { packetsOfKind } from '../../../src/packets/packet.ts';
import { publicDrill, publicDrillSchema } from '../../../src/packets/public-drill.ts';
import { publicPacketSchema } from '../../../src/packets/public.ts';
import { tempPackets, type TempPackets } from '../../support/packet-fixtures.ts';

/** Run a site loader the way Astro does, with an in-memory store. */
async function runLoader(root: string, loader: ReturnType<typeof packetLoader>, schema: { parseAsync(data: unknown): Promise<unknown> }) {
  const stored = new Map<string, { data: Record<string, unknown> }>();
  const context = {
    config: { root: pathToFileURL(`${root}/`) },
    store: { clear: () => stored.clear(), set: (e: { id: string; data: Record<string, unknown> }) => stored.set(e.id, e) },
    parseData: async ({ data }: { data: unknown }) => schema.parseAsync(data),
    renderMarkdown: async (body: string) => ({ html: body, metadata: {} }),
    logger: { info() {}, warn() {}, error() {}, debug() {} },
  } as unknown as LoaderContext;
  await loader.load(context);
  return stored;
}

let t: TempPackets;
beforeAll(async () => {
  t = await tempPackets();
  await t.add('take', {}, 'takehome');
  await t.add('slug', {}, 'lab');
  await t.add('review', {}, 'drill');
});
afterAll(() => t.dispose());

describe('labs and drills through the one loader and its two adapters', () => {
  it('the CLI loader gives packets of every kind, each with its kind', async () => {
    const { packets, diagnostics } = await loadPackets({ packetsDir: 'packets', cwd: t.root });
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(packets.map((p) => [p.id, p.kind, p.prompt.data.kind, p.kind === 'lab' && Boolean(p.lab)])).toEqual([
      ['review', 'drill', 'drill', false],
      ['slug', 'lab', 'lab', true],
      ['take', 'takehome', 'takehome', false],
    ]);
  });

  it("the site's loaders give the same ids, a lab's suggestions without their key, a drill's diffs without theirs", async () => {
    const packets = await runLoader(t.root, packetLoader({ packetsDir: 'packets' }), publicPacketSchema);
    expect([...packets.keys()].sort()).toEqual(['slug', 'take']);
    const lab = packets.get('slug')!.data as { lab: { suggestions: Record<string, unknown>[] } };
    expect(lab.lab.suggestions.map((s) => s.id)).toEqual(['separators', 'length-cut', 'cache']);
    expect(JSON.stringify(lab)).not.toMatch(/"key"|reviewOnly|never forgets|unbounded/);
    const drills = await runLoader(t.root, drillLoader({ packetsDir: 'packets' }), publicDrillSchema);
    expect([...drills.keys()]).toEqual(['review']);
    const cli = packetsOfKind((await loadPackets({ packetsDir: 'packets', cwd: t.root })).packets, 'drill');
    expect(drills.get('review')!.data).toEqual(publicDrill(cli[0]!));
    expect(JSON.stringify(drills.get('review')!.data)).not.toMatch(/"key"|"consequence"|writes the database/);
  });

  it('packet new scaffolds a lab and a drill that pass check, and refuses an unknown kind', async () => {
    const io = memoryIo(t.root, { env: process.env });
    expect(await runCli(['new', 'fresh-lab', '--kind', 'lab'], io)).toBe(0);
    expect(await runCli(['new', 'fresh-drill', '--kind', 'drill'], io)).toBe(0);
    expect(io.stdout).toContain('Created packets/fresh-lab/ (prompt, rubric, assistant; starter, hidden).');
    const check = memoryIo(t.root, { env: process.env });
    expect(await runCli(['check', 'fresh-lab', 'fresh-drill'], check)).toBe(0);
    expect(check.stdout).toContain('2 packets checked (2 parsed): 0 errors, 0 warnings.');
    // Both say where the answer sheet goes (lint PK256 warns without it).
    for (const id of ['fresh-lab', 'fresh-drill']) expect(await readFile(path.join(t.root, 'packets', id, 'prompt.mdx'), 'utf8')).toMatch(/^handIn: \{ to: "[^"]+" \}$/m);
    const bad = memoryIo(t.root, { env: process.env });
    expect(await runCli(['new', 'x', '--kind', 'quiz'], bad)).toBe(2);
    expect(bad.stderr).toContain('--kind must be "takehome" or "lab" or "drill"');
  });
});
