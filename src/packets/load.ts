import { stat } from 'node:fs/promises';
import path from 'node:path';
import { diagnose, Errors } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { PacketKitError } from '../errors/packet-kit-error.ts';
import { displayPath, listPacketDirs, readPacketSource } from './fs-source.ts';
import { packetId } from './id.ts';
import type { Packet } from './packet.ts';
import { parsePacket } from './parse.ts';
import type { PacketSource } from './source.ts';

/** Options of {@link loadPackets}. */
export interface LoadOptions {
  /** The folder holding one folder per packet. */
  packetsDir: string;
  /** The working directory, for display paths. */
  cwd: string;
  /** Restrict to these ids (all when empty). */
  ids?: readonly string[];
}

/** Everything a load found. */
export interface LoadResult {
  /** The packets of every kind whose parts are valid (they may still carry cross-file errors; see `diagnostics`); narrow them with `kind`. */
  packets: Packet[];
  /** The raw sources of every packet folder read. */
  sources: PacketSource[];
  /** Every problem found, in every packet. */
  diagnostics: Diagnostic[];
}

/** Read every packet folder and return the sources, with duplicate ids and unknown ids reported. */
export async function readSources(options: LoadOptions): Promise<{ sources: PacketSource[]; diagnostics: Diagnostic[] }> {
  const packetsDir = path.resolve(options.cwd, options.packetsDir);
  const st = await stat(packetsDir).catch(() => undefined);
  if (!st?.isDirectory()) {
    throw new PacketKitError(diagnose(Errors.PacketsDirMissing, { file: displayPath(packetsDir, options.cwd) }, { dir: options.packetsDir }));
  }
  const { dirs, problems } = await listPacketDirs(packetsDir, options.cwd);
  // A folder whose name is not UTF-8 has no id to name it by: said when every packet is read.
  const diagnostics: Diagnostic[] = options.ids?.length ? [] : [...problems];
  const all = await Promise.all(dirs.map((d) => readPacketSourceIsolated(d, options.cwd)));
  const byId = new Map<string, PacketSource>();
  for (const source of all) {
    const other = byId.get(source.id);
    if (other) {
      diagnostics.push(diagnose(Errors.DuplicateId, { file: source.dir }, { id: source.id, other: other.dir }));
      continue;
    }
    byId.set(source.id, source);
    if (source.folder !== source.id) diagnostics.push(diagnose(Errors.PacketIdNotCanonical, { file: source.dir }, { folder: source.folder, id: source.id }));
  }
  let sources = [...byId.values()];
  if (options.ids?.length) {
    for (const id of options.ids) {
      if (!byId.has(id)) {
        diagnostics.push(diagnose(Errors.UnknownPacket, { file: displayPath(packetsDir, options.cwd) }, { id, known: [...byId.keys()].join(', ') || '(none)' }));
      }
    }
    sources = sources.filter((s) => options.ids!.includes(s.id));
  }
  return { sources, diagnostics };
}

/** The reason of an exception, short, for PK131. */
function crashReason(err: unknown): string {
  const reason = err instanceof Error ? `${err.name}: ${err.message.split('\n')[0]}` : String(err);
  return reason.slice(0, 200);
}

/**
 * {@link readPacketSource}, with an exception (a failure of the filesystem nobody foresaw) turned
 * into a problem of that packet, read as empty, so one packet can never stop the others.
 */
async function readPacketSourceIsolated(packetDir: string, cwd: string): Promise<PacketSource> {
  try {
    return await readPacketSource(packetDir, cwd);
  } catch (err) {
    const folder = path.basename(packetDir);
    const dir = displayPath(packetDir, cwd);
    const problem = diagnose(Errors.PacketCheckCrashed, { file: dir }, { step: 'Reading', reason: crashReason(err) });
    return { id: packetId(folder), folder, dir, parts: { prompt: undefined, rubric: undefined, sample: undefined, failures: undefined }, entries: [], problems: [problem] };
  }
}

/**
 * {@link parsePacket}, with an exception (a bug of the kit on input nobody foresaw) turned into a
 * diagnostic of that packet, so one packet can never stop the others from being read.
 */
export function parsePacketIsolated(source: PacketSource): ReturnType<typeof parsePacket> {
  try {
    return parsePacket(source);
  } catch (err) {
    return { diagnostics: [...source.problems, diagnose(Errors.PacketCheckCrashed, { file: source.dir }, { step: 'Reading', reason: crashReason(err) })] };
  }
}

/** The filesystem loader of the CLI: read, parse and cross-check every packet. */
export async function loadPackets(options: LoadOptions): Promise<LoadResult> {
  const { sources, diagnostics } = await readSources(options);
  const packets: Packet[] = [];
  for (const source of sources) {
    const result = parsePacketIsolated(source);
    diagnostics.push(...result.diagnostics);
    if (result.packet) packets.push(result.packet);
  }
  return { packets, sources, diagnostics };
}
