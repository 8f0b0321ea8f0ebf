import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The kit's own folder (where its package.json is). */
export const KIT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A fingerprint of the kit's code: every file of `<kitRoot>/src` (path and bytes), its
 * package.json and lock files. About 10 ms.
 */
export function kitFingerprint(kitRoot: string): string {
  const h = createHash('sha256');
  const src = path.join(kitRoot, 'src');
  const files = readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(kitRoot, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
  for (const rel of [...files, 'package.json', 'package-lock.json', 'node_modules/.package-lock.json']) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path.join(kitRoot, rel));
    } catch {
      continue;
    }
    h.update(`${rel}\0${bytes.byteLength}\0`).update(bytes);
  }
  return h.digest('hex');
}
