import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildCandidateZip } from '../../../src/bundle/candidate-zip.ts';
import { directoryZipCache, kitFingerprint, type ZipKey } from '../../../src/bundle/zip-cache.ts';
import { memPacket } from './helpers.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'packet-zip-cache-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the zip cache', () => {
  it('gives back the bytes it kept, for the same packet and inputs', async () => {
    const { packet, read } = memPacket();
    const { zip } = await buildCandidateZip(packet, read);
    const cache = directoryZipCache(dir, 'kit-a');
    const key: ZipKey = { kind: 'candidate', packet };
    expect(await cache.get(key)).toBeUndefined();
    await cache.set(key, zip!);
    const hit = await cache.get(key);
    expect(hit).toMatchObject({ name: zip!.name, sha256: zip!.sha256 });
    expect(Buffer.from(hit!.bytes).equals(Buffer.from(zip!.bytes))).toBe(true);
  });

  it('misses for another kit, another kind, other inputs or another digest', async () => {
    const { packet, read } = memPacket();
    const { zip } = await buildCandidateZip(packet, read);
    await directoryZipCache(dir, 'kit-a').set({ kind: 'reviewer', packet, inputs: { rehearsal: 'a' } }, zip!);
    expect(await directoryZipCache(dir, 'kit-b').get({ kind: 'reviewer', packet, inputs: { rehearsal: 'a' } })).toBeUndefined();
    const cache = directoryZipCache(dir, 'kit-a');
    expect(await cache.get({ kind: 'reviewer', packet, inputs: { rehearsal: 'a' } })).toBeDefined();
    expect(await cache.get({ kind: 'candidate', packet })).toBeUndefined();
    expect(await cache.get({ kind: 'reviewer', packet, inputs: { rehearsal: 'b' } })).toBeUndefined();
    expect(await cache.get({ kind: 'reviewer', packet: { ...packet, digest: 'f'.repeat(64) }, inputs: { rehearsal: 'a' } })).toBeUndefined();
  });

  it('does not give back bytes that no longer have their recorded sha256', async () => {
    const { packet, read } = memPacket();
    const { zip } = await buildCandidateZip(packet, read);
    const cache = directoryZipCache(dir, 'kit-a');
    const key: ZipKey = { kind: 'candidate', packet };
    await cache.set(key, zip!);
    const stored = path.join(dir, 'candidate', (await readdir(path.join(dir, 'candidate'))).find((n) => n.endsWith('.zip'))!);
    const tampered = Buffer.from(zip!.bytes);
    const at = tampered.length - 30;
    tampered.writeUInt8(tampered.readUInt8(at) ^ 1, at);
    await writeFile(stored, tampered);
    expect(await cache.get(key)).toBeUndefined();
  });

  it('keeps one zip per kind and packet: a new version takes the old one\'s place', async () => {
    const { packet, read } = memPacket();
    const { zip } = await buildCandidateZip(packet, read);
    const cache = directoryZipCache(dir, 'kit-a');
    for (const rehearsal of ['a', 'b', 'c']) await cache.set({ kind: 'reviewer', packet, inputs: { rehearsal } }, zip!);
    expect((await readdir(path.join(dir, 'reviewer'))).sort()).toEqual(['mem.json', 'mem.zip']);
    expect(await cache.get({ kind: 'reviewer', packet, inputs: { rehearsal: 'c' } })).toBeDefined();
    expect(await cache.get({ kind: 'reviewer', packet, inputs: { rehearsal: 'a' } })).toBeUndefined();
  });

  it('fingerprints the kit by its source and lock files', async () => {
    await mkdir(path.join(dir, 'src/bundle'), { recursive: true });
    await writeFile(path.join(dir, 'src/bundle/a.ts'), 'export const a = 1;\n');
    await writeFile(path.join(dir, 'package-lock.json'), '{}\n');
    const first = kitFingerprint(dir);
    expect(kitFingerprint(dir)).toBe(first);
    await writeFile(path.join(dir, 'src/bundle/a.ts'), 'export const a = 2;\n');
    const second = kitFingerprint(dir);
    expect(second).not.toBe(first);
    await writeFile(path.join(dir, 'package-lock.json'), '{"lockfileVersion": 3}\n');
    expect(kitFingerprint(dir)).not.toBe(second);
  });
});
