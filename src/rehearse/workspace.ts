import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import type { Packet } from '../packets/packet.ts';

/** A layer of a workspace: a tree of the packet (by its folder under the packet) or in-memory files. */
export type Layer = { tree: string; files: readonly string[] } | { memory: ReadonlyMap<string, string> };

/** A composed workspace on disk. */
export interface Workspace {
  /** Absolute path. */
  dir: string;
  /** Every file in the workspace, relative, sorted. */
  files: string[];
  /** Files the candidate may not change: the starter's protected files and the hidden tests. */
  protectedFiles: string[];
  /** Remove it. */
  dispose(): Promise<void>;
}

/** True for a starter path the prompt protects. */
export function protectedMatcher(packet: Packet): (file: string) => boolean {
  const globs = packet.prompt.data.protected;
  return globs.length ? picomatch(globs, { dot: true }) : () => false;
}

/**
 * Lay layers over each other into a fresh directory, then copy the protected files (the
 * starter's protected files and, when `withHidden`, the hidden tests) last, from the packet,
 * so no layer can change a test that decides the verdict.
 */
export async function composeWorkspace(
  packet: Packet,
  packetDir: string,
  layers: readonly Layer[],
  options: { withHidden: boolean; parentDir: string },
): Promise<Workspace> {
  const dir = await mkdtemp(path.join(options.parentDir, `${packet.id}-`));
  const files = new Set<string>();
  const isProtected = protectedMatcher(packet);
  const place = async (rel: string) => {
    const dest = path.join(dir, rel);
    if (!dest.startsWith(dir + path.sep)) throw new Error(`refusing to write outside the workspace: ${rel}`);
    await mkdir(path.dirname(dest), { recursive: true });
    files.add(rel);
    return dest;
  };
  for (const layer of [{ tree: 'starter', files: packet.trees.starter }, ...layers]) {
    if ('memory' in layer) {
      for (const [rel, text] of layer.memory) await writeFile(await place(rel), text);
    } else {
      for (const rel of layer.files) await copyFile(path.join(packetDir, layer.tree, rel), await place(rel));
    }
  }
  const protectedFiles = packet.trees.starter.filter(isProtected);
  for (const rel of protectedFiles) await copyFile(path.join(packetDir, 'starter', rel), await place(rel));
  if (options.withHidden) {
    for (const rel of packet.trees.hidden) {
      await copyFile(path.join(packetDir, 'hidden', rel), await place(rel));
      protectedFiles.push(rel);
    }
  }
  return {
    dir,
    files: [...files].sort(),
    protectedFiles: [...new Set(protectedFiles)].sort(),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
