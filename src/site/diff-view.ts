/**
 * Lines of a change as the site shows it: unchanged, added and removed lines, each with its
 * marker, for a highlighted block whose added and removed lines are tinted. A lab's change is
 * worked out from the region before and after; a drill's diff is shown as written.
 */
import { diffLines } from 'diff';
import { diffLines as drillDiffLines } from '../packets/diff-lines.ts';

/** One shown line. */
export interface ShownLine {
  kind: 'context' | 'add' | 'del' | 'hunk' | 'note';
  text: string;
}

/** The change from one region text to another, line by line. */
export function changeLines(before: string, after: string): ShownLine[] {
  const out: ShownLine[] = [];
  for (const part of diffLines(before.endsWith('\n') ? before : `${before}\n`, after.endsWith('\n') || after === '' ? after : `${after}\n`)) {
    const kind = part.added ? 'add' : part.removed ? 'del' : 'context';
    for (const line of part.value.replace(/\n$/, '').split('\n')) if (part.value !== '') out.push({ kind, text: line });
  }
  return out;
}

/** A drill's diff, line by line (it was checked when the drill loaded). */
export function drillLines(diff: string): ShownLine[] {
  const lines = drillDiffLines(diff);
  return Array.isArray(lines) ? lines : diff.split('\n').map((text) => ({ kind: 'context', text }));
}

const MARK: Record<ShownLine['kind'], string> = { context: ' ', add: '+', del: '-', hunk: '', note: '' };

/** The block's text: each line behind its marker (`+`, `-` or a space); hunk headers and notes as written. */
export function shownText(lines: readonly ShownLine[]): string {
  return lines.map((l) => (l.kind === 'hunk' || l.kind === 'note' ? l.text : `${MARK[l.kind]}${l.text}`)).join('\n');
}
