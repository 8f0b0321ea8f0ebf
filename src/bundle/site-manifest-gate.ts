/**
 * How `packet build` hands the site its manifest after the Astro build has started. The build's
 * Astro child starts `astro build` while the CLI still checks the packets and writes the zips:
 * Astro sets up Vite, loads its config, the content config and every collection (none needs the
 * build manifest), while `packets.json` (the zips' sizes and sha256s) does not exist yet. The pages
 * wait at this gate, when they render, until the child opens it with the manifest's path
 * (src/site/build-status-of.ts).
 *
 * The child and the pages are two module graphs in one process (Vite's module runner evaluates
 * the site's modules), so the gate is a promise on globalThis under a registered
 * symbol, the one place where the two meet. Without a gate (a plain `astro build`, the e2e
 * fixture site, a build started late) the site reads PACKET_KIT_MANIFEST. A site that does not
 * ask here (another `--site-root`) is started late: with PACKET_KIT_MANIFEST already set.
 */

const GATE = Symbol.for('packet-kit.site-manifest-gate');

/** The open side of a gate, held by the Astro child. */
export interface ManifestGate {
  /** packets.json is written, at `manifestFile`: the pages may render. */
  open(manifestFile: string): void;
}

/** Install a closed gate in this process (the Astro child, before `build()`). */
export function installManifestGate(): ManifestGate {
  let open!: (manifestFile: string) => void;
  (globalThis as Record<symbol, unknown>)[GATE] = new Promise<string>((resolve) => (open = resolve));
  return { open };
}

/**
 * The build manifest the site is built with: the one `packet build` hands over once it is
 * written, or PACKET_KIT_MANIFEST when nothing installed a gate; undefined without either (a site
 * without downloads, nothing rehearsed).
 */
export async function siteManifest(env: Readonly<Record<string, string | undefined>> = process.env): Promise<string | undefined> {
  const gate = (globalThis as Record<symbol, unknown>)[GATE] as Promise<string> | undefined;
  return gate ? await gate : env.PACKET_KIT_MANIFEST || undefined;
}
