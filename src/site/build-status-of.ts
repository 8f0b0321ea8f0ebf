import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { siteManifest } from '../bundle/site-manifest-gate.ts';
import { buildStatus, parseBuildManifest, type BuildManifest, type BuildStatus } from '../packets/build-status.ts';

/**
 * A packet's build status (its zip, its rehearsal, whether it is in the search index) as the pages
 * show it, read from the build manifest when a page renders: the one `packet build` hands the
 * Astro child (site-manifest-gate.ts), or PACKET_KIT_MANIFEST. The content collection loads
 * without it, so Astro loads and renders the packets' Markdown while the build writes the zips.
 * Without a manifest every packet is not built and not rehearsed.
 */

let manifest: Promise<BuildManifest | undefined> | undefined;

/** Read the manifest once per build; a path is relative to the working directory (the Astro root). */
async function readManifest(): Promise<BuildManifest | undefined> {
  const file = await siteManifest();
  if (!file) return undefined;
  const abs = path.resolve(file);
  const text = await readFile(abs, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new Error(`the build manifest ${abs} cannot be read (${err.code ?? err.message}); run \`npx packet build\`, or unset PACKET_KIT_MANIFEST for a site without downloads`);
  });
  return parseBuildManifest(text, abs);
}

/** The build status of a packet version (by id and digest), from this build's manifest. */
export async function buildStatusOf(packet: { id: string; digest: string }): Promise<BuildStatus> {
  manifest ??= readManifest();
  return buildStatus(await manifest, packet.id, packet.digest);
}

/** Forget the manifest read (tests read several). */
export function forgetBuildManifest(): void {
  manifest = undefined;
}
