/**
 * The sample as a model may mutate it: the starter's candidate files with the sample laid over
 * them, and of those the source files (code in the packet's language, not tests, not empty).
 * Protected files, hidden tests and the failure catalog are never among them, so they can never
 * reach a request.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runnerNamed } from '../judge/runners/index.ts';
import type { PacketFiles } from '../judge/workspace.ts';

/** File endings of source code, by the prompt's `language`. Unknown languages: none, and the kit says so. */
export const SOURCE_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  python: ['.py'],
  javascript: ['.js', '.mjs', '.cjs'],
  typescript: ['.ts', '.mts', '.cts'],
};

/** The sample overlay's files, by path. */
export async function readSampleTree(files: PacketFiles): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const f of files.packet.trees.sample) out.set(f, await readFile(path.join(files.packetDir, 'sample', f)));
  return out;
}

/** The candidate's files of the sample workspace as text: the starter's visible files, then the sample overlay. */
export function sampleLayer(files: PacketFiles, sample: ReadonlyMap<string, Buffer>): Map<string, string> {
  const out = new Map<string, string>(files.candidateStarter);
  for (const [f, bytes] of sample) if (!files.isGuarded(f) && !bytes.includes(0)) out.set(f, bytes.toString('utf8'));
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}

/** The files a mutant may change: source code of the sample workspace, neither guarded, nor a test, nor blank. Sorted by path. */
export function sampleSources(files: PacketFiles, sample: ReadonlyMap<string, Buffer>): Map<string, string> {
  const endings = SOURCE_EXTENSIONS[files.packet.prompt.data.language.toLowerCase()] ?? [];
  const runner = runnerNamed(files.style ?? 'unittest');
  const out = new Map<string, string>();
  for (const [f, text] of sampleLayer(files, sample)) {
    if (!endings.some((e) => f.endsWith(e))) continue;
    if (runner.isTestFile(f)) continue;
    if (!text.trim()) continue;
    out.set(f, text);
  }
  return out;
}
