import { BundleErrors } from '../errors/bundle-catalog.ts';
import { diagnose } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import type { EntryKind } from '../packets/source.ts';
import { labModelOf, type CodePacket } from '../packets/packet.ts';
import { isSafeName, nameHazard, shownName } from '../errors/safe-name.ts';

/**
 * What may never go into a zip, whatever the zip: links and special files, paths that leave the
 * zip root, Git metadata, `.env*` files and files named like keys or credentials. The names are
 * refused on sight, not after reading: a key file is a key file whatever it holds today.
 */

/** Why a zip path is refused, as a diagnostic; undefined when it is fine. `file` is the diagnostic's file. */
export function zipPathProblem(p: string, file: string = p): Diagnostic | undefined {
  const place = { file };
  const path = shownName(p);
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p) || p.startsWith('\\')) return diagnose(BundleErrors.ZipAbsolutePath, place, { path });
  const segments = p.split(/[\\/]/);
  if (segments.includes('..')) return diagnose(BundleErrors.ZipParentSegment, place, { path });
  if (p === '') return diagnose(BundleErrors.ZipBadPath, place, { path, reason: 'is empty' });
  if (p.includes('\\')) return diagnose(BundleErrors.ZipBadPath, place, { path, reason: 'contains a backslash' });
  if (p.includes('\0')) return diagnose(BundleErrors.ZipBadPath, place, { path, reason: 'contains a NUL character' });
  const hazard = nameHazard(p);
  if (hazard) {
    const why = hazard.kind === 'bidi control' ? 'which reorders the name as editors and terminals show it' : hazard.kind === 'zero-width character' ? 'which hides in the name, so it looks like another' : 'which unzip tools and terminals show as something else or not at all';
    return diagnose(BundleErrors.ZipBadPath, place, { path, reason: `contains a ${hazard.kind} (${hazard.codePoint}), ${why}` });
  }
  if (segments.some((s) => s === '' || s === '.')) return diagnose(BundleErrors.ZipBadPath, place, { path, reason: 'has an empty or "." segment' });
  return undefined;
}

/** Private keys, key stores and credential files, by exact name (compared lowercase). */
const KEY_NAMES = new Set(['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'id_ecdsa_sk', 'id_ed25519_sk', '.netrc', '_netrc', '.npmrc', '.pypirc', '.htpasswd', '.pgpass', 'credentials.json', 'service-account.json']);

/** Private keys and key stores, by extension (compared lowercase). */
const KEY_EXTENSIONS = ['.pem', '.key', '.p12', '.pfx', '.jks', '.keystore', '.ppk', '.gpg', '.kdbx'];

/** True when a file name is a private key, key store or credential file. */
export function isKeyFileName(name: string): boolean {
  const lower = name.toLowerCase();
  return KEY_NAMES.has(lower) || KEY_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/** True when a file or folder name is an environment file (`.env`, `.env.local`, `.envrc`, ...). */
export function isEnvName(name: string): boolean {
  return name.toLowerCase().startsWith('.env');
}

/**
 * Why a file is refused from a zip, or undefined when it may go in. `rel` is its path inside the
 * zip (before any root folder), `file` the path shown in the diagnostic.
 */
export function refusalOf(rel: string, kind: EntryKind, file: string): Diagnostic | undefined {
  const place = { file };
  const pathProblem = zipPathProblem(rel, file);
  if (pathProblem) return pathProblem;
  const path = shownName(rel);
  if (kind !== 'file') return diagnose(BundleErrors.ZipSymlink, place, { path, kind: kind === 'symlink' ? 'symbolic link' : 'special file (device, socket or pipe)' });
  const segments = rel.split('/');
  if (segments.some((s) => s.toLowerCase() === '.git')) return diagnose(BundleErrors.ZipGitMetadata, place, { path });
  if (segments.some(isEnvName)) return diagnose(BundleErrors.ZipEnvFile, place, { path });
  if (isKeyFileName(segments[segments.length - 1]!)) return diagnose(BundleErrors.ZipKeyFile, place, { path });
  return undefined;
}

/** The files the kit writes at the root of the candidate zip; a starter file may not take their names. */
export const GENERATED_FILES = ['PROMPT.md', 'README.md', 'RUBRIC.md'] as const;

/** The name of the kit's own readme in a packet's zip: a lab's codebase keeps its README.md (the rules), so the kit's is PACKET.md. */
export function readmeName(packet: CodePacket): string {
  return labModelOf(packet) ? 'PACKET.md' : 'README.md';
}

/**
 * The generated file a starter path would land on (compared without case, as case-insensitive
 * disks do), or undefined; `readme` is the name the kit's readme takes in this packet's zip.
 */
export function generatedNameOf(rel: string, readme = 'README.md'): string | undefined {
  return GENERATED_FILES.map((g) => (g === 'README.md' ? readme : g)).find((g) => g.toLowerCase() === rel.toLowerCase());
}

/**
 * Every file of a packet the build would refuse, found before anything is built: what the
 * reviewer bundle refuses (it holds every file: paths, `.git`, `.env*`, key files) and, for the
 * starter, what the candidate zip refuses besides (a name the kit generates). `packet check`
 * reports these, with the build's own codes. Links, special files and unsafe names are left to
 * the loader, which reports them already (PK111, PK117, PK161).
 */
export function packetFileRefusals(packet: CodePacket): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const e of packet.entries) {
    // A name with a control, bidi or zero-width character is the loader's to report (PK161).
    if (e.kind !== 'file' || !isSafeName(e.path)) continue;
    const file = `${packet.dir}/${e.path}`;
    const refusal = refusalOf(e.path, 'file', file);
    if (refusal) {
      out.push(refusal);
      continue;
    }
    if (!e.path.startsWith('starter/')) continue;
    const rel = e.path.slice('starter/'.length);
    const starterRefusal = refusalOf(rel, 'file', file);
    const generated = generatedNameOf(rel, readmeName(packet));
    if (starterRefusal) out.push(starterRefusal);
    else if (generated) out.push(diagnose(BundleErrors.ZipNameTaken, { file }, { path: shownName(rel), generated }));
  }
  return out;
}

/** The text of a file for scanning, or undefined for binary content (invalid UTF-8 or a NUL byte). */
export function textOf(bytes: Uint8Array): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.includes('\u0000') ? undefined : text;
  } catch {
    return undefined;
  }
}
