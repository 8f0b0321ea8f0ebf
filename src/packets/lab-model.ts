/**
 * A lab's suggestions resolved against its starter: each one's region (by anchor or line range),
 * the three versions of that region, and each changed file as segments (see lab-compose.ts).
 * Pure: the starter's text comes in with the source.
 *
 * Regions are whole lines. An anchor, and the offered and revised versions, are written at
 * column 0 (as YAML block scalars hold them): the anchor matches lines that carry one more
 * leading indentation, and the versions get the region's indentation, so a suggestion inside a
 * function reads in assistant.mdx as it would at the top of a file.
 */
import { diagnose } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { LabErrors } from '../errors/lab-catalog.ts';
import { normalizeRegion, type ComposeFile, type ComposeModel, type ComposeSuggestion, type LabState } from './lab-compose.ts';
import type { Part } from './part.ts';
import { placeOf } from './place.ts';
import type { AssistantFrontmatter, LabKey } from './schema/assistant.ts';

/** One suggestion of a lab, resolved. */
export interface LabSuggestion extends ComposeSuggestion {
  /** Its place in the assistant's list (and in the combination table). */
  index: number;
  /** What the candidate asked. */
  ask: string;
  /** What the assistant said. */
  message: string;
  /** The right choice and why (reviewer material). */
  key: LabKey;
}

/** A lab, resolved: its suggestions in order and the files they change, as segments. */
export interface LabModel extends ComposeModel {
  suggestions: LabSuggestion[];
  files: ComposeFile[];
}

/** The key's combination: each suggestion's right choice, in order (the states `composeLab` composes into the key's answer). */
export function keyCombination(model: Pick<LabModel, 'suggestions'>): LabState[] {
  return model.suggestions.map((s) => s.key.choice);
}

interface Region {
  index: number;
  id: string;
  file: string;
  start: number;
  end: number;
  fromLine: number;
  toLine: number;
  /** The whitespace the region's lines start with; the offered and revised versions get it too. */
  indent: string;
}

/** Character offset where each line starts, with the text's length last. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) if (i + 1 < text.length) starts.push(i + 1);
  starts.push(text.length);
  return starts;
}

/** The lines of a text, without the newline that ends the last one. */
function linesOf(text: string): string[] {
  return text.replace(/\n$/, '').split('\n');
}

/** The whitespace every non-blank line of a region starts with. */
function commonIndent(lines: readonly string[]): string {
  let indent: string | null = null;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const own = /^[ \t]*/.exec(line)![0];
    if (indent === null) indent = own;
    else while (!own.startsWith(indent)) indent = indent.slice(0, -1);
  }
  return indent ?? '';
}

/**
 * Where an anchor's lines occur in a file, as the index of each first line: the file's lines must
 * be the anchor's with the same leading whitespace added to every non-blank one.
 */
function anchorMatches(fileLines: readonly string[], anchor: string): number[] {
  const want = linesOf(anchor.replace(/\r\n?/g, '\n'));
  const out: number[] = [];
  for (let i = 0; i + want.length <= fileLines.length; i++) {
    const first = fileLines[i]!;
    if (!first.endsWith(want[0]!) || first.slice(0, first.length - want[0]!.length).trim() !== '') continue;
    const indent = first.slice(0, first.length - want[0]!.length);
    if (want.every((line, j) => (line.trim() === '' ? fileLines[i + j]!.trim() === '' : fileLines[i + j] === indent + line))) out.push(i);
  }
  return out;
}

/** A version of a region as it goes into the file: indented like the region, ending in a newline when the region does. */
function placed(variant: string, indent: string, original: string): string {
  if (variant === '') return '';
  const body = linesOf(variant.replace(/\r\n?/g, '\n'))
    .map((line) => (line.trim() === '' ? '' : indent + line))
    .join('\n');
  return original.endsWith('\n') ? `${body}\n` : body;
}

/** `src/slug.py:12-18 (suggestion "length-cut")`. */
function describe(r: Region): string {
  return `${r.file}:${r.fromLine === r.toLine ? r.fromLine : `${r.fromLine}-${r.toLine}`} (suggestion "${r.id}")`;
}

/**
 * Resolve a lab's suggestions. Every problem is a diagnostic at its own field of assistant.mdx;
 * the model comes back only when every suggestion resolved and no regions overlap.
 */
export function resolveLab(part: Part<AssistantFrontmatter>, starterText: Readonly<Record<string, string>>): { model?: LabModel; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const suggestions = part.data.suggestions ?? [];
  const regions: Region[] = [];
  suggestions.forEach((s, index) => {
    const at = (field: string) => placeOf(part, ['suggestions', index, field]);
    const text = starterText[s.file]?.replace(/\r\n?/g, '\n');
    if (text === undefined) return void diagnostics.push(diagnose(LabErrors.LabFileMissing, at('file'), { suggestion: s.id, file: s.file }));
    if ((s.anchor === undefined) === (s.lines === undefined)) {
      const problem = s.anchor === undefined ? 'gives neither "anchor" nor "lines"' : 'gives both "anchor" and "lines"';
      return void diagnostics.push(diagnose(LabErrors.LabRegionUnspecified, placeOf(part, ['suggestions', index]), { suggestion: s.id, problem }));
    }
    const starts = lineStarts(text);
    const fileLines = linesOf(text);
    let from: number;
    let to: number;
    if (s.anchor !== undefined) {
      const found = anchorMatches(fileLines, s.anchor);
      if (!found.length) return void diagnostics.push(diagnose(LabErrors.LabAnchorMissing, at('anchor'), { suggestion: s.id, file: s.file }));
      if (found.length > 1) return void diagnostics.push(diagnose(LabErrors.LabAnchorAmbiguous, at('anchor'), { suggestion: s.id, file: s.file, lines: found.map((i) => i + 1).join(', ') }));
      from = found[0]! + 1;
      to = from + linesOf(s.anchor).length - 1;
    } else {
      ({ from, to } = s.lines!);
      const count = starts.length - 1;
      if (from > to || to > count) return void diagnostics.push(diagnose(LabErrors.LabLinesOutOfRange, at('lines'), { suggestion: s.id, file: s.file, from, to, count }));
    }
    regions.push({ index, id: s.id, file: s.file, start: starts[from - 1]!, end: starts[to]!, fromLine: from, toLine: to, indent: commonIndent(fileLines.slice(from - 1, to)) });
  });

  // Overlaps, per file, each reported at the later suggestion, naming both regions.
  const byFile = new Map<string, Region[]>();
  for (const r of regions) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r]);
  let overlap = false;
  for (const list of byFile.values()) {
    list.sort((a, b) => a.start - b.start || a.index - b.index);
    for (let i = 1; i < list.length; i++) {
      const later = list[i]!;
      const clash = list.slice(0, i).find((earlier) => later.start < earlier.end);
      if (!clash) continue;
      overlap = true;
      const [first, second] = clash.index < later.index ? [clash, later] : [later, clash];
      const s = suggestions[second.index]!;
      diagnostics.push(diagnose(LabErrors.LabRegionOverlap, placeOf(part, ['suggestions', second.index, s.anchor !== undefined ? 'anchor' : 'lines']), { first: describe(first), second: describe(second) }));
    }
  }

  const resolved: LabSuggestion[] = [];
  for (const r of [...regions].sort((a, b) => a.index - b.index)) {
    const s = suggestions[r.index]!;
    const text = starterText[r.file]!.replace(/\r\n?/g, '\n');
    const original = text.slice(r.start, r.end);
    const offered = placed(s.offered, r.indent, original);
    const revised = placed(s.revised, r.indent, original);
    const same = [
      normalizeRegion(original) === normalizeRegion(offered) ? "the starter's region and the offered change" : '',
      normalizeRegion(original) === normalizeRegion(revised) ? "the starter's region and the revised change" : '',
      normalizeRegion(offered) === normalizeRegion(revised) ? 'the offered and the revised change' : '',
    ].filter(Boolean);
    if (same.length) diagnostics.push(diagnose(LabErrors.LabVariantsSame, placeOf(part, ['suggestions', r.index, 'offered']), { suggestion: s.id, same: same.join(', and ') }));
    resolved.push({ index: r.index, id: s.id, file: r.file, fromLine: r.fromLine, toLine: r.toLine, original, offered, revised, ask: s.ask, message: s.message, key: s.key });
  }
  if (overlap || diagnostics.some((d) => d.severity === 'error') || resolved.length !== suggestions.length) return { diagnostics };

  const files: ComposeFile[] = [];
  for (const [file, list] of [...byFile].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const text = starterText[file]!.replace(/\r\n?/g, '\n');
    const segments: (string | number)[] = [];
    let at = 0;
    for (const r of list) {
      if (r.start > at) segments.push(text.slice(at, r.start));
      segments.push(r.index);
      at = r.end;
    }
    if (at < text.length) segments.push(text.slice(at));
    files.push({ path: file, segments });
  }
  return { model: { suggestions: resolved, files }, diagnostics };
}
