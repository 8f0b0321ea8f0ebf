import { cp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const template = (name: string) => fileURLToPath(new URL(`./${name}/`, import.meta.url));
/** The scaffold's template folders, shipped beside the CLI: a take-home's, a lab's, a drill's. */
export const TEMPLATE_DIR = template('scaffold-template');
export const LAB_TEMPLATE_DIR = template('scaffold-lab');
export const DRILL_TEMPLATE_DIR = template('scaffold-drill');
/** The template of each kind (the choices of `packet new --kind`). */
export const TEMPLATES = { takehome: TEMPLATE_DIR, lab: LAB_TEMPLATE_DIR, drill: DRILL_TEMPLATE_DIR } as const;

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
