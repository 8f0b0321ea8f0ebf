import { BundleErrors } from '../errors/bundle-catalog.ts';
import { diagnose } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import type { EntryKind } from '../packets/source.ts';
import { zipPathProblem } from './zip-writer.ts';

/**
 * What may never go into a zip, whatever the zip: links and special files, paths that leave the
 * zip root, Git metadata, `.env*` files and files named like keys or credentials. The names are
 * refused on sight, not after reading: a key file is a key file whatever it holds today.
 */

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
  if (kind !== 'file') return diagnose(BundleErrors.ZipSymlink, place, { path: rel, kind: kind === 'symlink' ? 'symbolic link' : 'special file (device, socket or pipe)' });
  const segments = rel.split('/');
  if (segments.some((s) => s.toLowerCase() === '.git')) return diagnose(BundleErrors.ZipGitMetadata, place, { path: rel });
  if (segments.some(isEnvName)) return diagnose(BundleErrors.ZipEnvFile, place, { path: rel });
  if (isKeyFileName(segments[segments.length - 1]!)) return diagnose(BundleErrors.ZipKeyFile, place, { path: rel });
  return undefined;
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
