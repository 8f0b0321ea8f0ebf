import { cp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KINDS } from '../packets/kinds/index.ts';
import type { PacketKind } from '../packets/schema/index.ts';

/**
 * The template folder of each kind (the choices of `packet new --kind`): the folder its
 * descriptor names (`scaffold`), shipped beside the CLI.
 */
export const TEMPLATES = Object.fromEntries(KINDS.map((k) => [k.kind, fileURLToPath(new URL(`./${k.scaffold}/`, import.meta.url))])) as Record<PacketKind, string>;

/** The `{{key}}` placeholders of every .mdx file under `dir`, filled in. */
async function fillPlaceholders(dir: string, values: Record<string, string>): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.mdx')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace(/\{\{(\w+)\}\}/g, (m, key: string) => values[key] ?? m));
  }
}

/**
 * Write a kind's template as `target`, its placeholders filled in: in a staging folder beside it
 * first, renamed into place when whole, so a failure leaves no half-written packet.
 */
export async function writeScaffold(kind: keyof typeof TEMPLATES, target: string, values: Record<string, string>): Promise<void> {
  const staging = path.join(path.dirname(target), `.new-${path.basename(target)}-${process.pid}`);
  try {
    await cp(TEMPLATES[kind], staging, { recursive: true, filter: (src) => !/__pycache__|\.pyc$/.test(src) });
    await fillPlaceholders(staging, values);
    await rename(staging, target);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
