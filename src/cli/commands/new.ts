import { stat } from 'node:fs/promises';
import path from 'node:path';
import { diagnose, Errors } from '../../errors/catalog.ts';
import { fsFault, type FsFault } from '../../errors/fs-fault.ts';
import { displayPath } from '../../packets/fs-source.ts';
import { folderFault } from '../../runs/output-folder.ts';
import { diagnosticText } from '../../runs/reporter.ts';
import { packetId } from '../../packets/id.ts';
import { newSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';
import { packetsFlag } from '../shell-word.ts';
import { variantsNote, variantsRefusal, writeScaffold, type TEMPLATES } from '../scaffold.ts';

export { TEMPLATES } from '../scaffold.ts';

/** `packet new <id>`. */
export async function newCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(newSpec, args);
  if (values.help) {
    io.out(helpText(newSpec));
    return 0;
  }
  const [id, ...extra] = positionals;
  const kind = values.kind as keyof typeof TEMPLATES;
  if (!id || extra.length) {
    io.err(`packet new: give exactly one id, e.g. \`packet new retry-budget\`.\n`);
    return 2;
  }
  if (values.variants && variantsRefusal(kind)) return (io.err(variantsRefusal(kind)!), 2);
  if (packetId(id) !== id) {
    io.err(`packet new: "${id}" is not a packet id; ids are lowercase words joined by dashes, e.g. "${packetId(id) || 'retry-budget'}".\n`);
    return 2;
  }
  const packetsDir = path.resolve(io.cwd, values.packets);
  const target = path.join(packetsDir, id);
  const rel = displayPath(target, io.cwd);
  if (await stat(target).catch(() => undefined)) {
    io.err(`packet new: ${rel} already exists; nothing was written. Pick another id or remove the folder.\n`);
    return 1;
  }
  const unwritable = (fault: FsFault) => {
    io.err(diagnosticText(diagnose(Errors.PacketFolderUnwritable, { file: rel }, { folder: `${rel}/`, reason: fault.reason, fix: fault.fix })));
    return 2;
  };
  // The packets folder is tried first; a fault while the scaffold is written leaves nothing (it is staged, then renamed).
  const before = await folderFault(packetsDir);
  if (before) return unwritable(before);
  const title = values.title ?? id.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');
  try {
    await writeScaffold(kind, target, { id, title: title.replace(/"/g, '\\"'), date: io.now().toISOString().slice(0, 10) }, { variants: values.variants });
  } catch (err) {
    const fault = fsFault(err);
    if (!fault) throw err;
    return unwritable(fault);
  }
  const what = { takehome: 'prompt, rubric, sample, failures; starter, sample, hidden, mutants, replies', lab: 'prompt, rubric, assistant; starter, hidden', drill: 'prompt, rubric, assistant' }[kind];
  io.out(`Created ${rel}/ (${what}).${values.variants ? variantsNote(kind) : ''}\nNext: edit the parts, then run \`npx packet check ${id}${packetsFlag(values.packets, io.cwd)}\`. \`npx packet explain prompt\` (rubric, assistant, ...) says what every field holds.\n`);
  return 0;
}
