import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildManifest, manifestJson, type ManifestPacket } from '../../../src/bundle/manifest.ts';
import { versionDrift } from '../../../src/check/version-drift.ts';
import { memoryIo } from '../../../src/cli/io.ts';
import { runCli } from '../../../src/cli/run-cli.ts';
import type { Diagnostic } from '../../../src/errors/diagnostic.ts';
import { parseBuildManifest } from '../../../src/packets/build-status.ts';
import { loadPackets } from '../../../src/packets/load.ts';
import { tempPackets, type TempPackets } from '../../support/packet-fixtures.ts';
import { memPacket } from '../bundle/helpers.ts';

const entry = (over: Partial<ManifestPacket>): ManifestPacket => ({
  id: 'mem',
  version: '0.1.0',
  digest: 'd'.repeat(64),
  zip: 'mem-0.1.0.zip',
  size: 10,
  sha256: 'a'.repeat(64),
  rehearsal: 'fails-closed',
  ...over,
});

describe('the manifest', () => {
  it('is sorted by id, carries schemaVersion, and is what the site reads', () => {
    const entries = [
      entry({ id: 'zeta', zip: 'zeta-0.1.0.zip' }),
      entry({ id: 'Alpha', zip: 'Alpha-0.1.0.zip' }),
      entry({ id: 'alpha', zip: 'alpha-0.1.0.zip', rehearsal: 'not-rehearsed' }),
    ];
    const text = manifestJson(buildManifest(entries));
    const parsed = parseBuildManifest(text, 'packets.json');
    expect(parsed.schemaVersion).toBe(1);
    expect(parsed.packets.map((p) => p.id)).toEqual(['Alpha', 'alpha', 'zeta']);
    expect(Object.keys(JSON.parse(text).packets[0])).toEqual(['id', 'version', 'digest', 'zip', 'size', 'sha256', 'rehearsal']);
    expect(text.endsWith('}\n')).toBe(true);
  });
});

describe('version drift', () => {
  const { packet } = memPacket();

  it('warns when the content changed and the version did not (PK311), at the version line', () => {
    const [d, ...rest] = versionDrift([packet], { packets: [entry({ digest: 'e'.repeat(64) })] });
    expect(rest).toEqual([]);
    expect(d!.code).toBe('PK311');
    expect(d!.severity).toBe('warning');
    expect(d!.file).toBe('packets/mem/prompt.mdx');
    expect(packet.prompt.text.split('\n')[d!.line! - 1]).toMatch(/^version: 0\.1\.0/);
    expect(d!.message).toContain('still 0.1.0');
  });

  it('is quiet when the version was bumped, the content is unchanged, or the packet was never built', () => {
    expect(versionDrift([packet], { packets: [entry({ version: '0.0.9', digest: 'e'.repeat(64) })] })).toEqual([]);
    expect(versionDrift([packet], { packets: [entry({ digest: packet.digest })] })).toEqual([]);
    expect(versionDrift([packet], { packets: [entry({ id: 'other' })] })).toEqual([]);
  });
});

describe('packet check against the last build', () => {
  let t: TempPackets;
  beforeEach(async () => {
    t = await tempPackets();
    await t.add('drifty');
  });
  afterEach(() => t.dispose());

  async function check(...args: string[]): Promise<Diagnostic[]> {
    const io = memoryIo(t.root);
    await runCli(['check', '--format', 'json', '--no-lint', ...args], io);
    return (JSON.parse(io.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
  }

  async function writeManifest(dir: string, digest: string): Promise<void> {
    await mkdir(path.join(t.root, dir), { recursive: true });
    await writeFile(path.join(t.root, dir, 'packets.json'), manifestJson(buildManifest([entry({ id: 'drifty', digest, zip: 'drifty-0.1.0.zip' })])));
  }

  it('warns when a packet changed since the build in dist/ but kept its version', async () => {
    const { packets } = await loadPackets({ packetsDir: 'packets', cwd: t.root });
    await writeManifest('dist', packets[0]!.digest);
    expect(await check()).toEqual([]);
    await t.edit('drifty', 'hidden/tests/test_hidden_duration.py', '7384', '7384  # edited');
    expect((await check()).map((d) => `${d.code} ${d.severity} ${d.file}`)).toEqual(['PK311 warning packets/drifty/prompt.mdx']);
    await t.edit('drifty', 'prompt.mdx', 'version: 0.1.0', 'version: 0.1.1');
    expect(await check()).toEqual([]);
  });

  it('reads the manifest from --out-dir, and says so when it cannot be read (PK312)', async () => {
    await writeManifest('site', 'f'.repeat(64));
    expect((await check('--out-dir', 'site')).map((d) => d.code)).toEqual(['PK311']);
    expect(await check()).toEqual([]);
    await writeFile(path.join(t.root, 'site', 'packets.json'), '{"schemaVersion": 99}');
    expect((await check('--out-dir', 'site')).map((d) => `${d.code} ${d.file}`)).toEqual(['PK312 site/packets.json']);
  });
});
