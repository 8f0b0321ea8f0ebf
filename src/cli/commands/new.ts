import { cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { displayPath } from '../../packets/fs-source.ts';
import { packetId } from '../../packets/id.ts';
import { newSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';
import { packetsFlag } from '../shell-word.ts';

/** The scaffold's template folder, shipped beside this command. */
export const TEMPLATE_DIR = fileURLToPath(new URL('../scaffold-template/', import.meta.url));
/** The lab scaffold's template folder. */
export const LAB_TEMPLATE_DIR = fileURLToPath(new URL('../scaffold-lab/', import.meta.url));
/** The drill scaffold's template folder. */
export const DRILL_TEMPLATE_DIR = fileURLToPath(new URL('../scaffold-drill/', import.meta.url));

/** The template of each kind. */
export const TEMPLATES = { takehome: TEMPLATE_DIR, lab: LAB_TEMPLATE_DIR, drill: DRILL_TEMPLATE_DIR } as const;

async function fillPlaceholders(dir: string, values: Record<string, string>): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.mdx')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace(/\{\{(\w+)\}\}/g, (m, key: string) => values[key] ?? m));
  }
}

/** `packet new <id>`. */
export async function newCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(newSpec, args);
  if (values.help) {
    io.out(helpText(newSpec));
    return 0;
  }
  const kind = values.kind as keyof typeof TEMPLATES;
  if (!(kind in TEMPLATES)) {
    io.err(`packet new: --kind must be takehome, lab or drill, not "${values.kind}".\n`);
    return 2;
  }
  const [id, ...extra] = positionals;
  if (!id || extra.length) {
    io.err(`packet new: give exactly one id, e.g. \`packet new retry-budget\`.\n`);
    return 2;
  }
  if (packetId(id) !== id) {
    io.err(`packet new: "${id}" is not a packet id; ids are lowercase words joined by dashes, e.g. "${packetId(id) || 'retry-budget'}".\n`);
    return 2;
  }
  const packetsDir = path.resolve(io.cwd, values.packets);
  const target = path.join(packetsDir, id);
  if (await stat(target).catch(() => undefined)) {
    io.err(`packet new: ${displayPath(target, io.cwd)} already exists; nothing was written. Pick another id or remove the folder.\n`);
    return 1;
  }
  await mkdir(packetsDir, { recursive: true });
  const staging = path.join(packetsDir, `.new-${id}-${process.pid}`);
  try {
    await cp(TEMPLATES[kind], staging, { recursive: true, filter: (src) => !/__pycache__|\.pyc$/.test(src) });
    const title = values.title ?? id.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');
    await fillPlaceholders(staging, { id, title: title.replace(/"/g, '\\"'), date: io.now().toISOString().slice(0, 10) });
    await rename(staging, target);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  const rel = displayPath(target, io.cwd);
  const what = { takehome: 'prompt, rubric, sample, failures; starter, sample, hidden, mutants, replies', lab: 'prompt, rubric, assistant; starter, hidden', drill: 'prompt, rubric, assistant' }[kind];
  io.out(`Created ${rel}/ (${what}).\nNext: edit the parts, then run \`npx packet check ${id}${packetsFlag(values.packets, io.cwd)}\`. \`npx packet explain prompt\` (rubric, assistant, ...) says what every field holds.\n`);
  return 0;
}
