/**
 * The output folders a run writes into (`packet grade --out`, `packet rehearse --report`,
 * `packet mutate --out`), tried before the run starts, so a folder that cannot be written is a
 * coded error at once rather than after minutes of work; and a file written so that it is either
 * complete or absent, nothing half-written left when the disk fills.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { atPath, fsFault, type FsFault } from '../errors/fs-fault.ts';

/**
 * Make `dir` (and its parents) and write and remove a file in it: the fault that stops it (a
 * permission, a read-only or full disk, a file where a folder must be), or undefined when it can
 * be written. Any other error is thrown.
 */
export async function folderFault(dir: string): Promise<FsFault | undefined> {
  const probe = path.join(dir, `.packet-kit-probe-${process.pid}`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, 'probe\n');
    await rm(probe, { force: true });
    return undefined;
  } catch (err) {
    const fault = fsFault(err);
    if (!fault) throw err;
    await rm(probe, { force: true }).catch(() => undefined);
    return fault;
  }
}

/**
 * Write a file atomically (a temporary file beside it, then a rename); on a failure the temporary
 * file is removed and the error thrown, with the path it was written to (a write that fails for a
 * full disk names no path of its own).
 */
export async function writeFileWhole(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, text);
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw atPath(err, tmp);
  }
}
