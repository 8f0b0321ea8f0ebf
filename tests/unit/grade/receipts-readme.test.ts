import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readmeMarkdown } from '../../../src/bundle/candidate-zip.ts';
import { codeDigest } from '../../../src/judge/receipts.ts';
import { loadPacketFiles, planWorkspace } from '../../../src/judge/workspace.ts';
import { loadPackets } from '../../../src/packets/load.ts';
import { codePackets } from '../../../src/packets/packet.ts';
import { createInterpreterResolver } from '../../../src/sandbox/interpreters.ts';

/**
 * The zip's README tells candidates how to make `code_digest`; the snippet it prints, run with
 * Python over the sample handed in as a candidate would, gives the digest the grader computes,
 * and the one the shipped sample's ledger names.
 */
describe('the receipts section of the zip README', () => {
  it('prints a Python snippet that computes the grader\'s code digest', async () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    const { packets: loadedPackets, sources } = await loadPackets({ packetsDir: 'packets', cwd: root, ids: ['agent-budget-receipt'] });
    const packets = codePackets(loadedPackets);
    const packet = packets[0]!;
    const dir = path.join(root, 'packets', sources[0]!.folder);
    const snippet = /```python\n([\s\S]*?)```/.exec(readmeMarkdown(packet).slice(readmeMarkdown(packet).indexOf('## Receipts')))![1]!;
    const work = await mkdtemp(path.join(tmpdir(), 'receipts-readme-'));
    const resolver = createInterpreterResolver({ searchPath: process.env.PATH ?? '', env: process.env, tmpDir: tmpdir() });
    try {
      await cp(path.join(dir, 'starter'), work, { recursive: true });
      await cp(path.join(dir, 'sample'), work, { recursive: true });
      await writeFile(path.join(work, 'digest.py'), snippet);
      const python = await resolver.python();
      if ('error' in python) throw new Error(python.error);
      const printed = execFileSync(python.executable, ['digest.py'], { cwd: work, encoding: 'utf8' }).trim();

      const files = await loadPacketFiles(packet, dir);
      const sample = new Map(await Promise.all(packet.trees.sample.map(async (f) => [f, await readFile(path.join(dir, 'sample', f))] as [string, Buffer])));
      const plan = planWorkspace(files, { files: sample, deleted: [] }, { withHidden: true, canaries: false, random: Math.random });
      if ('rejected' in plan) throw new Error(plan.rejected);
      expect(printed).toBe(codeDigest(plan.before, files.rules.receipts!));
      const ledger = JSON.parse(await readFile(path.join(dir, 'sample', 'receipts', 'ledger.json'), 'utf8')) as { code_digest: string };
      expect(ledger.code_digest).toBe(printed);
    } finally {
      await resolver.dispose();
      await rm(work, { recursive: true, force: true });
    }
  }, 30_000);
});
