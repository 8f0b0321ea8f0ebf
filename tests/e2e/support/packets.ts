import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { buildStatus, parseBuildManifest, type BuildManifest, type BuildStatus } from '../../../src/packets/build-status.ts';
import { shownVariantCount, variantShown } from '../../../src/packets/astro-loader.ts';
import { starterReader } from '../../../src/packets/fs-source.ts';
import { loadPackets } from '../../../src/packets/load.ts';
import { codePackets, packetsOfKind } from '../../../src/packets/packet.ts';
import { publicPacket, type PublicPacket } from '../../../src/packets/public.ts';
import { publicDrill, type PublicDrill } from '../../../src/packets/public-drill.ts';

/** The project root (the tests run from it). */
export const ROOT = path.resolve(import.meta.dirname, '../../..');

/** The public view of every packet, read by the CLI's loader: what the site must show. */
export async function publicPackets(packetsDir = 'packets'): Promise<PublicPacket[]> {
  const { packets, diagnostics } = await loadPackets({ packetsDir, cwd: ROOT });
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) throw new Error(`the packets are not valid:\n${errors.map((d) => `${d.file} ${d.code} ${d.message}`).join('\n')}`);
  const views = await Promise.all(
    codePackets(packets).map(async (p) => {
      const dir = path.resolve(ROOT, p.dir);
      const count = shownVariantCount(p, undefined);
      // A packet with variants is shown as its variant v1 (src/packets/astro-loader.ts).
      if (count) return (await variantShown(p, async (rel) => readFile(path.join(dir, rel)).then((b) => new Uint8Array(b), () => undefined), 1, count)).view as PublicPacket;
      return publicPacket(p, starterReader(dir));
    }),
  );
  return views.sort((a, b) => a.id.localeCompare(b.id));
}

/** The public view of variant k of a packet with variants, as its page shows it (its values written in). */
export async function publicVariant(id: string, k: number, packetsDir = 'packets'): Promise<PublicPacket> {
  const { packets } = await loadPackets({ packetsDir, cwd: ROOT, ids: [id] });
  const p = codePackets(packets).find((x) => x.id === id);
  if (!p) throw new Error(`no packet "${id}" in ${packetsDir}`);
  const dir = path.resolve(ROOT, p.dir);
  return (await variantShown(p, async (rel) => readFile(path.join(dir, rel)).then((b) => new Uint8Array(b), () => undefined), k, shownVariantCount(p, undefined))).view as PublicPacket;
}

/** The public view of every drill, read by the CLI's loader. */
export async function publicDrills(packetsDir = 'packets'): Promise<PublicDrill[]> {
  const { packets, diagnostics } = await loadPackets({ packetsDir, cwd: ROOT });
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) throw new Error(`the packets are not valid:\n${errors.map((d) => `${d.file} ${d.code} ${d.message}`).join('\n')}`);
  return packetsOfKind(packets, 'drill').map(publicDrill).sort((a, b) => a.id.localeCompare(b.id));
}

/** The site under test, as the global setup published it. */
export interface SiteUnderTest {
  /** The served site, `http://127.0.0.1:<port>`. */
  url: string;
  /** The built site's folder. */
  dist: string;
  /** The manifest the site was built with, when there was one. */
  manifest: BuildManifest | undefined;
}

/** Read what the global setup published in the environment. */
export async function siteUnderTest(): Promise<SiteUnderTest> {
  const url = process.env.PACKET_KIT_E2E_URL;
  const dist = process.env.PACKET_KIT_E2E_DIST;
  if (!url || !dist) throw new Error('PACKET_KIT_E2E_URL and PACKET_KIT_E2E_DIST are unset: run through `npx playwright test`, whose global setup builds and serves the site');
  const file = process.env.PACKET_KIT_E2E_MANIFEST;
  const manifest = file ? parseBuildManifest(await readFile(file, 'utf8'), file) : undefined;
  return { url, dist, manifest };
}

/** What the site must show for a packet's build, from the manifest (by id and digest). */
export function expectedBuild(site: SiteUnderTest, packet: PublicPacket): BuildStatus {
  return buildStatus(site.manifest, packet.id, packet.digest);
}
