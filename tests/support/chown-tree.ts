import { chown, readdir } from 'node:fs/promises';
import path from 'node:path';

/** Give a whole tree to `uid`:`gid` (as root), so a command run as that user meets the modes a test sets. */
export async function chownTree(dir: string, uid: number, gid: number): Promise<void> {
  await chown(dir, uid, gid);
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await chownTree(p, uid, gid);
    else await chown(p, uid, gid);
  }
}
