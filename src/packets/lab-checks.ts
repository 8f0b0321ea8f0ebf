/**
 * A lab's checks across its files: the assistant lists suggestions, each changes a file the
 * candidate may change (never a protected test), the ids are unique, and the test command is one
 * the table's driver can run. Region problems (anchors, overlaps) come from `resolveLab`.
 */
import picomatch from 'picomatch';
import { diagnose, Errors } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { LabErrors } from '../errors/lab-catalog.ts';
import type { Part } from './part.ts';
import { placeOf } from './place.ts';
import type { AssistantFrontmatter } from './schema/assistant.ts';
import type { PromptFrontmatter } from './schema/prompt.ts';
import { unittestDiscovery } from './unittest-command.ts';

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
