import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { diagnose, Errors } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { packetId } from './id.ts';
import { PART_FILES } from './schema/index.ts';
import { isIgnoredName, type PacketEntry, type PacketSource } from './source.ts';

/** Show a path relative to the working directory, with forward slashes. */
export function displayPath(abs: string, cwd: string): string {
  const rel = path.relative(cwd, abs);
  return (rel && !rel.startsWith('..') ? rel : abs).split(path.sep).join('/');
}

async function walk(root: string, rel: string, out: PacketEntry[]): Promise<void> {
  const names = (await readdir(path.join(root, rel))).sort();
  for (const name of names) {
    if (isIgnoredName(name)) continue;
    const childRel = rel ? `${rel}/${name}` : name;
    const abs = path.join(root, childRel);
    const st = await lstat(abs);
    if (st.isSymbolicLink()) out.push({ path: childRel, kind: 'symlink', size: 0, sha256: '' });
    else if (st.isDirectory()) await walk(root, childRel, out);
    else if (st.isFile()) {
      const bytes = await readFile(abs);
      out.push({ path: childRel, kind: 'file', size: st.size, sha256: createHash('sha256').update(bytes).digest('hex') });
    } else out.push({ path: childRel, kind: 'other', size: 0, sha256: '' });
  }
}

/** Read one packet folder from the filesystem. Nothing in it is evaluated. */
export async function readPacketSource(packetDir: string, cwd: string): Promise<PacketSource> {
  const folder = path.basename(packetDir);
  const dir = displayPath(packetDir, cwd);
  const entries: PacketEntry[] = [];
  const problems: Diagnostic[] = [];
  await walk(packetDir, '', entries);
  const parts = {} as PacketSource['parts'];
  for (const part of PART_FILES) {
    const entry = entries.find((e) => e.path === `${part}.mdx`);
    if (!entry || entry.kind !== 'file') {
      parts[part] = undefined;
      continue;
    }
    try {
      const bytes = await readFile(path.join(packetDir, entry.path));
      parts[part] = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch (err) {
      parts[part] = undefined;
      problems.push(diagnose(Errors.UnreadableFile, { file: `${dir}/${entry.path}` }, { reason: (err as Error).message }));
    }
  }
  const starterText = parts.assistant === undefined ? undefined : await readStarterText(packetDir, entries);
  return { id: packetId(folder), folder, dir, parts, entries, problems, ...(starterText ? { starterText } : {}) };
}

/** Starter files up to this size are read as text for a lab's suggestions. */
const STARTER_TEXT_LIMIT = 256 * 1024;

/** The starter's UTF-8 text files (small ones), by path relative to `starter/`. */
async function readStarterText(packetDir: string, entries: readonly PacketEntry[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of entries) {
    if (e.kind !== 'file' || !e.path.startsWith('starter/') || e.size > STARTER_TEXT_LIMIT) continue;
    try {
      out[e.path.slice('starter/'.length)] = new TextDecoder('utf-8', { fatal: true }).decode(await readFile(path.join(packetDir, e.path)));
    } catch {
      // Binary or unreadable: not a file a suggestion can change.
    }
  }
  return out;
}

/** The packet folders directly under a packets folder, sorted. */
export async function listPacketDirs(packetsDir: string): Promise<string[]> {
  const names = await readdir(packetsDir, { withFileTypes: true });
  return names
    .filter((d) => d.isDirectory() && !d.name.startsWith('.') && !d.name.startsWith('_'))
    .map((d) => path.join(packetsDir, d.name))
    .sort();
}

/** Read a starter file's bytes from a packet folder on disk (for the public view). */
export function starterReader(packetDir: string): (rel: string) => Uint8Array | undefined {
  return (rel) => {
    try {
      return readFileSync(path.join(packetDir, 'starter', rel));
    } catch {
      return undefined;
    }
  };
}
