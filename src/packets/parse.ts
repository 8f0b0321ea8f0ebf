import { diagnose, Errors } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { LabErrors } from '../errors/lab-catalog.ts';
import { crossCheck, rubricChecks } from './cross-checks.ts';
import { packetDigest } from './digest.ts';
import type { Drill } from './drill.ts';
import { drillChecks } from './drill-checks.ts';
import { splitFrontmatter } from './frontmatter.ts';
import { labChecks } from './lab-checks.ts';
import { resolveLab } from './lab-model.ts';
import type { Packet } from './packet.ts';
import { parsePart, parsePartWith, type Part, type PartData } from './part.ts';
import { drillPromptSchema, PART_FILES, PARTS_OF_KIND, type PacketKind, type PartName } from './schema/index.ts';
import type { PacketSource } from './source.ts';
import { treesOf } from './trees.ts';
import { parseLocatedYaml } from './yaml-positions.ts';

/** What parsing one packet folder gave: a packet with code (take-home or lab), or a drill, and every diagnostic. */
export interface ParseResult {
  packet?: Packet;
  drill?: Drill;
  diagnostics: Diagnostic[];
}

/**
 * The kind the prompt declares, read before the prompt is validated (to know its parts). When the
 * YAML does not parse, a plain `kind: lab` line still says which parts to expect, so a syntax error
 * is not buried under "missing part" errors; `takehome` when nothing says otherwise.
 */
export function declaredKind(promptText: string | undefined): PacketKind {
  if (promptText === undefined) return 'takehome';
  const split = splitFrontmatter(promptText);
  if (!split.ok) return 'takehome';
  const yaml = parseLocatedYaml(split.yaml);
  const value = yaml.value as { kind?: unknown } | null | undefined;
  const kind = yaml.errors.length ? /^kind:[ \t]*["']?(lab|drill)["']?[ \t]*(?:#.*)?$/m.exec(split.yaml)?.[1] : value && typeof value === 'object' ? value.kind : undefined;
  return kind === 'lab' || kind === 'drill' ? kind : 'takehome';
}

const KIND_WORDS: Record<PacketKind, string> = { takehome: 'take-home', lab: 'lab', drill: 'drill' };

/** The pure core shared by every adapter: a source in, a packet or a drill (when valid) and diagnostics out. */
export function parsePacket(source: PacketSource): ParseResult {
  const diagnostics: Diagnostic[] = [...source.problems];
  const kind = declaredKind(source.parts.prompt);
  const wanted = PARTS_OF_KIND[kind];
  const parts: Partial<{ [N in PartName]: Part<PartData<N>> }> = {};
  let drillPrompt: Part<Drill['prompt']['data']> | undefined;
  for (const name of PART_FILES) {
    const file = `${source.dir}/${name}.mdx`;
    const raw = source.parts[name];
    if (!wanted.includes(name)) {
      if (raw !== undefined) diagnostics.push(diagnose(LabErrors.KindPartUnused, { file }, { kind: KIND_WORDS[kind], part: name }));
      continue;
    }
    if (raw === undefined) {
      if (source.problems.some((p) => p.file === file)) continue;
      diagnostics.push(
        kind === 'takehome'
          ? diagnose(Errors.PartMissing, { file }, { part: name })
          : diagnose(LabErrors.KindPartMissing, { file }, { kind: KIND_WORDS[kind], part: name, parts: wanted.join(', ') }),
      );
      continue;
    }
    if (kind === 'drill' && name === 'prompt') {
      const result = parsePartWith(drillPromptSchema, name, raw, file);
      diagnostics.push(...result.diagnostics);
      drillPrompt = result.part;
      continue;
    }
    const result = parsePart(name, raw, file);
    diagnostics.push(...result.diagnostics);
    if (result.part) (parts as Record<string, unknown>)[name] = result.part;
  }
  const symlinks = () => {
    // Tree problems are still worth reporting when a part is broken.
    for (const e of source.entries) {
      if (e.kind === 'symlink') diagnostics.push(diagnose(Errors.SymlinkInTree, { file: `${source.dir}/${e.path}` }, { path: e.path }));
    }
  };

  if (kind === 'drill') {
    if (!drillPrompt || !parts.rubric || !parts.assistant) {
      symlinks();
      return { diagnostics };
    }
    diagnostics.push(...rubricChecks(parts.rubric, 'drill'), ...drillChecks(source.dir, parts.assistant, source.entries));
    for (const e of source.entries) {
      if (e.kind === 'symlink') diagnostics.push(diagnose(Errors.SymlinkInTree, { file: `${source.dir}/${e.path}` }, { path: e.path }));
      else if (e.kind === 'other') diagnostics.push(diagnose(Errors.UnreadableFile, { file: `${source.dir}/${e.path}` }, { reason: 'it is not a regular file' }));
    }
    const drill: Drill = {
      id: source.id,
      dir: source.dir,
      digest: packetDigest(source.entries),
      prompt: drillPrompt,
      rubric: parts.rubric,
      assistant: parts.assistant,
      diffs: parts.assistant.data.diffs ?? [],
      entries: source.entries,
    };
    return { drill, diagnostics };
  }

  if (!parts.prompt || !parts.rubric || !wanted.every((name) => parts[name])) {
    symlinks();
    return { diagnostics };
  }
  const packet: Packet = {
    id: source.id,
    dir: source.dir,
    digest: packetDigest(source.entries),
    prompt: parts.prompt,
    rubric: parts.rubric,
    ...(parts.sample ? { sample: parts.sample } : {}),
    ...(parts.failures ? { failures: parts.failures } : {}),
    entries: source.entries,
    trees: treesOf(source.entries),
  };
  if (kind === 'lab' && parts.assistant) {
    packet.assistant = parts.assistant;
    diagnostics.push(...labChecks(parts.prompt, parts.assistant));
    const resolved = resolveLab(parts.assistant, source.starterText ?? {});
    diagnostics.push(...resolved.diagnostics);
    if (resolved.model && parts.assistant.data.suggestions) packet.lab = resolved.model;
  }
  diagnostics.push(...crossCheck(packet));
  return { packet, diagnostics };
}
