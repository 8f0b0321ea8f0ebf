/**
 * The variants of a packet as grading needs them: each rendered once per batch (its digest, its
 * values) and, once a submission of it comes, its files for the judge (its starter, protected
 * tests included, and its hidden tests, with their values written in). The judge is the same one;
 * only the files it lays differ.
 */
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { loadPacketFiles, type PacketFiles } from '../judge/workspace.ts';
import type { CodePacket } from '../packets/packet.ts';
import { VARIANTS_MAX } from '../packets/schema/prompt-variants.ts';
import { drawVariants, variantCount, type VariantValues } from '../packets/variants.ts';
import { memoReader, renderVariant, type PacketBytesReader, type PacketVariant } from '../packets/variants-render.ts';
import type { KnownVariant, VariantLookup } from './variant-read.ts';

/** A packet's variants for one batch: rendered on demand, each once. */
export interface VariantBench extends VariantLookup {
  /** The values of variant k (1..100), drawn from the packet's seed. */
  values(k: number): VariantValues;
  /** The rendered variant k, or undefined when its files do not make a packet. */
  variant(k: number): Promise<PacketVariant | undefined>;
  /** The judge's files of variant k (read once per batch). */
  files(k: number): Promise<PacketFiles>;
}

/** A reader of a packet folder's files, by path relative to it. */
export function folderReader(packetDir: string): PacketBytesReader {
  return async (rel) => {
    try {
      return await readFile(path.join(packetDir, rel));
    } catch {
      return undefined;
    }
  };
}

/**
 * The judge's files of a rendered variant: its starter and hidden trees laid in a scratch folder
 * and read by the same loader as any packet's (then the folder is gone; `packetDir` stays the
 * packet's own).
 */
export async function variantPacketFiles(v: PacketVariant, packetDir: string, scratchDir: string): Promise<PacketFiles> {
  const dir = await mkdtemp(path.join(scratchDir, `variant-${v.id}-`));
  try {
    for (const [rel, bytes] of v.files) {
      if (!rel.startsWith('starter/') && !rel.startsWith('hidden/')) continue;
      await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await writeFile(path.join(dir, rel), bytes);
    }
    const files = await loadPacketFiles(v.packet, dir);
    return { ...files, packetDir };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Whether variant k (1..100) of a packet renders into a packet, each rendered at most once: for checking a roster before anything is graded. */
export function variantRenders(packet: CodePacket, packetDir: string): (k: number) => Promise<boolean> {
  const spec = packet.prompt.data.variants!;
  const read = memoReader(folderReader(packetDir));
  let drawn: VariantValues[] | undefined;
  return async (k) => {
    if (!Number.isInteger(k) || k < 1 || k > VARIANTS_MAX) return false;
    drawn ??= drawVariants(packet.prompt.data.seed, spec, VARIANTS_MAX);
    return (await renderVariant(packet, read, k, drawn[k - 1]!)).variant !== undefined;
  };
}

/** The bench of a packet with variants; `count` is how many were sent out (the flag, else the field's count). */
export function variantBench(packet: CodePacket, packetDir: string, scratchDir: string, count?: number): VariantBench {
  const spec = packet.prompt.data.variants!;
  const sentOut = Math.min(VARIANTS_MAX, variantCount(spec, count));
  let drawn: VariantValues[] | undefined;
  const values = (k: number) => (drawn ??= drawVariants(packet.prompt.data.seed, spec, VARIANTS_MAX))[k - 1]!;
  const read = memoReader(folderReader(packetDir));
  const rendered = new Map<number, Promise<PacketVariant | undefined>>();
  const loaded = new Map<number, Promise<PacketFiles>>();
  const variant = (k: number) => {
    let got = rendered.get(k);
    if (!got) rendered.set(k, (got = renderVariant(packet, read, k, values(k)).then((r) => r.variant)));
    return got;
  };
  return {
    count: sentOut,
    values,
    variant,
    async byNumber(k: number): Promise<KnownVariant | undefined> {
      if (!Number.isInteger(k) || k < 1 || k > VARIANTS_MAX) return undefined;
      const v = await variant(k);
      return v && { number: v.number, id: v.id, digest: v.digest };
    },
    files(k: number) {
      let got = loaded.get(k);
      if (!got) {
        loaded.set(
          k,
          (got = variant(k).then((v) => {
            if (!v) throw new Error(`variant v${k} of ${packet.id} does not render`);
            return variantPacketFiles(v, packetDir, scratchDir);
          })),
        );
      }
      return got;
    },
  };
}
