import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import yazl from 'yazl';
import { BUILD_MANIFEST_SCHEMA_VERSION, type RehearsalStatus } from '../../../src/packets/build-status.ts';
import { publicPackets, ROOT } from './packets.ts';

/**
 * A stand-in for `packet build` while it does not exist: candidate zips of the public view, a
 * manifest in the agreed format, and the Astro site built against it. The rehearsal statuses are
 * made up so that every badge shows, and one entry names another digest (an older version), so
 * the site must show that packet as not built and not rehearsed.
 */
export async function buildFixtureSite(outDir: string): Promise<{ dist: string; manifest: string }> {
  await rm(outDir, { recursive: true, force: true });
  const zips = path.join(outDir, 'zips');
  await mkdir(zips, { recursive: true });
  const packets = await publicPackets();
  const statuses: RehearsalStatus[] = ['fails-closed', 'defect', 'inconclusive', 'not-rehearsed'];
  const entries = [];
  for (const [i, packet] of packets.entries()) {
    const zip = `${packet.id}-${packet.prompt.version}.zip`;
    const bytes = await zipOf([
      ['PROMPT.md', Buffer.from(packet.promptBody)],
      ['RUBRIC.md', Buffer.from(packet.rubricBody)],
      ['README.md', Buffer.from(`# ${packet.prompt.title}\n\nRun the tests: \`${packet.prompt.test}\`\n`)],
      ...(await Promise.all(packet.starter.map(async (f): Promise<[string, Buffer]> => [f.path, await readFile(path.join(ROOT, 'packets', packet.id, 'starter', f.path))]))),
    ]);
    await writeFile(path.join(zips, zip), bytes);
    const stale = i === packets.length - 1;
    entries.push({
      id: packet.id,
      version: packet.prompt.version,
      digest: stale ? '0'.repeat(64) : packet.digest,
      zip,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      rehearsal: statuses[i % statuses.length]!,
    });
  }
  const manifest = path.join(outDir, 'packets.json');
  await writeFile(manifest, `${JSON.stringify({ schemaVersion: BUILD_MANIFEST_SCHEMA_VERSION, packets: entries }, null, 2)}\n`);
  const dist = path.join(outDir, 'dist');
  await run(process.execPath, [path.join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', dist], {
    PACKET_KIT_PACKETS: 'packets',
    PACKET_KIT_MANIFEST: manifest,
  });
  // Astro empties its outDir when it starts, so the zips go in after it.
  await cp(zips, path.join(dist, 'zips'), { recursive: true });
  await cp(manifest, path.join(dist, 'packets.json'));
  return { dist, manifest };
}

function zipOf(files: [string, Buffer][]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of files.sort(([a], [b]) => (a < b ? -1 : 1))) zip.addBuffer(bytes, name, { mtime: new Date(Date.UTC(2026, 0, 1)), mode: 0o100644 });
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((ok, fail) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => ok(Buffer.concat(chunks)));
    zip.outputStream.on('error', fail);
  });
}

/** Run a command from the project root; reject with its output when it fails. */
export function run(command: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  return new Promise((ok, fail) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c));
    child.stderr.on('data', (c: Buffer) => (output += c));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? ok() : fail(new Error(`${path.basename(args[0] ?? command)} ${args.slice(1).join(' ')} exited ${code}:\n${output.slice(-4000)}`))));
  });
}
