import { createHash } from 'node:crypto';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { packetDigest } from './digest.ts';
import { hasCode, type CodePacket, type Packet } from './packet.ts';
import { parsePacket } from './parse.ts';
import { PART_FILES } from './schema/index.ts';
import type { PacketEntry, PacketSource } from './source.ts';
import { drawVariants, hasPlaceholder, placeholderValues, renderTemplate, variantCount, variantId, type VariantValues } from './variants.ts';

/**
 * A whole variant of a packet: every text file of the packet folder (the parts, starter/,
 * sample/, hidden/, mutants/, replies/) with its placeholders written, binary files as they are,
 * parsed again into a packet of its own with its own digest. The values are in the files, so a
 * copied answer carries one variant's values; nothing reads them at run time.
 */

/** Reads a packet file by its path relative to the packet folder; undefined when it cannot be read. */
export type PacketBytesReader = (relPath: string) => Promise<Uint8Array | undefined>;

/** One variant of a packet, rendered. */
export interface PacketVariant {
  /** 1..count. */
  number: number;
  /** `v<number>`. */
  id: string;
  /** The drawn values of the packet's parameters, by name (without the built-in `id`). */
  values: VariantValues;
  /** The digest of the rendered files (packetDigest): the version a submission of this variant names. */
  digest: string;
  /** The rendered packet: parsed from the rendered files, its `digest` the one above, its `dir` the packet's own. */
  packet: CodePacket;
  /** The rendered bytes of every file, by path relative to the packet folder. */
  files: ReadonlyMap<string, Uint8Array>;
  /** Reads a rendered file. */
  read: PacketBytesReader;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A file's text when it is UTF-8 without NUL (a text file); undefined for a binary one. */
export function textOfBytes(bytes: Uint8Array): string | undefined {
  try {
    const text = strictUtf8.decode(bytes);
    return text.includes('\u0000') ? undefined : text;
  } catch {
    return undefined;
  }
}

/**
 * Every file of a packet with the values written in: a text file holding a placeholder is
 * rendered, every other file keeps its own bytes (so a packet, or a file, without placeholders
 * is byte for byte what it was).
 */
export async function renderPacketFiles(packet: Pick<Packet, 'entries' | 'dir'>, read: PacketBytesReader, values: VariantValues): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  const enc = new TextEncoder();
  for (const e of packet.entries) {
    if (e.kind !== 'file') continue;
    const bytes = await read(e.path);
    if (!bytes) throw new Error(`cannot read ${packet.dir}/${e.path}`);
    const text = textOfBytes(bytes);
    out.set(e.path, text !== undefined && hasPlaceholder(text) ? enc.encode(renderTemplate(text, values)) : bytes);
  }
  return out;
}

/** The source a parse of rendered files reads: the packet's own entries, their sizes and hashes of the rendered bytes. */
export function renderedSource(packet: Packet, files: ReadonlyMap<string, Uint8Array>): PacketSource {
  const entries: PacketEntry[] = packet.entries.map((e) => {
    const bytes = files.get(e.path);
    return bytes ? { ...e, size: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') } : { ...e };
  });
  const text = (p: string) => {
    const b = files.get(p);
    return b ? textOfBytes(b) : undefined;
  };
  const parts = {} as PacketSource['parts'];
  for (const name of PART_FILES) parts[name] = text(`${name}.mdx`);
  let starterText: Record<string, string> | undefined;
  if (parts.assistant !== undefined) {
    starterText = {};
    for (const [p, b] of files) {
      if (!p.startsWith('starter/') || b.byteLength > 256 * 1024) continue;
      const t = textOfBytes(b);
      if (t !== undefined) starterText[p.slice('starter/'.length)] = t;
    }
  }
  const folder = packet.dir.split('/').at(-1) ?? packet.id;
  return { id: packet.id, folder, dir: packet.dir, parts, entries, problems: [], ...(starterText ? { starterText } : {}) };
}

/** What rendering one variant gave: the variant, or the diagnostics of its rendered files when they do not parse. */
export interface VariantResult {
  variant?: PacketVariant;
  /** Problems of the rendered files (errors mean no variant). */
  diagnostics: Diagnostic[];
  /** The variant's number, id and values, known even when its files do not parse. */
  number: number;
  id: string;
  values: VariantValues;
}

/** Render variant k of a packet, given the values drawn for it. */
export async function renderVariant(packet: CodePacket, read: PacketBytesReader, k: number, values: VariantValues): Promise<VariantResult> {
  const files = await renderPacketFiles(packet, read, placeholderValues(k, values));
  const parsed = parsePacket(renderedSource(packet, files));
  const id = variantId(k);
  const errors = parsed.diagnostics.filter((d) => d.severity === 'error');
  if (!parsed.packet || !hasCode(parsed.packet) || errors.length) return { diagnostics: parsed.diagnostics, number: k, id, values };
  const digest = packetDigest(parsed.packet.entries);
  const variant: PacketVariant = {
    number: k,
    id,
    values,
    digest,
    packet: parsed.packet,
    files,
    read: async (p) => files.get(p),
  };
  return { variant, diagnostics: parsed.diagnostics, number: k, id, values };
}

/** The values of every variant of a packet with parameters (none for a packet without), `count` overriding the field's. */
export function packetVariantValues(packet: CodePacket, count?: number): VariantValues[] {
  const spec = packet.prompt.data.variants;
  if (!spec) return [];
  return drawVariants(packet.prompt.data.seed, spec, variantCount(spec, count));
}

/**
 * Every variant of a packet with parameters, rendered (`count` overriding the field's); none for
 * a packet without. The rehearsal and the grader take a variant from here: its `packet` and
 * `read` stand in for the packet and its folder's reader.
 */
export async function packetVariants(packet: CodePacket, read: PacketBytesReader, count?: number): Promise<VariantResult[]> {
  const all = packetVariantValues(packet, count);
  const once = memoReader(read);
  const out: VariantResult[] = [];
  for (let i = 0; i < all.length; i++) out.push(await renderVariant(packet, once, i + 1, all[i]!));
  return out;
}

/** A reader that reads each file once, for rendering many variants of one packet. */
export function memoReader(read: PacketBytesReader): PacketBytesReader {
  const seen = new Map<string, Promise<Uint8Array | undefined>>();
  return (p) => {
    let got = seen.get(p);
    if (!got) seen.set(p, (got = read(p)));
    return got;
  };
}
