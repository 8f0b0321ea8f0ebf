/**
 * The reviewer-only sections of a rubric body. The body of `rubric.mdx` ships to the candidate
 * (RUBRIC.md in the zip, the public rubric page); the sections below never do, they go to the
 * reviewer bundle's KEY.md only, and the canary scan treats each of their distinctive lines as a
 * secret:
 *
 * - a heading whose text is `Reviewer notes` (`## Reviewer notes`, any level, case, spacing,
 *   emphasis or code marks and a closing colon aside; an ATX heading or a setext one, underlined
 *   with `===` or `---`) and everything after it up to the next ATX heading of the same level or a
 *   higher one (`#` or `##` after `## Reviewer notes`), or to the end of the body. Only ATX
 *   headings end a section: a setext line inside one keeps it going, so a `---` under a line of
 *   notes never lets the rest ship;
 * - the lines from the line holding a `<ReviewerNotes>` tag (attributes and text beside it
 *   allowed, case aside) to the line holding its `</ReviewerNotes>` (the same line for an element
 *   written on one line), or to the end of the body. Whole lines go: text beside a tag on its
 *   line stays with the reviewer too.
 *
 * A heading may be indented any amount: MDX has no indented code, so an indented `## Reviewer notes`
 * inside a JSX block is a heading there (and in RUBRIC.md, code that still shows its text).
 *
 * The split is by whole lines of the source, read line by line (fenced code skipped, so a `#` in
 * a code block is no heading) without the Markdown parser, so the public part is the author's
 * own MDX with the reviewer-only lines taken out, and line numbers stay those of the file.
 */
import type { BodySource } from './markdown-tree.ts';

/** The heading that opens a reviewer-only section (compared with case and spacing aside). */
export const REVIEWER_NOTES_HEADING = 'Reviewer notes';

/** The MDX element whose content is reviewer-only. */
export const REVIEWER_NOTES_ELEMENT = 'ReviewerNotes';

/** A rubric body split into what ships and what stays with the reviewer. */
export interface RubricBodySplit {
  /** The body without its reviewer-only sections: what RUBRIC.md, the rubric page and every public page are made from. */
  publicBody: string;
  /** The reviewer-only sections, in order, without their `Reviewer notes` headings (KEY.md gives its own); empty when there are none. */
  reviewerBody: string;
  /** The level of the shallowest `Reviewer notes` heading (1 when the sections are elements only), to nest the reviewer body under KEY.md's heading. */
  depth: number;
  /** Every line of the reviewer-only sections, headings included, with its 1-based file line. */
  reviewerLines: { text: string; line: number }[];
}

/** True when a heading's text is `Reviewer notes`, case and spacing aside. */
export function isReviewerNotesHeading(text: string): boolean {
  const plain = text
    .replace(/[*_`~]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\s*:$/, '');
  return plain.toLowerCase() === REVIEWER_NOTES_HEADING.toLowerCase();
}

/** A reviewer-only range of body lines, 0-based, `end` exclusive; `skip` lines at its start are not reviewer text (its heading). */
interface Range {
  start: number;
  end: number;
  skip: number;
}

const ATX = /^[ \t]*(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const OPEN = new RegExp(`<${REVIEWER_NOTES_ELEMENT}(?:\\s[^>]*?)?(?<!/)>`, 'i');
const CLOSE = new RegExp(`</${REVIEWER_NOTES_ELEMENT}\\s*>`, 'i');
/** A setext underline: `===` (level 1) or `---` (level 2) under a paragraph. */
const SETEXT = /^[ \t]*(=+|-+)[ \t]*$/;
/** A line that starts a block other than a paragraph, so a `---` under it is no setext underline. */
const NOT_PARAGRAPH = /^ {0,3}(?:[-*+][ \t]|\d{1,9}[.)][ \t]|>|<|\||#)/;

/** The headings of a body (0-based line, level, text) and its element ranges, fenced code skipped. */
function rangesOf(lines: readonly string[]): { ranges: Range[]; depth: number } {
  const headings: { line: number; depth: number; text: string }[] = [];
  const elements: Range[] = [];
  let fence: string | undefined;
  const setext: { start: number; skip: number; level: number }[] = [];
  let open: number | undefined;
  let paragraph: number | undefined;
  let depth = Infinity;
  lines.forEach((line, i) => {
    if (fence) {
      if (new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(line)) fence = undefined;
      return;
    }
    const f = FENCE.exec(line);
    if (f) {
      fence = f[1];
      paragraph = undefined;
      return;
    }
    if (open === undefined) {
      const o = OPEN.exec(line);
      if (o) {
        if (CLOSE.test(line.slice(o.index + o[0].length))) elements.push({ start: i, end: i + 1, skip: 0 });
        else open = i;
      }
    } else if (CLOSE.test(line)) {
      elements.push({ start: open, end: i + 1, skip: 0 });
      open = undefined;
    }
    const h = ATX.exec(line);
    if (h) {
      headings.push({ line: i, depth: h[1]!.length, text: h[2] ?? '' });
      paragraph = undefined;
      return;
    }
    const u = SETEXT.exec(line);
    if (u && paragraph !== undefined && isReviewerNotesHeading(lines.slice(paragraph, i).join(' '))) {
      // A setext "Reviewer notes" opens a section that runs to the next ATX heading of its level or a higher one.
      const level = u[1]![0] === '=' ? 1 : 2;
      depth = Math.min(depth, level);
      setext.push({ start: paragraph, skip: i - paragraph + 1, level });
    }
    if (!line.trim() || u) paragraph = undefined;
    else if (paragraph === undefined && !NOT_PARAGRAPH.test(line)) paragraph = i;
  });
  if (open !== undefined) elements.push({ start: open, end: lines.length, skip: 0 });
  const ranges: Range[] = [...elements];
  for (const { start, skip, level } of setext) {
    const end = headings.find((h) => h.line > start && h.depth <= level)?.line ?? lines.length;
    ranges.push({ start, end, skip });
  }
  for (let k = 0; k < headings.length; k++) {
    const h = headings[k]!;
    if (!isReviewerNotesHeading(h.text)) continue;
    depth = Math.min(depth, h.depth);
    let j = k + 1;
    while (j < headings.length && headings[j]!.depth > h.depth) j++;
    ranges.push({ start: h.line, end: headings[j]?.line ?? lines.length, skip: 1 });
    k = j - 1;
  }
  ranges.sort((a, b) => a.start - b.start);
  return { ranges, depth: depth === Infinity ? 1 : depth };
}

/** Split a rubric body into its public part and its reviewer-only sections (see the module note). */
export function splitRubricBody(part: BodySource): RubricBodySplit {
  const lines = part.body.split('\n');
  const { ranges, depth } = rangesOf(lines);
  if (!ranges.length) return { publicBody: part.body, reviewerBody: '', depth, reviewerLines: [] };
  const reviewer = new Set<number>();
  const sections: string[] = [];
  let covered = -1;
  for (const r of ranges) {
    for (let i = r.start; i < r.end; i++) reviewer.add(i);
    // An element inside a heading's section is already part of it.
    if (r.end <= covered) continue;
    const text = lines.slice(Math.max(r.start + r.skip, covered), r.end).join('\n').trim();
    covered = r.end;
    if (text) sections.push(text);
  }
  const publicLines = lines.filter((_, i) => !reviewer.has(i));
  const publicBody = `${publicLines.join('\n').trimEnd()}\n`;
  const reviewerLines = [...reviewer].sort((a, b) => a - b).map((i) => ({ text: lines[i]!, line: i + part.bodyLine }));
  return {
    publicBody: publicBody.trim() ? publicBody : '',
    reviewerBody: sections.length ? `${sections.join('\n\n')}\n` : '',
    depth,
    reviewerLines,
  };
}

/** A rubric file's text (frontmatter and body, as read) without its reviewer-only lines: the part of the file a candidate may read. */
export function publicRubricText(text: string, split: Pick<RubricBodySplit, 'reviewerLines'>): string {
  if (!split.reviewerLines.length) return text;
  const drop = new Set(split.reviewerLines.map((l) => l.line));
  return text
    .split(/\r?\n/)
    .filter((_, i) => !drop.has(i + 1))
    .join('\n');
}
