/**
 * A drill: the review round of N diffs, with no code to run. Its checks across files: the
 * assistant lists diffs (each a well-formed diff with a key), a verdict that asks for a change
 * names it, the ids are unique, and no code tree sits in the folder (nothing would run it).
 */
import { diagnose, Errors } from '../../errors/catalog.ts';
import type { Diagnostic } from '../../errors/diagnostic.ts';
import { GradeErrors } from '../../errors/grade-catalog.ts';
import { LabErrors } from '../../errors/lab-catalog.ts';
import { rubricChecks } from '../cross-checks.ts';
import { diffLines } from '../diff-lines.ts';
import { packetDigest } from '../digest.ts';
import type { PacketBase } from '../packet-base.ts';
import type { Part, PartData } from '../part.ts';
import { placeOf } from '../place.ts';
import { publicDrill } from '../public-drill.ts';
import { drillPromptSchema, type AssistantFrontmatter, type DrillDiff, type DrillPromptFrontmatter } from '../schema/index.ts';
import type { PacketEntry } from '../source.ts';
import { defineKind, kindPartMissing, type KindDescriptor } from './kind.ts';

/**
 * A drill: the review round of N diffs. It runs no code and ships no zip: the candidate reviews
 * the diffs on the site and hands in an answer sheet; the key of each diff is reviewer material.
 */
export interface Drill extends PacketBase {
  kind: 'drill';
  prompt: Part<DrillPromptFrontmatter>;
  rubric: Part<PartData<'rubric'>>;
  assistant: Part<PartData<'assistant'>>;
  /** The diffs, in order (`assistant.data.diffs`). */
  diffs: DrillDiff[];
}

/** Problems of a drill's assistant part and folder. */
export function drillChecks(dir: string, assistant: Part<AssistantFrontmatter>, entries: readonly PacketEntry[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { suggestions, diffs } = assistant.data;
  if (!diffs) out.push(diagnose(LabErrors.AssistantListMismatch, placeOf(assistant, []), { kind: 'drill', problem: 'lists no diffs' }));
  if (suggestions) out.push(diagnose(LabErrors.AssistantListMismatch, placeOf(assistant, ['suggestions'], 'key'), { kind: 'drill', problem: 'lists suggestions, which only a lab has' }));
  const seen = new Set<string>();
  diffs?.forEach((d, i) => {
    if (seen.has(d.id)) out.push(diagnose(Errors.DuplicateEntryId, placeOf(assistant, ['diffs', i, 'id']), { kind: 'diff', id: d.id }));
    seen.add(d.id);
    const lines = diffLines(d.diff);
    if (!Array.isArray(lines)) {
      const at = placeOf(assistant, ['diffs', i, 'diff']);
      // A block scalar (`|`) starts its text on the line after the indicator: point at the bad line itself.
      const block = at.line !== undefined && /^[|>]/.test((assistant.text.split('\n')[at.line - 1] ?? '').slice((at.column ?? 1) - 1));
      out.push(diagnose(LabErrors.DrillDiffMalformed, block ? { file: at.file, line: at.line! + lines.line, column: 1 } : at, { diff: d.id, line: lines.line, reason: lines.reason }));
    }
    if (d.key.verdict === 'accept-with-change' && !d.key.change) out.push(diagnose(LabErrors.DrillChangeMissing, placeOf(assistant, ['diffs', i, 'key', 'verdict']), { diff: d.id }));
  });
  const trees = new Set(entries.filter((e) => e.kind === 'file' && /^(starter|sample|hidden|mutants|replies)\//.test(e.path)).map((e) => e.path.split('/')[0]!));
  for (const tree of [...trees].sort()) out.push(diagnose(LabErrors.DrillTreeUnused, { file: `${dir}/${tree}` }, { tree }));
  return out;
}

export const drillKind: KindDescriptor<Drill> = defineKind<Drill>({
  kind: 'drill',
  word: 'drill',
  parts: ['prompt', 'rubric', 'assistant'],
  promptSchema: drillPromptSchema,
  autoChecks: ['choices'],
  missingPart: (file, part) => kindPartMissing(drillKind, file, part),
  assemble(parts, source) {
    const assistant = parts.assistant!;
    const diagnostics = [...rubricChecks(parts.rubric!, drillKind), ...drillChecks(source.dir, assistant, source.entries)];
    if (parts.prompt!.data.variants !== undefined) diagnostics.push(diagnose(GradeErrors.DrillVariantsUnsupported, placeOf(parts.prompt!, ['variants'], 'key'), {}));
    for (const e of source.entries) {
      if (e.kind === 'symlink') diagnostics.push(diagnose(Errors.SymlinkInTree, { file: `${source.dir}/${e.path}` }, { path: e.path }));
      else if (e.kind === 'other') diagnostics.push(diagnose(Errors.UnreadableFile, { file: `${source.dir}/${e.path}` }, { reason: 'it is not a regular file' }));
    }
    const packet: Drill = {
      kind: 'drill',
      id: source.id,
      dir: source.dir,
      digest: packetDigest(source.entries),
      // The prompt was validated against this kind's own schema (promptSchema above).
      prompt: parts.prompt as unknown as Part<DrillPromptFrontmatter>,
      rubric: parts.rubric!,
      assistant,
      diffs: assistant.data.diffs ?? [],
      entries: source.entries,
    };
    return { packet, diagnostics };
  },
  collection: 'drills',
  scaffold: 'scaffold-drill',
  publicView: (packet) => publicDrill(packet),
});
