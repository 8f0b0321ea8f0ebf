// Run by build.test.ts in a child process (as an unprivileged user when the tests run as root, so
// that a folder's mode stops a write): a build of the memory packet with fake outside steps into
// <outDir> and <reviewerDir> under <root>; prints how it ended as one JSON line.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runBuild } from '../../../src/bundle/build.ts';
import { memPacket } from './helpers.ts';

const [root, outDir, reviewerDir] = process.argv.slice(2) as [string, string, string];
const { packet, read } = memPacket();
const lines: string[] = [];
const result = await runBuild({
  cwd: root,
  outDir: path.join(root, outDir),
  reviewerDir: path.join(root, reviewerDir),
  steps: {
    load: async () => ({ packets: [packet], sources: [{ id: packet.id, dir: packet.dir }], diagnostics: [] }),
    lint: async () => [],
    lastReport: async () => undefined,
    buildSite: async ({ outDir: staging }) => {
      await writeFile(path.join(staging, 'index.html'), '<h1>new site</h1>');
      return { ok: true, output: '' };
    },
  },
  reader: () => read,
  reporter: { onLine: (line) => void lines.push(line) },
  signal: new AbortController().signal,
  now: () => performance.now(),
  tag: 'test',
});
process.stdout.write(`${JSON.stringify({ ok: result.ok, ...(result.ok ? {} : { step: result.step, exitCode: result.exitCode, code: result.diagnostic.code, message: result.diagnostic.message }), lines })}\n`);
