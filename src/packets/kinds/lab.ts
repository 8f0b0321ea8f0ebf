/**
 * A lab: an AI-assisted round over a small codebase. Its checks across files: the assistant lists
 * suggestions, each changes a file the candidate may change (never a protected test), the ids are
 * unique, and the test command is one the table's driver can run. Region problems (anchors,
 * overlaps) come from `resolveLab`.
 */
import picomatch from 'picomatch';
import { diagnose, Errors } from '../../errors/catalog.ts';
import type { Diagnostic } from '../../errors/diagnostic.ts';
import { LabErrors } from '../../errors/lab-catalog.ts';
import { crossCheck } from '../cross-checks.ts';
import { packetDigest } from '../digest.ts';
import { resolveLab } from '../lab-model.ts';
import type { LabModel } from '../lab-model.ts';
import type { CodePacketBase } from '../packet-base.ts';
import type { Part, PartData } from '../part.ts';
import { placeOf } from '../place.ts';
import { publicPacket } from '../public.ts';
import { promptSchema, type AssistantFrontmatter, type PromptFrontmatter } from '../schema/index.ts';
import { treesOf } from '../trees.ts';
import { unittestDiscovery } from '../unittest-command.ts';
import { defineKind, kindPartMissing, type KindDescriptor } from './kind.ts';

/** A lab: prompt, rubric and the scripted assistant's suggestions over a starter. */
export interface Lab extends CodePacketBase {
  kind: 'lab';
  /** The scripted assistant (`assistant.mdx`). */
  assistant: Part<PartData<'assistant'>>;
  /** The suggestions resolved against the starter: regions, segments, versions. Absent when they do not resolve (the load reports why). */
  lab?: LabModel;
}

/** Problems of a lab's assistant part against its prompt. */
export function labChecks(prompt: Part<PromptFrontmatter>, assistant: Part<AssistantFrontmatter>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { suggestions, diffs } = assistant.data;
  if (!suggestions) out.push(diagnose(LabErrors.AssistantListMismatch, placeOf(assistant, []), { kind: 'lab', problem: 'lists no suggestions' }));
  if (diffs) out.push(diagnose(LabErrors.AssistantListMismatch, placeOf(assistant, ['diffs'], 'key'), { kind: 'lab', problem: 'lists diffs, which only a drill has' }));
  const isProtected = prompt.data.protected.length ? picomatch(prompt.data.protected, { dot: true }) : () => false;
  const allowed = picomatch(prompt.data.workspace.allow, { dot: true });
  const seen = new Set<string>();
  suggestions?.forEach((s, i) => {
    if (seen.has(s.id)) out.push(diagnose(Errors.DuplicateEntryId, placeOf(assistant, ['suggestions', i, 'id']), { kind: 'suggestion', id: s.id }));
    seen.add(s.id);
    if (isProtected(s.file)) out.push(diagnose(LabErrors.LabFileProtected, placeOf(assistant, ['suggestions', i, 'file']), { suggestion: s.id, file: s.file }));
    else if (!allowed(s.file)) out.push(diagnose(LabErrors.LabFileOutsideAllow, placeOf(assistant, ['suggestions', i, 'file']), { suggestion: s.id, file: s.file, allow: prompt.data.workspace.allow.join(', ') }));
  });
  if (!unittestDiscovery(prompt.data.test)) out.push(diagnose(LabErrors.LabTestCommand, placeOf(prompt, ['test']), { command: prompt.data.test }));
  return out;
}

export const labKind: KindDescriptor<Lab> = defineKind<Lab>({
  kind: 'lab',
  word: 'lab',
  parts: ['prompt', 'rubric', 'assistant'],
  promptSchema,
  autoChecks: ['tests', 'hidden-tests', 'visible-tests', 'choices'],
  missingPart: (file, part) => kindPartMissing(labKind, file, part),
  assemble(parts, source) {
    const assistant = parts.assistant!;
    const packet: Lab = {
      kind: 'lab',
      id: source.id,
      dir: source.dir,
      digest: packetDigest(source.entries),
      prompt: parts.prompt!,
      rubric: parts.rubric!,
      assistant,
      entries: source.entries,
      trees: treesOf(source.entries),
    };
    const diagnostics = labChecks(packet.prompt, assistant);
    const resolved = resolveLab(assistant, source.starterText ?? {});
    diagnostics.push(...resolved.diagnostics);
    if (resolved.model && assistant.data.suggestions) packet.lab = resolved.model;
    diagnostics.push(...crossCheck(packet, labKind));
    return { packet, diagnostics };
  },
  collection: 'packets',
  scaffold: 'scaffold-lab',
  publicView: (packet, readStarter) => publicPacket(packet, readStarter),
});
