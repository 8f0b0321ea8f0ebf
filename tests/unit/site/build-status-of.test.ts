import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildStatusOf, forgetBuildManifest } from '../../../src/site/build-status-of.ts';

let dir: string;
const before = process.env.PACKET_KIT_MANIFEST;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'packet-status-'));
  forgetBuildManifest();
});
afterEach(async () => {
  if (before === undefined) delete process.env.PACKET_KIT_MANIFEST;
  else process.env.PACKET_KIT_MANIFEST = before;
  forgetBuildManifest();
  await rm(dir, { recursive: true, force: true });
});

const sha = (c: string) => c.repeat(64);

describe('a packet\'s build status on the site', () => {
  it('comes from the build manifest, by id and digest', async () => {
    const manifest = {
      schemaVersion: 1,
      builtBy: 'a field the site does not read',
      search: { engine: 'pagefind', path: 'pagefind/' },
      packets: [
        { id: 'alpha', version: '1.0.0', digest: sha('1'), zip: 'alpha-1.0.0.zip', size: 1234, sha256: sha('a'), rehearsal: 'fails-closed' },
        // The same id with another digest: an older version, so that version is neither built nor rehearsed.
        { id: 'beta', version: '0.9.0', digest: sha('f'), zip: 'beta-0.9.0.zip', size: 99, sha256: sha('b'), rehearsal: 'fails-closed' },
      ],
    };
    process.env.PACKET_KIT_MANIFEST = path.join(dir, 'packets.json');
    await writeFile(process.env.PACKET_KIT_MANIFEST, JSON.stringify(manifest));
    expect(await buildStatusOf({ id: 'alpha', digest: sha('1') })).toEqual({
      download: { zip: 'alpha-1.0.0.zip', size: 1234, sha256: sha('a') },
      rehearsal: 'fails-closed',
      indexed: true,
    });
    expect(await buildStatusOf({ id: 'beta', digest: sha('2') })).toEqual({ rehearsal: 'not-rehearsed' });
  });

  it('is "not built, not rehearsed" without a manifest', async () => {
    delete process.env.PACKET_KIT_MANIFEST;
    expect(await buildStatusOf({ id: 'alpha', digest: sha('1') })).toEqual({ rehearsal: 'not-rehearsed' });
  });

  it('refuses a manifest it cannot read, naming the file', async () => {
    process.env.PACKET_KIT_MANIFEST = path.join(dir, 'missing.json');
    await expect(buildStatusOf({ id: 'alpha', digest: sha('1') })).rejects.toThrow(/missing\.json cannot be read \(ENOENT\)/);
    forgetBuildManifest();
    process.env.PACKET_KIT_MANIFEST = path.join(dir, 'bad.json');
    await writeFile(process.env.PACKET_KIT_MANIFEST, JSON.stringify({ schemaVersion: 1, packets: [{ id: 'alpha', digest: 'x', zip: '../evil.zip' }] }));
    await expect(buildStatusOf({ id: 'alpha', digest: sha('1') })).rejects.toThrow(/bad\.json is not a packet-kit manifest[\s\S]*packets\.0\.zip/);
  });
});
