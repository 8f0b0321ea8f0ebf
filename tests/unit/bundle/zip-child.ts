// Run by zip-writer.test.ts in a child process under a given TZ and umask: writes a small tree
// to disk (so the umask shapes its modes), reads it back, zips it, and prints what came out.
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeZip } from '../../../src/bundle/zip-writer.ts';

process.umask(parseInt(process.env.ZIP_UMASK ?? '022', 8));
const dir = await mkdtemp(path.join(tmpdir(), 'packet-zip-child-'));
const files: Record<string, string> = { 'b/run.sh': '#!/bin/sh\necho hi\n', 'a.txt': 'alpha\n', 'b/c/d.py': 'print("d")\n', 'Z.md': '# z\n' };
try {
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
  await chmod(path.join(dir, 'b/run.sh'), 0o755 & ~process.umask());
  const inputs = await Promise.all(Object.keys(files).map(async (rel) => ({ path: rel, bytes: new Uint8Array(await readFile(path.join(dir, rel))) })));
  const bytes = await writeZip(inputs);
  const mode = (await stat(path.join(dir, 'a.txt'))).mode & 0o777;
  process.stdout.write(JSON.stringify({ sha256: createHash('sha256').update(bytes).digest('hex'), mode: mode.toString(8), offset: new Date(1980, 0, 1).getTimezoneOffset() }));
} finally {
  await rm(dir, { recursive: true, force: true });
}
