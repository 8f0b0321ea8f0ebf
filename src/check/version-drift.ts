import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BundleErrors } from '../errors/bundle-catalog.ts';
import { diagnose } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { MANIFEST_FILE, parseBuildManifest, type BuildManifest } from '../packets/build-status.ts';
import type { CodePacket } from '../packets/packet.ts';
import { placeOf } from '../packets/place.ts';

/**
 * A warning for every packet whose content changed since the last build while its version did
 * not: the last manifest has the same id and version with another digest. A scored sheet names
 * a version, so one version must mean one content.
 */
export function versionDrift(packets: readonly CodePacket[], manifest: Pick<BuildManifest, 'packets'>): Diagnostic[] {
  const built = new Map(manifest.packets.map((p) => [p.id, p]));
  const out: Diagnostic[] = [];
  for (const packet of packets) {
    const last = built.get(packet.id);
    const version = packet.prompt.data.version;
    if (!last || last.version !== version || last.digest === packet.digest) continue;
    out.push(diagnose(BundleErrors.VersionNotBumped, placeOf(packet.prompt, ['version']), { version, built: last.digest, now: packet.digest }));
  }
  return out;
}

/**
 * Read the last built manifest, `<outDir>/packets.json`. No manifest (never built) is no
 * problem; one that cannot be parsed is a warning, and nothing is compared.
 */
export async function readLastManifest(outDir: string, displayFile: string): Promise<{ manifest?: BuildManifest; diagnostics: Diagnostic[] }> {
  const file = path.join(outDir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { diagnostics: [] };
    return { diagnostics: [diagnose(BundleErrors.ManifestUnreadable, { file: displayFile }, { reason: (err as Error).message })] };
  }
  try {
    return { manifest: parseBuildManifest(text, displayFile), diagnostics: [] };
  } catch (err) {
    return { diagnostics: [diagnose(BundleErrors.ManifestUnreadable, { file: displayFile }, { reason: (err as Error).message.split('\n')[0]! })] };
  }
}

/** The version-drift warnings of `packet check`: compare the packets against `<outDir>/packets.json`, if there is one. */
export async function checkVersionDrift(packets: readonly CodePacket[], outDir: string, displayFile: string): Promise<Diagnostic[]> {
  const { manifest, diagnostics } = await readLastManifest(outDir, displayFile);
  return manifest ? versionDrift(packets, manifest) : diagnostics;
}
