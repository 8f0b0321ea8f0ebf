/**
 * A drill's checks across its files: the assistant lists diffs (each a well-formed diff with a
 * key), a verdict that asks for a change names it, the ids are unique, and no code tree sits
 * in the folder (nothing would run it).
 */
import { diagnose, Errors } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { LabErrors } from '../errors/lab-catalog.ts';
import type { Part } from './part.ts';
import { placeOf } from './place.ts';
import type { AssistantFrontmatter } from './schema/assistant.ts';
import type { PacketEntry } from './source.ts';

/** The kind of each line of a diff: unchanged, added, removed, a hunk header, or a note (`\ No newline...`). */
export type DiffLineKind = 'context' | 'add' | 'del' | 'hunk' | 'note';

/** One line of a drill's diff. */
export interface DiffLine {
  kind: DiffLineKind;
  /** The line without its prefix (the header as written, for a hunk). */
  text: string;
}

/** Read a diff's lines; a line that is none of the kinds comes back as its 1-based number and why. */
export function diffLines(diff: string): DiffLine[] | { line: number; reason: string } {
  const lines = diff.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
  const out: DiffLine[] = [];
  for (const [i, line] of lines.entries()) {
    if (line === '') out.push({ kind: 'context', text: '' });
    else if (line.startsWith('@@')) out.push({ kind: 'hunk', text: line });
    else if (line.startsWith('\\')) out.push({ kind: 'note', text: line });
    else if (line[0] === ' ') out.push({ kind: 'context', text: line.slice(1) });
    else if (line[0] === '+') out.push({ kind: 'add', text: line.slice(1) });
    else if (line[0] === '-') out.push({ kind: 'del', text: line.slice(1) });
    else return { line: i + 1, reason: `starts with "${line[0]}"` };
  }
  if (!out.some((l) => l.kind === 'add' || l.kind === 'del')) return { line: 1, reason: 'adds and removes nothing' };
  return out;
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
