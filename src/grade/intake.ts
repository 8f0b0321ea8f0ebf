/**
 * Safe intake of what a candidate sends back: a zip (yauzl), a tar.gz (node-tar's parser) or a
 * folder. Nothing is extracted to disk: entries are read into memory under caps on their count,
 * their total and single size and their compression ratio, counted while streaming so a bomb
 * stops early. Paths that climb out or are absolute, names with a control, bidi or zero-width
 * character (a zip name without the UTF-8 flag judged by its CP437 bytes), paths not in their one normal spelling
 * (`src//x.py`, `src/./x.py`, decomposed Unicode), links, devices, duplicate names (also
 * case-folded and normalised) and encrypted entries refuse the whole submission with a coded
 * finding. One folder at the root (`<id>-<version>/`) is stripped; caches and the kit's own
 * files are set aside.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { Parser, type ReadEntry } from 'tar';
import yauzl from 'yauzl';
import { GradeErrors } from '../errors/grade-catalog.ts';
import { nameHazardReason, shownName } from '../errors/safe-name.ts';
import { finding, type Finding } from '../judge/findings.ts';
import { walkFolder } from '../judge/safe-read.ts';

/** Caps on one submission. */
export interface IntakeLimits {
  /** Entries (files and folders) read before the submission is refused. */
  maxEntries: number;
  /** Bytes of all files together, uncompressed. */
  maxTotalBytes: number;
  /** Bytes of one file, uncompressed. */
  maxEntryBytes: number;
  /** Uncompressed over compressed size, past which an entry (or a tar.gz) is a bomb. */
  maxRatio: number;
}

/** Defaults: 2,000 entries, 32 MiB in all, 4 MiB a file, a ratio of 200. */
export const DEFAULT_INTAKE_LIMITS: IntakeLimits = { maxEntries: 2000, maxTotalBytes: 32 * 1024 * 1024, maxEntryBytes: 4 * 1024 * 1024, maxRatio: 200 };

/** What a submission is. */
export type SubmissionKind = 'zip' | 'tar.gz' | 'folder';

/** A submission read into memory. */
export interface Intake {
  ok: true;
  kind: SubmissionKind;
  /** sha256 of the archive's bytes; of the sorted paths and contents for a folder. */
  sha256: string;
  /** The candidate's files by path, the root folder stripped. */
  files: Map<string, Buffer>;
  /** The root folder that was stripped, if any. */
  stripped: string | null;
  /** The kit's own files at the root (README.md, PROMPT.md, RUBRIC.md), kept apart. */
  kitFiles: Map<string, Buffer>;
  /** Paths set aside: caches and version-control folders (`__pycache__`, `.git`, ...). */
  dropped: string[];
}

/** A submission that was refused. */
export interface Refused {
  ok: false;
  kind: SubmissionKind | 'unknown';
  sha256: string | null;
  refusal: Finding;
}

const KIT_FILES = new Set(['README.md', 'PROMPT.md', 'RUBRIC.md']);
const DROPPED = /(^|\/)(__pycache__|\.pytest_cache|\.mypy_cache|\.ruff_cache|\.git|\.hg|\.svn|\.venv|node_modules)(\/|$)|(^|\/)\.DS_Store$|\.py[co]$/;

class Refusal extends Error {
  readonly finding: Finding;
  constructor(f: Finding) {
    super(f.message);
    this.finding = f;
  }
}

const refuse = (f: Finding): never => {
  throw new Refusal(f);
};

/** Why a path from an archive is unsafe, or null. */
export function unsafePathReason(p: string): string | null {
  if (p === '') return 'is empty';
  const hazard = nameHazardReason(p);
  if (hazard) return hazard;
  if (p.includes('\\')) return 'holds a backslash';
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) return 'is an absolute path';
  if (p.split('/').includes('..')) return 'climbs out with ".."';
  return null;
}

/**
 * The one spelling of a path: no empty segments (`src//x.py`), no `.` segments (`src/./x.py`),
 * Unicode in normal form C (`cafe\u0301.py` is `café.py`). A file system, `path.join` or a
 * glob reads the other spellings as this one, so a name that is not already in this form is
 * refused rather than silently read as another file.
 */
export function normalPath(p: string): string {
  return p
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/')
    .normalize('NFC');
}

/** Why `p` is not its own normal form, or null when it is. */
export function notNormalReason(p: string): string | null {
  const segments = p.split('/');
  if (segments.includes('')) return 'holds an empty segment ("//" or a "/" at an end)';
  if (segments.includes('.')) return 'holds a "." segment';
  if (p.normalize('NFC') !== p) {
    const marks = [...new Set([...p].filter((ch) => /\p{M}/u.test(ch)).map((ch) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`))];
    return `is not in Unicode normal form C: it spells a letter as a base and a combining mark${marks.length ? ` (${marks.join(', ')})` : ''}, so it looks like "${p.normalize('NFC')}" and is another name`;
  }
  return null;
}

/** The key two names share when one file system or glob could take one for the other. */
const sameFileKey = (p: string) => normalPath(p).toLowerCase();

/** Collects entries under the caps, refusing on the first problem. */
function collector(limits: IntakeLimits) {
  const entries = new Map<string, Buffer>();
  const folded = new Map<string, string>();
  let count = 0;
  let total = 0;
  const duplicate = (p: string, other: string) =>
    finding('intake', GradeErrors.ArchiveDuplicateName, { path: shownName(p), other: shownName(other), same: p === other ? 'spelled the same' : normalPath(p) === normalPath(other) ? 'once "//", "." segments and Unicode composition are read as a file system reads them' : 'once case is ignored' });
  return {
    entries,
    /**
     * Count one entry of any kind and check its name. Returns the path; '' for the archive's own
     * root (`./`). The archive's own conventions (a folder's trailing "/", the leading "./" of a
     * tar made from inside the folder) are taken off; any other spelling that is not the path's
     * normal form refuses the submission, as a duplicate when it names a file already read.
     */
    name(raw: string): string {
      if (++count > limits.maxEntries) refuse(finding('intake', GradeErrors.ArchiveTooManyEntries, { limit: limits.maxEntries }));
      const p = raw.replace(/\/$/, '').replace(/^\.(\/|$)/, '');
      if (p === '' && raw.startsWith('.')) return '';
      const why = unsafePathReason(p);
      if (why) refuse(finding('intake', GradeErrors.ArchiveUnsafePath, { path: shownName(raw), reason: why }));
      const notNormal = notNormalReason(p);
      if (notNormal) {
        const other = folded.get(sameFileKey(p));
        if (other !== undefined) refuse(duplicate(raw, other));
        refuse(finding('intake', GradeErrors.ArchivePathNotNormal, { path: shownName(raw), normal: shownName(normalPath(p)), reason: notNormal }));
      }
      return p;
    },
    /** Check a file's declared size before reading it. */
    declare(p: string, size: number, compressed?: number): void {
      if (size > limits.maxEntryBytes) refuse(finding('intake', GradeErrors.ArchiveTooLarge, { limit: limits.maxEntryBytes, what: `"${p}" (${size} bytes)` }));
      if (compressed !== undefined && size > 64 * 1024 && size / Math.max(1, compressed) > limits.maxRatio) {
        refuse(finding('intake', GradeErrors.ArchiveBomb, { path: p, ratio: Math.round(size / Math.max(1, compressed)), limit: limits.maxRatio }));
      }
    },
    /** Count bytes as they stream; refuses past the caps. */
    bytes(p: string, n: number, soFar: number): void {
      total += n;
      if (soFar > limits.maxEntryBytes) refuse(finding('intake', GradeErrors.ArchiveTooLarge, { limit: limits.maxEntryBytes, what: `"${p}"` }));
      if (total > limits.maxTotalBytes) refuse(finding('intake', GradeErrors.ArchiveTooLarge, { limit: limits.maxTotalBytes, what: 'The submission' }));
    },
    /** Claim a file's name as soon as the entry is known to be a file, before its bytes are read, so a later spelling of it is a duplicate whatever the order the bytes arrive in. */
    claim(p: string): void {
      const key = sameFileKey(p);
      const other = folded.get(key);
      if (other !== undefined) refuse(duplicate(p, other));
      folded.set(key, p);
    },
    add(p: string, data: Buffer): void {
      entries.set(p, data);
    },
  };
}

async function readStream(stream: Readable, p: string, c: ReturnType<typeof collector>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    c.bytes(p, chunk.length, size);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const UNIX_TYPE = 0o170000;
const modeKinds: Record<number, string> = { 0o120000: 'symlink', 0o020000: 'a character device', 0o060000: 'a block device', 0o010000: 'a FIFO', 0o140000: 'a socket' };

/** The zip flag that says an entry's name is UTF-8; without it the name is CP437. */
const UTF8_FLAG = 0x800;

/** CP437's glyphs for the control bytes 0x00-0x1F and 0x7F, as yauzl decodes them: byte 0x0A is "◙". */
const CP437_CONTROLS = '\u0000☺☻♥♦♣♠•◘○◙♂♀♪♫☼►◄↕‼¶§▬↨↑↓→←∟↔▲▼';
const CP437_DEL = '⌂';

/**
 * A CP437 name as unzip would write it: each glyph yauzl made of a control byte back to the
 * control character (shown escaped), the rest as decoded.
 */
export function cp437Shown(decoded: string): string {
  return shownName([...decoded].map((ch) => (ch === CP437_DEL ? '\u007f' : CP437_CONTROLS.includes(ch) ? String.fromCharCode(CP437_CONTROLS.indexOf(ch)) : ch)).join(''));
}

/**
 * Why a zip entry's name, read per the zip's flags, is not a name to take, or null: a name
 * without the UTF-8 flag is CP437, in which a control byte decodes to a glyph (`\n` is "◙") that
 * unzip writes back as the control character; a name with the flag must be valid UTF-8, not
 * bytes every reader decodes its own way.
 */
export function zipNameProblem(entry: Pick<yauzl.Entry, 'generalPurposeBitFlag' | 'fileNameRaw' | 'fileName'>): { path: string; reason: string } | null {
  const raw = entry.fileNameRaw;
  if ((entry.generalPurposeBitFlag & UTF8_FLAG) === 0) {
    const i = raw.findIndex((b) => b < 0x20 || b === 0x7f);
    if (i < 0) return null;
    const code = `U+${raw[i]!.toString(16).toUpperCase().padStart(4, '0')}`;
    const glyph = raw[i] === 0x7f ? CP437_DEL : raw[i] === 0 ? null : CP437_CONTROLS[raw[i]!]!;
    return { path: cp437Shown(entry.fileName), reason: `holds a control character (${code}) in a name without the zip's UTF-8 flag, which ${glyph ? `reads as the CP437 glyph "${glyph}" here` : 'no CP437 glyph shows'} and is the control character itself where unzip writes the file` };
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(raw);
    return null;
  } catch {
    return { path: [...raw].map((b) => (b < 0x80 ? shownName(String.fromCharCode(b)) : `\\x${b.toString(16).padStart(2, '0')}`)).join(''), reason: 'is not valid UTF-8, although the zip says its names are, so every tool reads it as another name' };
  }
}

async function readZip(file: string, limits: IntakeLimits): Promise<Map<string, Buffer>> {
  const c = collector(limits);
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.open(file, { lazyEntries: true, autoClose: true, validateEntrySizes: true }, (err, z) => (err ? reject(err) : resolve(z!))));
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (err: Error) => {
        const m = /^(absolute path|invalid relative path|invalid characters in fileName): (.*)$/s.exec(err.message);
        reject(m ? new Refusal(finding('intake', GradeErrors.ArchiveUnsafePath, { path: shownName(m[2]!), reason: m[1] === 'absolute path' ? 'is an absolute path' : m[1] === 'invalid relative path' ? 'climbs out with ".."' : 'holds a backslash' })) : err);
      });
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        void (async () => {
          const undecodable = zipNameProblem(entry);
          if (undecodable) refuse(finding('intake', GradeErrors.ArchiveUnsafePath, undecodable));
          const p = c.name(entry.fileName);
          if (entry.fileName.endsWith('/') || p === '') return zip.readEntry();
          if (entry.isEncrypted()) refuse(finding('intake', GradeErrors.ArchiveEncrypted, { path: p }));
          const type = (entry.externalFileAttributes >>> 16) & UNIX_TYPE;
          if (type === 0o120000) refuse(finding('intake', GradeErrors.ArchiveLink, { path: p, link: 'a symlink' }));
          if (type !== 0 && type !== 0o100000 && type !== 0o040000) refuse(finding('intake', GradeErrors.ArchiveSpecialFile, { path: p, kind: modeKinds[type] ?? 'not a regular file' }));
          if (type === 0o040000) return zip.readEntry();
          c.claim(p);
          c.declare(p, entry.uncompressedSize, entry.compressedSize);
          const stream = await new Promise<Readable>((res, rej) => zip.openReadStream(entry, (err, s) => (err ? rej(err) : res(s!))));
          c.add(p, await readStream(stream, p, c));
          zip.readEntry();
        })().catch(reject);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return c.entries;
}

async function readTarGz(file: string, limits: IntakeLimits): Promise<Map<string, Buffer>> {
  const c = collector(limits);
  const pending: Promise<void>[] = [];
  await new Promise<void>((resolve, reject) => {
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      source.destroy();
      reject(err);
    };
    const parser = new Parser({
      strict: true,
      maxDecompressionRatio: limits.maxRatio,
      onReadEntry: (entry: ReadEntry) => {
        try {
          const p = c.name(entry.path);
          const links: Record<string, string> = { SymbolicLink: 'a symlink', Link: 'a hard link' };
          if (links[entry.type]) refuse(finding('intake', GradeErrors.ArchiveLink, { path: p, link: links[entry.type]! }));
          if (entry.type === 'Directory' || p === '') return entry.resume();
          if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'ContiguousFile') {
            refuse(finding('intake', GradeErrors.ArchiveSpecialFile, { path: p, kind: { CharacterDevice: 'a character device', BlockDevice: 'a block device', FIFO: 'a FIFO' }[entry.type as string] ?? `a ${entry.type} entry` }));
          }
          c.claim(p);
          c.declare(p, entry.size);
          pending.push(readStream(entry as unknown as Readable, p, c).then((data) => c.add(p, data)).catch(fail));
        } catch (err) {
          entry.resume();
          fail(err);
        }
      },
    });
    parser.on('error', (err: Error) => {
      const m = /max decompression ratio exceeded: ([\d.]+)/.exec(err.message);
      fail(m ? new Refusal(finding('intake', GradeErrors.ArchiveBomb, { path: file.split('/').at(-1)!, ratio: Math.round(Number(m[1])), limit: limits.maxRatio })) : err);
    });
    parser.on('end', () => void Promise.all(pending).then(() => (failed ? undefined : resolve()), fail));
    const source = createReadStream(file);
    source.on('error', fail);
    source.pipe(parser as unknown as NodeJS.WritableStream);
  });
  return c.entries;
}

async function readFolder(dir: string, limits: IntakeLimits): Promise<Map<string, Buffer>> {
  const c = collector(limits);
  const { files, truncated } = await walkFolder(dir, { maxEntries: limits.maxEntries, maxBytes: limits.maxEntryBytes, timeoutMs: 5_000 });
  if (truncated) refuse(finding('intake', GradeErrors.ArchiveTooManyEntries, { limit: limits.maxEntries }));
  for (const [rel, entry] of files) {
    const p = c.name(rel);
    if (Buffer.isBuffer(entry)) {
      c.claim(p);
      c.bytes(p, entry.length, entry.length);
      c.add(p, entry);
      continue;
    }
    if (entry.unsafe === 'a symlink') refuse(finding('intake', GradeErrors.ArchiveLink, { path: p, link: 'a symlink' }));
    if (entry.unsafe.startsWith('larger than')) refuse(finding('intake', GradeErrors.ArchiveTooLarge, { limit: limits.maxEntryBytes, what: `"${p}"` }));
    refuse(finding('intake', GradeErrors.ArchiveSpecialFile, { path: p, kind: entry.unsafe }));
  }
  return c.entries;
}

async function kindOf(p: string): Promise<SubmissionKind | null> {
  const st = await lstat(p);
  if (st.isDirectory()) return 'folder';
  if (!st.isFile()) return null;
  const fh = await open(p, 'r');
  try {
    const head = Buffer.alloc(4);
    await fh.read(head, 0, 4, 0);
    if (head[0] === 0x50 && head[1] === 0x4b) return 'zip';
    if (head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz';
    return null;
  } finally {
    await fh.close();
  }
}

async function sha256File(p: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(p)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** The digest of a set of files: sorted paths and contents. */
export function filesDigest(files: ReadonlyMap<string, Uint8Array>): string {
  const h = createHash('sha256');
  for (const p of [...files.keys()].sort()) {
    const b = files.get(p)!;
    h.update(`${p}\0${b.byteLength}\0`).update(b);
  }
  return h.digest('hex');
}

/**
 * Strip one root folder when every entry sits in it and it is not a folder of the workspace
 * itself (`keep`: the starter's top-level names, so a submission of only `src/` keeps its
 * `src/`); set aside caches and the kit's files.
 */
export function arrange(entries: ReadonlyMap<string, Buffer>, keep: ReadonlySet<string> = new Set()): Pick<Intake, 'files' | 'stripped' | 'kitFiles' | 'dropped'> {
  const tops = new Set([...entries.keys()].map((p) => p.split('/')[0]!));
  const only = tops.size === 1 ? [...tops][0]! : null;
  const root = only !== null && !keep.has(only) && [...entries.keys()].every((p) => p.includes('/')) ? only : null;
  const files = new Map<string, Buffer>();
  const kitFiles = new Map<string, Buffer>();
  const dropped: string[] = [];
  for (const [p, data] of [...entries].sort(([a], [b]) => a.localeCompare(b))) {
    const rel = root ? p.slice(root.length + 1) : p;
    if (DROPPED.test(rel)) dropped.push(rel);
    else if (KIT_FILES.has(rel)) kitFiles.set(rel, data);
    else files.set(rel, data);
  }
  return { files, stripped: root, kitFiles, dropped };
}

/** Read one submission. Never throws for a bad submission: it comes back refused, with the finding. */
export async function readSubmission(p: string, limits: IntakeLimits = DEFAULT_INTAKE_LIMITS, keep: ReadonlySet<string> = new Set()): Promise<Intake | Refused> {
  let kind: SubmissionKind | null;
  try {
    kind = await kindOf(p);
  } catch (err) {
    return { ok: false, kind: 'unknown', sha256: null, refusal: finding('intake', GradeErrors.SubmissionUnreadable, { reason: (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is no such file or folder' : (err as Error).message }) };
  }
  if (!kind) return { ok: false, kind: 'unknown', sha256: null, refusal: finding('intake', GradeErrors.SubmissionUnreadable, { reason: 'it is neither a zip, a gzipped tar nor a folder' }) };
  const sha256 = kind === 'folder' ? null : await sha256File(p);
  try {
    const entries = kind === 'zip' ? await readZip(p, limits) : kind === 'tar.gz' ? await readTarGz(p, limits) : await readFolder(p, limits);
    const arranged = arrange(entries, keep);
    return { ok: true, kind, sha256: sha256 ?? filesDigest(entries), ...arranged };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, kind, sha256, refusal: err.finding };
    return { ok: false, kind, sha256, refusal: finding('intake', GradeErrors.SubmissionUnreadable, { reason: shownName((err as Error).message) }) };
  }
}
