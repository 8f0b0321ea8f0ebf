import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadPackets } from '../../../src/packets/load.ts';
import { codePackets } from '../../../src/packets/packet.ts';
import { packetVariants, type PacketVariant } from '../../../src/packets/variants-render.ts';
import { sameTestVariants } from '../../../src/rehearse/rehearse-variants.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Every variant of a packet (count overriding its field), rendered from its folder as the rehearsal renders them. */
async function variantsOf(packetsDir: string, id: string, count?: number): Promise<PacketVariant[]> {
  const loaded = await loadPackets({ packetsDir, cwd: ROOT, ids: [id] });
  const packet = codePackets(loaded.packets)[0]!;
  const read = async (rel: string) => new Uint8Array(await readFile(path.join(ROOT, packet.dir, rel)));
  return (await packetVariants(packet, read, count)).map((r) => r.variant!);
}

describe('variants whose tests are the same files (the pairs the leak runs do not reach)', () => {
  it('are a PK159 defect on the later variant, naming the first, found without a run', async () => {
    // variant-planted's `limit` reaches only the prompt: six variants draw `func` from three names, so some share tests.
    const variants = await variantsOf('tests/fixtures/variants/packets', 'variant-planted', 6);
    const checks = sameTestVariants(variants);
    const func = (id: string) => variants.find((v) => v.id === id)!.values.func;
    expect(checks.length).toBeGreaterThan(0);
    for (const c of checks) {
      const [, a, b] = /^leak:(v\d+)=(v\d+)$/.exec(c.id)!;
      expect(func(a!)).toBe(func(b!));
      expect(c).toMatchObject({ kind: 'leak', ok: false, code: 'PK159', variant: { id: b } });
      expect(c.defect).toContain(`Any answer of variant ${a}`);
    }
    // Each variant after the first of its name is named once; the first of each name never.
    const named = checks.map((c) => c.variant!.id).sort();
    const firsts = new Set(['parse_duration', 'to_seconds', 'duration_seconds'].map((f) => variants.find((v) => v.values.func === f)?.id));
    expect(named).toEqual(variants.filter((v) => !firsts.has(v.id)).map((v) => v.id).sort());
  });

  it('find nothing where every variant has its own tests: twenty variants of a packet whose tests read both parameters, and the shipped packets', async () => {
    expect(sameTestVariants(await variantsOf('tests/fixtures/variants/packets', 'variant-twenty', 20))).toEqual([]);
    for (const id of ['fetch-retry-ticket', 'dead-target-abort', 'lab-paginate-results']) expect(sameTestVariants(await variantsOf('packets', id)), id).toEqual([]);
  });
});
