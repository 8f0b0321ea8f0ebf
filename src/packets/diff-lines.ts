/** A drill diff's lines: what each line of a unified diff is. */

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
