import { diagnose, Errors } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { LabErrors } from '../errors/lab-catalog.ts';
import { splitFrontmatter } from './frontmatter.ts';
import { KINDS, type ValidParts } from './kinds/index.ts';
import type { Packet } from './packet.ts';
import { parsePartWith } from './part.ts';
import { nameHazardReason, shownName } from '../errors/safe-name.ts';
import { PART_FILES, PART_SCHEMAS, type PacketKind } from './schema/index.ts';
import type { PacketSource } from './source.ts';
import { parseLocatedYaml } from './yaml-positions.ts';

/** What parsing one packet folder gave: the packet of its kind (when its parts are valid) and every diagnostic. */
export interface ParseResult {
  packet?: Packet;
  diagnostics: Diagnostic[];
}

const DEFAULT_KIND = KINDS[0].kind;
const KIND_LINE = new RegExp(`^kind:[ \\t]*["']?(${KINDS.map((k) => k.kind).join('|')})["']?[ \\t]*(?:#.*)?$`, 'm');

/**
 * The kind the prompt declares, read before the prompt is validated (to know its parts). When the
 * YAML does not parse, a plain `kind: lab` line still says which parts to expect, so a syntax error
 * is not buried under "missing part" errors; the first kind of the list (`takehome`) when nothing
 * says otherwise.
 */
export function declaredKind(promptText: string | undefined): PacketKind {
  if (promptText === undefined) return DEFAULT_KIND;
  const split = splitFrontmatter(promptText);
  if (!split.ok) return DEFAULT_KIND;
  const yaml = parseLocatedYaml(split.yaml);
  const value = yaml.value as { kind?: unknown } | null | undefined;
  const kind = yaml.errors.length ? KIND_LINE.exec(split.yaml)?.[1] : value && typeof value === 'object' ? value.kind : undefined;
  return KINDS.find((k) => k.kind === kind)?.kind ?? DEFAULT_KIND;
}

/** The pure core shared by every adapter: a source in, the packet of its kind (when valid) and diagnostics out. */
export function parsePacket(source: PacketSource): ParseResult {
  const diagnostics: Diagnostic[] = [...source.problems, ...unsafeNames(source)];
  const kindName = declaredKind(source.parts.prompt);
  const kind = KINDS.find((k) => k.kind === kindName)!;
  const parts: ValidParts = {};
  for (const name of PART_FILES) {
    const file = `${source.dir}/${name}.mdx`;
    const raw = source.parts[name];
    if (!kind.parts.includes(name)) {
      if (raw !== undefined) diagnostics.push(diagnose(LabErrors.KindPartUnused, { file }, { kind: kind.word, part: name, parts: partsInWords(kind.parts) }));
      continue;
    }
    if (raw === undefined) {
      if (!source.problems.some((p) => p.file === file)) diagnostics.push(kind.missingPart(file, name));
      continue;
    }
    const result = parsePartWith(name === 'prompt' ? kind.promptSchema : PART_SCHEMAS[name], name, raw, file);
    diagnostics.push(...result.diagnostics);
    if (result.part) (parts as Record<string, unknown>)[name] = result.part;
  }
  if (!kind.parts.every((name) => parts[name])) {
    // Tree problems are still worth reporting when a part is broken.
    for (const e of source.entries) {
      if (e.kind === 'symlink') diagnostics.push(diagnose(Errors.SymlinkInTree, { file: `${source.dir}/${e.path}` }, { path: e.path }));
    }
    return { diagnostics };
  }
  const assembled = kind.assemble(parts, source);
  diagnostics.push(...assembled.diagnostics);
  return { packet: assembled.packet, diagnostics };
}

/**
 * Every file whose path holds a control, bidi or zero-width character (in its own name or a
 * folder's), wherever it sits in the packet: starter/, sample/, hidden/, mutants/, replies/ or
 * beside the parts. The message shows it escaped (the renderer escapes the file's own path), so the
 * diagnostic cannot be reordered or split by the name.
 */
function unsafeNames(source: PacketSource): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const e of source.entries) {
    const reason = nameHazardReason(e.path);
    if (reason) out.push(diagnose(Errors.UnsafeFileName, { file: `${source.dir}/${e.path}` }, { path: shownName(e.path), reason }));
  }
  return out;
}

/** A kind's parts in words: `prompt, rubric and assistant`. */
function partsInWords(parts: readonly string[]): string {
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts.join('');
}
