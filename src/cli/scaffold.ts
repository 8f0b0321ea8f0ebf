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
 * The take-home scaffold with variants (`packet new --variants`): its function's name becomes the
 * parameter `func`, picked per variant, so the starter, the sample, the hidden tests, the mutants,
 * the replies and the prompt all name the variant's function, and an answer copied from another
 * variant defines a function the hidden tests do not import.
 */
export const VARIANT_SCAFFOLD = {
  /** The name in the take-home template the parameter replaces. */
  name: 'parse_duration',
  param: 'func',
  pick: ['parse_duration', 'to_seconds', 'duration_seconds'],
} as const;

/** The `variants` field the scaffold with variants adds to its prompt, after `seed:`. */
const VARIANTS_FIELD = ['variants:', `  count: ${VARIANT_SCAFFOLD.pick.length}`, '  params:', `    ${VARIANT_SCAFFOLD.param}: { pick: [${VARIANT_SCAFFOLD.pick.join(', ')}] }`].join('\n');

/** Turn a scaffolded take-home into one with variants: the parameter declared, its name replaced by the placeholder in every text file. */
async function addVariants(dir: string): Promise<void> {
  const placeholder = `[[variant.${VARIANT_SCAFFOLD.param}]]`;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = await readFile(file, 'utf8');
    let out = text.replaceAll(VARIANT_SCAFFOLD.name, placeholder);
    if (file === path.join(dir, 'prompt.mdx')) out = out.replace(/^seed: .*$/m, (line) => `${line}\n${VARIANTS_FIELD}`);
    if (out !== text) await writeFile(file, out);
  }
}

/** What `packet new --variants` adds to its "Created" line. */
export const VARIANTS_NOTE = ` It has ${VARIANT_SCAFFOLD.pick.length} variants: the function's name is the parameter "${VARIANT_SCAFFOLD.param}", written [[variant.${VARIANT_SCAFFOLD.param}]] in every file (docs/variants.md).`;

/** Why `packet new --variants` cannot scaffold a kind, as its error line; undefined for a take-home. */
export function variantsRefusal(kind: PacketKind): string | undefined {
  if (kind === 'takehome') return undefined;
  return `packet new: --variants scaffolds a take-home; a ${kind} has no variant parameters yet. Leave out --variants, or use --kind takehome.\n`;
}

/** Options of {@link writeScaffold}. */
export interface ScaffoldOptions {
  /** A take-home with variant parameters (docs/variants.md). */
  variants?: boolean;
}

/**
 * Write a kind's template as `target`, its placeholders filled in: in a staging folder beside it
 * first, renamed into place when whole, so a failure leaves no half-written packet.
 */
export async function writeScaffold(kind: keyof typeof TEMPLATES, target: string, values: Record<string, string>, options: ScaffoldOptions = {}): Promise<void> {
  const staging = path.join(path.dirname(target), `.new-${path.basename(target)}-${process.pid}`);
  try {
    await cp(TEMPLATES[kind], staging, { recursive: true, filter: (src) => !/__pycache__|\.pyc$/.test(src) });
    await fillPlaceholders(staging, values);
    if (options.variants) {
      if (kind !== 'takehome') throw new Error(`a ${kind} scaffold has no variants`);
      await addVariants(staging);
    }
    await rename(staging, target);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
