import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lintPackets } from '../../../src/lint/engine.ts';
import { directoryLintCache } from '../../../src/lint/lint-cache.ts';
import { memoryPacket } from './helpers.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'packet-lint-cache-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the lint cache', () => {
  it('gives an unchanged packet its earlier diagnostics, and lints a changed one, another config or another kit again', async () => {
    const { packet, files } = memoryPacket((f) => ({ 'prompt.mdx': f['prompt.mdx']!.replace('```bash', '```') }));
    const cache = directoryLintCache(dir, 'kit-1');
    const first = await lintPackets([packet], { files, cache });
    expect(first.map((d) => d.code)).toContain('PK216');
    expect(await cache.get(packet, undefined)).toEqual(first);

    // A planted entry shows the second run reads the cache instead of linting.
    await cache.set(packet, undefined, []);
    expect(await lintPackets([packet], { files, cache })).toEqual([]);
    // Another digest, another config, another kit: linted again.
    const changed = memoryPacket((f) => ({ 'prompt.mdx': f['prompt.mdx']!.replace('```bash', '```text') }));
    expect(changed.packet.digest).not.toBe(packet.digest);
    expect(await directoryLintCache(dir, 'kit-1').get(changed.packet, undefined)).toBeUndefined();
    expect(await directoryLintCache(dir, 'kit-2').get(packet, undefined)).toBeUndefined();
    expect(await cache.get(packet, { rules: { 'code-fence-lang': 'off' } })).toBeUndefined();
  });
});
