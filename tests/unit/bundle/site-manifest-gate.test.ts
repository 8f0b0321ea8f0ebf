import { afterEach, describe, expect, it } from 'vitest';
import { installManifestGate, siteManifest } from '../../../src/bundle/site-manifest-gate.ts';

const GATE = Symbol.for('packet-kit.site-manifest-gate');
afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[GATE];
});

describe('the manifest gate', () => {
  it('gives a plain astro build PACKET_KIT_MANIFEST, or no manifest', async () => {
    expect(await siteManifest({ PACKET_KIT_MANIFEST: '/x/packets.json' })).toBe('/x/packets.json');
    expect(await siteManifest({})).toBeUndefined();
  });

  it('holds the packets collection until the build hands over the manifest, whatever the environment says', async () => {
    const gate = installManifestGate();
    let got: string | undefined | null = null;
    const waiting = siteManifest({ PACKET_KIT_MANIFEST: '/stale/packets.json' }).then((m) => (got = m));
    await new Promise((r) => setTimeout(r, 20));
    expect(got).toBeNull();
    gate.open('/staging/packets.json');
    await waiting;
    expect(got).toBe('/staging/packets.json');
  });
});
