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
const VARIANTS_FIELD = variantsField(VARIANT_SCAFFOLD.param, VARIANT_SCAFFOLD.pick);

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

/**
 * The lab scaffold with variants (`packet new --kind lab --variants`): the slug's length limit
 * becomes the parameter `limit`, picked per variant, so the starter's `MAX_LENGTH`, its README,
 * the length cut's suggestion, a visible test and the hidden tests all hold the variant's limit,
 * and a hand edit that hard-codes another variant's limit fails its own variant's tests. The
 * files that change are in `scaffold-lab-variants/`, laid over the lab's; the prompt gains the
 * `variants` field and the suggestion its limit here. Every limit makes the plain slice of the
 * offered length cut fail a hidden test (the whole-word title is cut mid-word at each one).
 */
export const LAB_VARIANT_SCAFFOLD = {
  param: 'limit',
  pick: [45, 50, 55],
  /** The folder laid over the lab's template. */
  overlay: fileURLToPath(new URL('./scaffold-lab-variants/', import.meta.url)),
  /** The length cut's ask in the lab's assistant.mdx, and what it becomes. */
  ask: ['ask: Cap the slug at MAX_LENGTH characters.', 'ask: Cap the slug at MAX_LENGTH ([[variant.limit]]) characters.'],
} as const;

/** The `variants` field of a scaffold with variants, after `seed:`. */
function variantsField(param: string, pick: readonly (string | number)[]): string {
  return ['variants:', `  count: ${pick.length}`, '  params:', `    ${param}: { pick: [${pick.join(', ')}] }`].join('\n');
}

/** Turn a scaffolded lab into one with variants: the files of the overlay laid over it, the parameter declared, the suggestion's ask given the limit. */
async function addLabVariants(dir: string): Promise<void> {
  await cp(LAB_VARIANT_SCAFFOLD.overlay, dir, { recursive: true, filter: (src) => !/__pycache__|\.pyc$/.test(src) });
  const prompt = path.join(dir, 'prompt.mdx');
  const text = await readFile(prompt, 'utf8');
  await writeFile(prompt, text.replace(/^seed: .*$/m, (line) => `${line}\n${variantsField(LAB_VARIANT_SCAFFOLD.param, LAB_VARIANT_SCAFFOLD.pick)}`));
  const assistant = path.join(dir, 'assistant.mdx');
  const before = await readFile(assistant, 'utf8');
  const [from, to] = LAB_VARIANT_SCAFFOLD.ask;
  if (!before.includes(from)) throw new Error(`the lab scaffold's assistant.mdx has no "${from}"`);
  await writeFile(assistant, before.replace(from, to));
}

/** What `packet new --variants` adds to its "Created" line, for a kind. */
export function variantsNote(kind: PacketKind): string {
  if (kind === 'lab') {
    const { param, pick } = LAB_VARIANT_SCAFFOLD;
    return ` It has ${pick.length} variants: the slug's length limit is the parameter "${param}" (${pick.join(', ')}), written [[variant.${param}]] in the starter, its README, the length cut's suggestion, a visible test and the hidden tests (docs/variants.md).`;
  }
  return VARIANTS_NOTE;
}

/** What `packet new --variants` adds to its "Created" line for a take-home. */
export const VARIANTS_NOTE = ` It has ${VARIANT_SCAFFOLD.pick.length} variants: the function's name is the parameter "${VARIANT_SCAFFOLD.param}", written [[variant.${VARIANT_SCAFFOLD.param}]] in every file (docs/variants.md).`;

/** Why `packet new --variants` cannot scaffold a kind, as its error line; undefined for a take-home or a lab. */
export function variantsRefusal(kind: PacketKind): string | undefined {
  if (kind === 'takehome' || kind === 'lab') return undefined;
  return `packet new: --variants scaffolds a take-home or a lab; a drill has no variants (its diffs are reviewed, no code runs). Leave out --variants, or use --kind lab.\n`;
}

/** Options of {@link writeScaffold}. */
export interface ScaffoldOptions {
  /** A take-home or a lab with variant parameters (docs/variants.md). */
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
      if (kind === 'lab') await addLabVariants(staging);
      else if (kind === 'takehome') await addVariants(staging);
      else throw new Error(`a ${kind} scaffold has no variants`);
    }
    await rename(staging, target);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
