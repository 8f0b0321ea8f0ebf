import { describe, expect, it } from 'vitest';
import { buildStatus, parseBuildManifest } from '../../../src/packets/build-status.ts';

const sha = 'a'.repeat(64);
const entry = { id: 'alpha', version: '1.0.0', digest: 'd1', zip: 'alpha-1.0.0.zip', size: 10, sha256: sha, rehearsal: 'defect' };

describe('the build status of a packet version', () => {
  it('comes from the manifest entry with the same id and digest', () => {
    const manifest = parseBuildManifest(JSON.stringify({ schemaVersion: 1, packets: [entry] }), 'packets.json');
    expect(buildStatus(manifest, 'alpha', 'd1')).toEqual({ download: { zip: 'alpha-1.0.0.zip', size: 10, sha256: sha }, rehearsal: 'defect' });
    expect(buildStatus(manifest, 'alpha', 'd2')).toEqual({ rehearsal: 'not-rehearsed' });
    expect(buildStatus(manifest, 'beta', 'd1')).toEqual({ rehearsal: 'not-rehearsed' });
    expect(buildStatus(undefined, 'alpha', 'd1')).toEqual({ rehearsal: 'not-rehearsed' });
  });

  it('refuses a manifest that is not one, saying where', () => {
    expect(() => parseBuildManifest('{', 'dist/packets.json')).toThrow(/dist\/packets\.json is not JSON/);
    expect(() => parseBuildManifest(JSON.stringify({ schemaVersion: 2, packets: [] }), 'm.json')).toThrowErrorMatchingInlineSnapshot(`
      [Error: the build manifest m.json is not a packet-kit manifest (schemaVersion 1):
        schemaVersion: Invalid input: expected 1]
    `);
    expect(() => parseBuildManifest(JSON.stringify({ schemaVersion: 1, packets: [{ ...entry, rehearsal: 'passed', sha256: 'x' }] }), 'm.json')).toThrow(
      /packets\.0\.sha256: must be 64 lowercase hex digits\n\s+packets\.0\.rehearsal/,
    );
  });
});
