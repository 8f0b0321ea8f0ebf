import { diagnose, Errors } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { crossCheck } from './cross-checks.ts';
import { packetDigest } from './digest.ts';
import type { Packet } from './packet.ts';
import { parsePart, type Part, type PartData } from './part.ts';
import { PARTS, type PartName } from './schema/index.ts';
import type { PacketSource } from './source.ts';
import { treesOf } from './trees.ts';

/** The pure core shared by every adapter: a source in, a packet (when valid) and diagnostics out. */
export function parsePacket(source: PacketSource): { packet?: Packet; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [...source.problems];
  const parts: Partial<{ [N in PartName]: Part<PartData<N>> }> = {};
  for (const name of PARTS) {
    const file = `${source.dir}/${name}.mdx`;
    const raw = source.parts[name];
    if (raw === undefined) {
      if (!source.problems.some((p) => p.file === file)) diagnostics.push(diagnose(Errors.PartMissing, { file }, { part: name }));
      continue;
    }
    const result = parsePart(name, raw, file);
    diagnostics.push(...result.diagnostics);
    if (result.part) (parts as Record<string, unknown>)[name] = result.part;
  }
  if (!parts.prompt || !parts.rubric || !parts.sample || !parts.failures) {
    // Tree problems are still worth reporting when a part is broken.
    for (const e of source.entries) {
      if (e.kind === 'symlink') diagnostics.push(diagnose(Errors.SymlinkInTree, { file: `${source.dir}/${e.path}` }, { path: e.path }));
    }
    return { diagnostics };
  }
  const packet: Packet = {
    id: source.id,
    dir: source.dir,
    digest: packetDigest(source.entries),
    prompt: parts.prompt,
    rubric: parts.rubric,
    sample: parts.sample,
    failures: parts.failures,
    entries: source.entries,
    trees: treesOf(source.entries),
  };
  diagnostics.push(...crossCheck(packet));
  return { packet, diagnostics };
}
