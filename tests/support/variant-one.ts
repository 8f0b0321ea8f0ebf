import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CodePacket } from '../../src/packets/packet.ts';
import { packetVariants } from '../../src/packets/variants-render.ts';

/**
 * A shipped packet as a test judges it: a packet with variants is its variant v1, rendered into
 * a folder of its own (its files hold placeholders, which no test run can import); a packet
 * without variants is itself, in its own folder. The caller removes `scratch` when it is set.
 */
export async function judgedForm(packet: CodePacket, dir: string): Promise<{ packet: CodePacket; dir: string; scratch?: string }> {
  if (!packet.prompt.data.variants) return { packet, dir };
  const [first] = await packetVariants(packet, (p) => readFile(path.join(dir, p)).catch(() => undefined), 1);
  if (!first?.variant) throw new Error(`${packet.id}: variant v1 does not render: ${first?.diagnostics.map((d) => d.message).join('; ')}`);
  const scratch = await mkdtemp(path.join(tmpdir(), `variant-one-${packet.id}-`));
  for (const [rel, bytes] of first.variant.files) {
    await mkdir(path.dirname(path.join(scratch, rel)), { recursive: true });
    await writeFile(path.join(scratch, rel), bytes);
  }
  return { packet: first.variant.packet, dir: scratch, scratch };
}
