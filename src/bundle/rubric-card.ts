import type { RootContent } from 'mdast';
import type { RubricFrontmatter } from '../packets/schema/rubric.ts';
import type { BodySource } from '../packets/markdown-tree.ts';
import { REVIEWER_NOTES_HEADING, splitRubricBody } from '../packets/rubric-notes.ts';
import { code, heading, list, paragraph, renderBody, strong } from './markdown.ts';

const AUTO_WORDS: Record<string, string> = {
  tests: 'pre-filled by the test run (visible and held-out tests)',
  'hidden-tests': 'pre-filled by the held-out tests',
  'visible-tests': 'pre-filled by the visible tests',
  protected: 'pre-filled by the protected-files check',
  workspace: 'pre-filled by the workspace contract check',
  choices: 'pre-filled from the answer sheet against the key: the row\'s maximum times the share of choices that match, rounded down',
};

/** The total points of a rubric. */
export function rubricTotal(rubric: RubricFrontmatter): number {
  return rubric.rows.reduce((sum, r) => sum + r.max, 0);
}

/**
 * The rubric card as Markdown nodes: every row with its points and level descriptors (highest
 * first), the hire bar and the vetoes. The same card goes to the candidate (RUBRIC.md) and to
 * the reviewer (KEY.md). `depth` is the level of the card's section headings.
 */
export function rubricCard(rubric: RubricFrontmatter, depth: 2 | 3 = 2): RootContent[] {
  const total = rubricTotal(rubric);
  const sub = (depth + 1) as 3 | 4;
  const out: RootContent[] = [
    paragraph(`Scored by a reviewer in at most ${rubric.minutes} minutes: ${rubric.rows.length} rows, ${total} points. Hire bar: ${rubric.hireBar} of ${total}.`),
    heading(depth, 'Rows'),
  ];
  rubric.rows.forEach((row, i) => {
    out.push(heading(sub, `${i + 1}. `, code(row.id), ` (0-${row.max} points)`));
    out.push(paragraph(row.criterion));
    const levels = Object.entries(row.levels)
      .map(([points, words]) => [Number(points), words] as const)
      .sort((a, b) => b[0] - a[0]);
    out.push(list(levels.map(([points, words]) => [strong(String(points)), `: ${words}`])));
    if (row.auto) out.push(paragraph(`Automatic: ${AUTO_WORDS[row.auto] ?? row.auto}${row.auto === 'choices' ? '.' : '; full marks when it passes, 0 when it fails.'}`));
  });
  out.push(heading(depth, 'Hire bar'));
  out.push(paragraph(`${rubric.hireBar} of ${total} points, and no veto.`));
  if (rubric.vetoes.length) {
    out.push(heading(depth, 'Vetoes'));
    out.push(paragraph('Each of these is a no, whatever the total:'));
    out.push(list(rubric.vetoes.map((v) => [code(v.row), ` ${v.atMost === 0 ? 'at 0' : `at ${v.atMost} or below`}: ${v.note}`])));
  }
  return out;
}

/**
 * The rubric's reviewer-only sections (see src/packets/rubric-notes.ts) as a KEY.md section under
 * a level-2 heading, their own headings nested under it; nothing when the rubric has none.
 */
export function reviewerNotesSection(rubric: BodySource): RootContent[] {
  const split = splitRubricBody(rubric);
  if (!split.reviewerBody) return [];
  const notes = renderBody(split.reviewerBody, rubric.file, { shiftHeadings: Math.max(0, 2 - split.depth) });
  if (!notes.children.length) return [];
  return [
    heading(2, REVIEWER_NOTES_HEADING),
    paragraph('From the rubric\'s reviewer-only sections: not in the candidate\'s RUBRIC.md, nor on the site.'),
    ...notes.children,
  ];
}
