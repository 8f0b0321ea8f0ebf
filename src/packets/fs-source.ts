import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { diagnose, Errors } from '../errors/catalog.ts';
import { shownPath, type Diagnostic } from '../errors/diagnostic.ts';
import { readBytesCappedSync, readFileCapped } from './capped-read.ts';
import { FILE_LIMIT_MAX_MB, MAX_PATH_BYTES, MAX_TREE_DEPTH, MIB, PART_MAX_BYTES, sizeText } from './file-limits.ts';
import { packetId } from './id.ts';
import { PART_FILES } from './schema/index.ts';
import { isIgnoredName, type PacketEntry, type PacketSource } from './source.ts';

/** Show a path relative to the working directory, with forward slashes. */
export function displayPath(abs: string, cwd: string): string {
  const rel = path.relative(cwd, abs);
  return (rel && !rel.startsWith('..') ? rel : abs).split(path.sep).join('/');
}

// ignoreBOM keeps a leading U+FEFF in the name: stripping it would name another file (and hide a zero-width character the name check refuses).
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A name's text when it is valid UTF-8; undefined otherwise. */
function decodeName(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** How many bytes the valid UTF-8 sequence at `i` takes, or 0 when the byte there starts none. */
function sequenceAt(bytes: Uint8Array, i: number): number {
  for (let n = 1; n <= 4 && i + n <= bytes.length; n++) if (decodeName(bytes.subarray(i, i + n)) !== undefined) return n;
  return 0;
}

/** A name as diagnostics show it: each byte that is not UTF-8 as `\xNN`, control characters as escapes. */
export function escapedName(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const n = sequenceAt(bytes, i);
    if (n) out += strictUtf8.decode(bytes.subarray(i, i + n));
    else out += `\\x${bytes[i]!.toString(16).toUpperCase().padStart(2, '0')}`;
    i += n || 1;
  }
  return shownPath(out);
}

/** A filesystem error as a reason: its code and what it means, without the absolute path. */
function fsReason(err: unknown, what: string): string {
  const code = (err as NodeJS.ErrnoException).code;
  const known: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    ENAMETOOLONG: 'its path is too long for the filesystem',
    ELOOP: 'it is a symbolic link, or a loop of them',
    ENOENT: 'it vanished while the packet was read',
    EIO: 'an input/output error of the disk',
  };
  return `${what} (${code ? `${code}: ${known[code] ?? (err as Error).message.split(',')[0]}` : String(err)})`;
}

/** Everything one packet folder's walk found: its entries, the problems, and the bytes kept of small files. */
interface Walk {
  root: string;
  dir: string;
  entries: PacketEntry[];
  problems: Diagnostic[];
  /** The bytes of the files read whole (part files, small starter files), by path. */
  bytes: Map<string, Uint8Array>;
}

const PART_NAMES = new Set(PART_FILES.map((p) => `${p}.mdx`));

async function walk(w: Walk, rel: string, depth: number): Promise<void> {
  const shown = (p: string) => `${w.dir}/${p}`;
  let names: Buffer[];
  try {
    names = await readdir(path.join(w.root, rel), { encoding: 'buffer' });
  } catch (err) {
    w.problems.push(diagnose(Errors.UnreadableFile, { file: rel ? shown(rel) : w.dir }, { reason: fsReason(err, 'the folder cannot be listed') }));
    return;
  }
  const decoded: string[] = [];
  for (const raw of names) {
    const name = decodeName(raw);
    if (name === undefined) {
      const escaped = `${rel ? `${shownPath(rel)}/` : ''}${escapedName(raw)}`;
      w.problems.push(diagnose(Errors.FileNameNotUtf8, { file: shown(escaped) }, { path: escaped }));
    } else if (!isIgnoredName(name)) decoded.push(name);
  }
  let tooLong = false;
  for (const name of decoded.sort()) {
    const childRel = rel ? `${rel}/${name}` : name;
    if (Buffer.byteLength(childRel) > MAX_PATH_BYTES) {
      // Said once for the folder; its other entries are read as usual.
      if (!tooLong) w.problems.push(diagnose(Errors.TreeTooDeep, { file: shown(rel || name) }, { path: shownPath(rel || name), reason: `holds a path longer than ${MAX_PATH_BYTES} bytes` }));
      tooLong = true;
      continue;
    }
    const abs = path.join(w.root, childRel);
    try {
      const st = await lstat(abs);
      if (st.isSymbolicLink()) w.entries.push({ path: childRel, kind: 'symlink', size: 0, sha256: '' });
      else if (st.isDirectory()) {
        if (depth + 1 > MAX_TREE_DEPTH) {
          w.problems.push(diagnose(Errors.TreeTooDeep, { file: shown(childRel) }, { path: shownPath(childRel), reason: `is more than ${MAX_TREE_DEPTH} folders deep` }));
          continue;
        }
        await walk(w, childRel, depth + 1);
      } else if (st.isFile()) await readEntry(w, childRel, abs, st.size);
      else w.entries.push({ path: childRel, kind: 'other', size: 0, sha256: '' });
    } catch (err) {
      w.problems.push(diagnose(Errors.UnreadableFile, { file: shown(childRel) }, { reason: fsReason(err, 'it cannot be read') }));
    }
  }
}

/** Hash one regular file (and keep its bytes when small and needed), never reading past its cap. */
async function readEntry(w: Walk, rel: string, abs: string, listed: number): Promise<void> {
  const part = PART_NAMES.has(rel);
  const max = part ? PART_MAX_BYTES : FILE_LIMIT_MAX_MB * MIB;
  const tooLarge = (size: number) =>
    diagnose(Errors.FileTooLargeToRead, { file: `${w.dir}/${rel}` }, { path: shownPath(rel), size: sizeText(size), max: sizeText(max) });
  if (listed > max) {
    w.problems.push(tooLarge(listed));
    return;
  }
  const r = await readFileCapped(abs, max, part ? PART_MAX_BYTES : rel.startsWith('starter/') ? STARTER_TEXT_LIMIT : 0);
  if (!r.ok) {
    if (r.why === 'too-large') w.problems.push(tooLarge(r.size));
    else w.entries.push({ path: rel, kind: 'other', size: 0, sha256: '' });
    return;
  }
  w.entries.push({ path: rel, kind: 'file', size: r.size, sha256: r.sha256 });
  if (r.bytes) w.bytes.set(rel, r.bytes);
}

/**
 * Read one packet folder from the filesystem. Nothing in it is evaluated. Never throws for what
 * the folder holds: a name that is not UTF-8, a tree too deep, a file too large or that cannot
 * be read is a problem of this packet, at that file.
 */
export async function readPacketSource(packetDir: string, cwd: string): Promise<PacketSource> {
  const folder = path.basename(packetDir);
  const dir = displayPath(packetDir, cwd);
  const w: Walk = { root: packetDir, dir, entries: [], problems: [], bytes: new Map() };
  await walk(w, '', 0);
  const { entries, problems } = w;
  const parts = {} as PacketSource['parts'];
  for (const part of PART_FILES) {
    const entry = entries.find((e) => e.path === `${part}.mdx`);
    const bytes = entry?.kind === 'file' ? w.bytes.get(entry.path) : undefined;
    parts[part] = undefined;
    if (!entry || !bytes) continue;
    try {
      parts[part] = strictUtf8.decode(bytes);
    } catch (err) {
      problems.push(diagnose(Errors.UnreadableFile, { file: `${dir}/${entry.path}` }, { reason: (err as Error).message }));
    }
  }
  const starterText = parts.assistant === undefined ? undefined : starterTextOf(w);
  return { id: packetId(folder), folder, dir, parts, entries, problems, ...(starterText ? { starterText } : {}) };
}

/** Starter files up to this size are read as text for a lab's suggestions. */
const STARTER_TEXT_LIMIT = 256 * 1024;

/** The starter's UTF-8 text files (small ones), by path relative to `starter/`. */
function starterTextOf(w: Walk): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of w.entries) {
    const bytes = e.kind === 'file' && e.path.startsWith('starter/') && e.size <= STARTER_TEXT_LIMIT ? w.bytes.get(e.path) : undefined;
    if (!bytes) continue;
    try {
      out[e.path.slice('starter/'.length)] = strictUtf8.decode(bytes);
    } catch {
      // Binary: not a file a suggestion can change.
    }
  }
  return out;
}

/**
 * The packet folders directly under a packets folder, sorted, and a problem for each folder whose
 * name is not UTF-8 (never read: it cannot be named exactly).
 */
export async function listPacketDirs(packetsDir: string, cwd: string): Promise<{ dirs: string[]; problems: Diagnostic[] }> {
  const problems: Diagnostic[] = [];
  const dirs: string[] = [];
  for (const d of await readdir(packetsDir, { withFileTypes: true, encoding: 'buffer' })) {
    if (!d.isDirectory()) continue;
    const name = decodeName(d.name);
    if (name === undefined) {
      const file = `${displayPath(packetsDir, cwd)}/${escapedName(d.name)}`;
      problems.push(diagnose(Errors.FileNameNotUtf8, { file }, { path: file }));
    } else if (!name.startsWith('.') && !name.startsWith('_')) dirs.push(path.join(packetsDir, name));
  }
  return { dirs: dirs.sort(), problems };
}

/** Read a starter file's bytes from a packet folder on disk (for the public view). */
export function starterReader(packetDir: string): (rel: string) => Uint8Array | undefined {
  return (rel) => readBytesCappedSync(path.join(packetDir, 'starter', rel), FILE_LIMIT_MAX_MB * MIB);
}
