import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import yauzl from 'yauzl';
import type { CodePacket } from '../packets/packet.ts';
import { publicRubricText, splitRubricBody } from '../packets/rubric-notes.ts';
import type { PacketFileReader } from './candidate-zip.ts';
import { textOf } from '../check/file-policy.ts';

/**
 * The canary scan, the second lock on the public site (the first is that the site only reads
 * public parts). Every distinctive line of a packet's secret material (sample/, hidden/,
 * mutants/, replies/, sample.mdx, failures.mdx, the reviewer-only sections of rubric.mdx) is a
 * canary; every file of the built site is searched for every canary, zips decompressed, HTML read
 * both as markup and as the text it shows (shiki splits a code line into spans), JSON and scripts
 * also with string escapes.
 *
 * A line is distinctive when, trimmed and with runs of whitespace made one space, it is at least
 * {@link MIN_CANARY_LENGTH} characters with at least {@link MIN_CANARY_LETTERS} letters, and it
 * does not occur in any packet's public material (prompt.mdx, rubric.mdx but its reviewer-only
 * sections, starter/): a line the candidate is meant to see is no evidence of a leak, and
 * `from x import y` shared by the starter and the sample must not fail the build.
 *
 * The search is Rabin-Karp over windows of MIN_CANARY_LENGTH characters, so its cost grows with
 * the size of the site, not with sites times canaries.
 */

/** Shortest line that counts as a canary. */
export const MIN_CANARY_LENGTH = 20;
/** Fewest letters in a canary (so `}, {"a": 1, "b": 2}` does not count). */
export const MIN_CANARY_LETTERS = 8;

/** Where a canary comes from. */
export interface CanarySource {
  /** The secret file, as shown in diagnostics (`packets/x/sample/src/a.py`). */
  file: string;
  /** 1-based line. */
  line: number;
}

/** Secrets that are not whole files (a lab's or a drill's key), and public texts that are not files (what its assistant shows). */
export interface ExtraCanaries {
  secret: readonly { text: string; source: CanarySource }[];
  public: readonly string[];
}

/** One canary: a normalized secret line and every place it comes from. */
export interface Canary {
  text: string;
  sources: CanarySource[];
}

/** A canary found in the site. */
export interface Leak {
  /** The site file, relative to the scanned folder; inside a zip: `zips/a.zip!a-1.0.0/README.md`. */
  where: string;
  /** The first source of the canary, `file:line`. */
  source: string;
}

/** Trim and collapse whitespace. */
export function normalizeLine(line: string): string {
  return line.replace(/\s+/g, ' ').trim();
}

/** True when a normalized line is long and wordy enough to be a canary. */
export function isDistinctive(line: string): boolean {
  if (line.length < MIN_CANARY_LENGTH) return false;
  let letters = 0;
  for (let i = 0; i < line.length && letters < MIN_CANARY_LETTERS; i++) {
    const c = line.charCodeAt(i) | 0x20;
    if (c >= 0x61 && c <= 0x7a) letters++;
  }
  return letters >= MIN_CANARY_LETTERS;
}

const W = MIN_CANARY_LENGTH;
const BASE = 0x01000193;

function windowHash(text: string, start: number): number {
  let h = 0;
  for (let i = start; i < start + W; i++) h = (Math.imul(h, BASE) + text.charCodeAt(i)) >>> 0;
  return h;
}

/** BASE^(W-1) mod 2^32, to take the outgoing character off a rolling hash. */
const OUT = (() => {
  let p = 1;
  for (let i = 0; i < W - 1; i++) p = Math.imul(p, BASE) >>> 0;
  return p;
})();

/** A set of needles (each at least W characters) searched in one pass per text. */
interface Matcher<T> {
  /** The values of every needle found in `text` (each once). */
  find(text: string): Set<T>;
}

/** Bits of the hash filter: 2^22 (512 KiB), so a window whose hash no needle has is turned away without a Map lookup. */
const FILTER_BITS = 22;

function createMatcher<T>(needles: readonly { text: string; value: T }[]): Matcher<T> {
  const byHash = new Map<number, { text: string; value: T }[]>();
  const filter = new Uint32Array(1 << (FILTER_BITS - 5));
  const slot = (h: number) => (h >>> 5) & ((1 << (FILTER_BITS - 5)) - 1);
  for (const n of needles) {
    if (n.text.length < W) continue;
    const h = windowHash(n.text, 0);
    filter[slot(h)]! |= 1 << (h & 31);
    const bucket = byHash.get(h);
    if (bucket) bucket.push(n);
    else byHash.set(h, [n]);
  }
  return {
    find(text) {
      const found = new Set<T>();
      if (text.length < W || byHash.size === 0) return found;
      let h = windowHash(text, 0);
      for (let i = 0; ; i++) {
        if (filter[slot(h)]! & (1 << (h & 31))) {
          const bucket = byHash.get(h);
          if (bucket) for (const n of bucket) if (!found.has(n.value) && text.startsWith(n.text, i)) found.add(n.value);
        }
        if (i + W >= text.length) break;
        h = (Math.imul((h - Math.imul(text.charCodeAt(i), OUT)) >>> 0, BASE) + text.charCodeAt(i + W)) >>> 0;
      }
      return found;
    },
  };
}

/** A text, normalized as canaries are. */
function haystack(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/** The secret files of a packet, by path relative to the packet folder. */
export function secretPaths(packet: CodePacket): string[] {
  return packet.entries
    .filter((e) => e.kind === 'file' && (/^(sample|hidden|mutants|replies)\//.test(e.path) || e.path === 'sample.mdx' || e.path === 'failures.mdx'))
    .map((e) => e.path);
}

/** The public files of a packet (what the site and the candidate zip are made of). */
export function publicPaths(packet: CodePacket): string[] {
  return packet.entries.filter((e) => e.kind === 'file' && (e.path.startsWith('starter/') || e.path === 'prompt.mdx' || e.path === 'rubric.mdx')).map((e) => e.path);
}

/**
 * The canaries of some packets: the distinctive lines of their secret files that occur in none
 * of their public files, nor in `extra.public`: what the site publishes besides the packets'
 * files (a lab's offered suggestions; the kit's own error reference with its lint examples, field
 * docs and JSON Schemas, which packets were written from and which no packet can leak). Sorted by text; a line shared by several secret
 * files keeps every source.
 */
export async function collectCanaries(packets: readonly { packet: CodePacket; read: PacketFileReader }[], extra: ExtraCanaries = { secret: [], public: [] }): Promise<Canary[]> {
  const byText = new Map<string, Canary>();
  const publicTexts: string[] = [];
  for (const { packet, read } of packets) {
    for (const rel of secretPaths(packet)) {
      const bytes = await read(rel);
      const text = bytes && textOf(bytes);
      if (text === undefined) continue;
      text.split(/\r?\n/).forEach((raw, i) => {
        const line = normalizeLine(raw);
        if (!isDistinctive(line)) return;
        const source = { file: `${packet.dir}/${rel}`, line: i + 1 };
        const known = byText.get(line);
        if (known) known.sources.push(source);
        else byText.set(line, { text: line, sources: [source] });
      });
    }
    // The rubric's reviewer-only sections are secret too; the rest of rubric.mdx is public.
    const notes = splitRubricBody(packet.rubric);
    for (const { text, line: at } of notes.reviewerLines) {
      const line = normalizeLine(text);
      if (!isDistinctive(line)) continue;
      const source = { file: `${packet.dir}/rubric.mdx`, line: at };
      const known = byText.get(line);
      if (known) known.sources.push(source);
      else byText.set(line, { text: line, sources: [source] });
    }
    for (const rel of publicPaths(packet)) {
      const bytes = await read(rel);
      const text = bytes && textOf(bytes);
      if (text !== undefined) publicTexts.push(haystack(rel === 'rubric.mdx' ? publicRubricText(text, notes) : text));
    }
  }
  // Secret texts that are not files: the key of each lab suggestion and drill diff.
  for (const { text, source } of extra.secret) {
    const line = normalizeLine(text);
    if (!isDistinctive(line)) continue;
    const known = byText.get(line);
    if (known) known.sources.push(source);
    else byText.set(line, { text: line, sources: [source] });
  }
  publicTexts.push(...extra.public.map(haystack));
  const matcher = createMatcher([...byText.values()].map((c) => ({ text: c.text, value: c.text })));
  for (const text of publicTexts) for (const line of matcher.find(text)) byText.delete(line);
  return [...byText.values()].sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The text an HTML page shows: tags removed (not replaced, so shiki's token spans join up) and entities decoded. */
export function htmlText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') {
        const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(n) && n <= 0x10ffff ? String.fromCodePoint(n) : m;
      }
      return NAMED_ENTITIES[e.toLowerCase()] ?? m;
    });
}

/** The forms a canary can take in a site file: as is, HTML-escaped, and inside a JSON or JS string. */
function variants(text: string): string[] {
  const html = text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
  const json = JSON.stringify(text).slice(1, -1);
  const jsSingle = text.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
  return [...new Set([text, html, json, jsSingle])];
}

/** Searches site files for canaries. */
export interface CanaryScanner {
  /** The canaries found in one file's bytes; `name` decides how it is read (`.html`, `.zip`, ...). */
  scanBytes(name: string, bytes: Uint8Array): Promise<{ where: string; canary: Canary }[]>;
}

/** A scanner for a set of canaries. */
export function canaryScanner(canaries: readonly Canary[]): CanaryScanner {
  const matcher = createMatcher(canaries.flatMap((c) => variants(c.text).map((text) => ({ text, value: c }))));
  const scanBytes = async (name: string, bytes: Uint8Array): Promise<{ where: string; canary: Canary }[]> => {
    if (/\.zip$/i.test(name)) {
      const out: { where: string; canary: Canary }[] = [];
      for (const entry of await readZipEntries(bytes)) {
        for (const hit of await scanBytes(entry.path, entry.bytes)) out.push({ where: `${name}!${hit.where}`, canary: hit.canary });
      }
      return out;
    }
    // Gzip files (the search index's fragments and metadata) are searched opened.
    if (bytes[0] === 0x1f && bytes[1] === 0x8b && !name.endsWith('!')) {
      const opened = gunzipped(bytes);
      if (opened) return scanBytes(`${name}!`, opened);
    }
    // Binary files are searched as Latin-1 text too: a canary's ASCII bytes are found either way.
    const text = textOf(bytes) ?? Buffer.from(bytes).toString('latin1');
    const found = matcher.find(haystack(text));
    if (/\.(html?|xml|svg|md|mdx)$/i.test(name)) for (const c of matcher.find(haystack(htmlText(text)))) found.add(c);
    return [...found].map((canary) => ({ where: name, canary }));
  };
  return { scanBytes };
}

/** The most a gzip file of the site may open to; a larger one is searched as it is. */
const GUNZIP_LIMIT = 64 * 1024 * 1024;

function gunzipped(bytes: Uint8Array): Uint8Array | undefined {
  try {
    return new Uint8Array(gunzipSync(bytes, { maxOutputLength: GUNZIP_LIMIT }));
  } catch {
    return undefined;
  }
}

/** A canary cache in a folder: one JSON file per set of canaries, the most recent few kept. */
export function directoryCanaryCache(dir: string, kit: string, keep = 8): CanaryCache {
  const file = (set: string) => path.join(dir, `${createHash('sha256').update(`${kit}\0${set}`).digest('hex')}.json`);
  return {
    async load(set) {
      try {
        return new Map(Object.entries(JSON.parse(readFileSync(file(set), 'utf8')) as Record<string, Leak[]>));
      } catch {
        return new Map();
      }
    },
    async save(set, found) {
      const { mkdir, readdir, rename, rm, stat, writeFile } = await import('node:fs/promises');
      try {
        await mkdir(dir, { recursive: true });
        const target = file(set);
        await writeFile(`${target}.${process.pid}.tmp`, JSON.stringify(Object.fromEntries(found)));
        await rename(`${target}.${process.pid}.tmp`, target);
        const entries = await Promise.all((await readdir(dir)).filter((n) => n.endsWith('.json')).map(async (n) => ({ n, t: (await stat(path.join(dir, n))).mtimeMs })));
        for (const { n } of entries.sort((a, b) => b.t - a.t).slice(keep)) await rm(path.join(dir, n), { force: true });
      } catch {
        // A cache that cannot be written only costs time.
      }
    },
  };
}

/** Every file entry of a zip, decompressed. */
export async function readZipEntries(bytes: Uint8Array): Promise<{ path: string; bytes: Uint8Array }[]> {
  const zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { lazyEntries: true, strictFileNames: false });
  const out: { path: string; bytes: Uint8Array }[] = [];
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith('/')) continue;
      const stream = await zip.openReadStreamPromise(entry);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      out.push({ path: entry.fileName, bytes: new Uint8Array(Buffer.concat(chunks)) });
    }
  } finally {
    zip.close();
  }
  return out;
}

/** Every file under a folder, relative paths with forward slashes, sorted. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** The result of scanning a folder. */
export interface CanaryReport {
  /** Canaries searched for. */
  canaries: number;
  /** Files read (zips count once). */
  files: number;
  /** Bytes read. */
  bytes: number;
  /** Every canary found, once per file and canary, sorted. */
  leaks: Leak[];
}

/** Files searched already, by path relative to the folder that will be scanned: their bytes and the leaks found in them. */
export type ScannedFiles = ReadonlyMap<string, { bytes: Uint8Array; leaks: Leak[] }>;

/** Search files given by their bytes (by path relative to the folder they are in), ahead of {@link scanDirForCanaries}. */
export async function scanFilesForCanaries(files: ReadonlyMap<string, Uint8Array>, canaries: readonly Canary[]): Promise<ScannedFiles> {
  const scanner = canaryScanner(canaries);
  const out = new Map<string, { bytes: Uint8Array; leaks: Leak[] }>();
  for (const [rel, bytes] of files) out.set(rel, { bytes, leaks: leaksOf(await scanner.scanBytes(rel, bytes)) });
  return out;
}

function leaksOf(hits: readonly { where: string; canary: Canary }[]): Leak[] {
  return hits.map((hit) => {
    const s = hit.canary.sources[0]!;
    return { where: hit.where, source: `${s.file}:${s.line}` };
  });
}

/**
 * Results of earlier scans: the leaks found in a file, by its path and the sha256 of its bytes,
 * for one set of canaries. The scan is a function of the bytes and the canaries alone, so a page
 * that did not change since the last build, searched for the same canaries, is not searched again.
 */
export interface CanaryCache {
  /** What was found before with these canaries, by `<path>\0<sha256>`. */
  load(canaries: string): Promise<ReadonlyMap<string, Leak[]>>;
  /** Keep what was found now (every file of the scan), for these canaries. */
  save(canaries: string, found: ReadonlyMap<string, Leak[]>): Promise<void>;
}

/** The key of a set of canaries: a hash of every canary's text and first source. */
export function canarySetKey(canaries: readonly Canary[]): string {
  const h = createHash('sha256');
  for (const c of canaries) h.update(`${c.text}\0${c.sources[0]?.file}:${c.sources[0]?.line}\n`);
  return h.digest('hex');
}

/**
 * Scan every file under `dir` (pages, scripts, zips, anything) for the canaries. A file in
 * `scanned` that still holds the bytes searched then is not searched again: its leaks count as
 * found now (the build searches its zips while Astro runs, and only what Astro added after). With
 * a cache, neither is a file whose bytes an earlier scan for the same canaries searched.
 */
export async function scanDirForCanaries(dir: string, canaries: readonly Canary[], scanned: ScannedFiles = new Map(), cache?: CanaryCache): Promise<CanaryReport> {
  const scanner = canaryScanner(canaries);
  const setKey = cache ? canarySetKey(canaries) : '';
  const earlier = cache ? await cache.load(setKey) : new Map<string, Leak[]>();
  const found = new Map<string, Leak[]>();
  const leaks: Leak[] = [];
  let bytes = 0;
  const files = await listFiles(dir);
  for (const rel of files) {
    // Synchronous: hundreds of small files, where a thread-pool round trip costs more than the read.
    const content = readFileSync(path.join(dir, rel));
    bytes += content.byteLength;
    const before = scanned.get(rel);
    const key = cache ? `${rel}\0${createHash('sha256').update(content).digest('hex')}` : '';
    const fileLeaks = before && content.equals(before.bytes) ? before.leaks : (earlier.get(key) ?? leaksOf(await scanner.scanBytes(rel, content)));
    if (cache) found.set(key, fileLeaks);
    leaks.push(...fileLeaks);
  }
  await cache?.save(setKey, found);
  leaks.sort((a, b) => (a.where < b.where ? -1 : a.where > b.where ? 1 : a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  return { canaries: canaries.length, files: files.length, bytes, leaks };
}
