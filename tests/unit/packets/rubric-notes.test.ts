import { describe, expect, it } from 'vitest';
import { isReviewerNotesHeading, publicRubricText, splitRubricBody } from '../../../src/packets/rubric-notes.ts';

const split = (body: string, bodyLine = 1) => splitRubricBody({ file: 'packets/x/rubric.mdx', body, bodyLine });

describe('the reviewer-only sections of a rubric body', () => {
  it('keeps a body without them as it is', () => {
    const body = '\nRead the notes first.\n\n## How to score\n\nTests, then the diff.\n';
    expect(split(body)).toEqual({ publicBody: body, reviewerBody: '', depth: 1, reviewerLines: [] });
  });

  it('takes "## Reviewer notes" and its subsections out, up to the next heading of its level', () => {
    const body = [
      '',
      'Style is not graded.',
      '',
      '## Reviewer notes',
      '',
      'The hidden test feeds `1h30` and expects a ValueError.',
      '',
      '### Fast path',
      '',
      'grep -n 142 src/',
      '',
      '## What a hire looks like',
      '',
      'Green tests and honest notes.',
      '',
    ].join('\n');
    const s = split(body, 40);
    expect(s.publicBody).toBe('\nStyle is not graded.\n\n## What a hire looks like\n\nGreen tests and honest notes.\n');
    expect(s.reviewerBody).toBe('The hidden test feeds `1h30` and expects a ValueError.\n\n### Fast path\n\ngrep -n 142 src/\n');
    expect(s.depth).toBe(2);
    // File lines: the body's first line is line 40 of rubric.mdx.
    expect(s.reviewerLines.map((l) => l.line)).toEqual([43, 44, 45, 46, 47, 48, 49, 50]);
    expect(s.reviewerLines[0]).toEqual({ text: '## Reviewer notes', line: 43 });
  });

  it('runs to the end of the body, and a "#" heading ends a "##" section', () => {
    expect(split('\n# Reviewer notes\n\nAll of this.\n## Still inside\n').publicBody).toBe('');
    const s = split('\n## Reviewer notes\nsecret\n# Public again\nshown\n');
    expect(s.publicBody).toBe('\n# Public again\nshown\n');
    expect(s.reviewerBody).toBe('secret\n');
  });

  it('matches the heading with case, spacing and closing hashes aside, and no other heading', () => {
    expect(isReviewerNotesHeading('reviewer   NOTES ')).toBe(true);
    expect(isReviewerNotesHeading('Reviewer notes on the plan')).toBe(false);
    expect(split('\n##   reviewer notes ##\nsecret\n').publicBody).toBe('');
    expect(split('\n## Notes for the reviewer\nshown\n').publicBody).toBe('\n## Notes for the reviewer\nshown\n');
  });

  it('reads no heading inside fenced code', () => {
    const body = '\n```md\n## Reviewer notes\n```\nshown\n~~~\n# Reviewer notes\n~~~\n';
    expect(split(body).publicBody).toBe(body);
  });

  it('takes a <ReviewerNotes> element out, tags included, anywhere in the body', () => {
    const body = '\nShown first.\n\n<ReviewerNotes>\nThe mutant swaps `>=` for `>`.\n</ReviewerNotes>\n\nShown last.\n';
    const s = split(body);
    expect(s.publicBody).toBe('\nShown first.\n\n\nShown last.\n');
    expect(s.reviewerBody).toBe('<ReviewerNotes>\nThe mutant swaps `>=` for `>`.\n</ReviewerNotes>\n');
    expect(s.depth).toBe(1);
    // An element left open runs to the end: nothing after it ships.
    expect(split('\nShown.\n<ReviewerNotes>\nsecret\n').publicBody).toBe('\nShown.\n');
  });

  it('takes out a heading written with emphasis or code, and a setext heading', () => {
    expect(isReviewerNotesHeading('*Reviewer notes*')).toBe(true);
    expect(split('\nShown.\n## **Reviewer notes**\nsecret\n').publicBody).toBe('\nShown.\n');
    expect(split('\nShown.\n## _Reviewer_ `notes`:\nsecret\n').publicBody).toBe('\nShown.\n');
    const s = split('\nShown.\n\nReviewer notes\n--------------\n\nsecret\n\n## Scoring\n\nshown\n');
    expect(s.publicBody).toBe('\nShown.\n\n## Scoring\n\nshown\n');
    expect(s.reviewerBody).toBe('secret\n');
    expect(split('\nReviewer notes\n===\nsecret\n').publicBody).toBe('');
    // MDX has no indented code: an indented heading inside a JSX block is one.
    expect(split('\nShown.\n<div>\n    ## Reviewer notes\n    secret\n</div>\n').publicBody).toBe('\nShown.\n<div>\n');
    // A thematic break after a blank line is no heading.
    expect(split('\nReviewer notes\n\n---\nshown\n').publicBody).toBe('\nReviewer notes\n\n---\nshown\n');
  });

  it('takes out a <ReviewerNotes> element written on one line, with attributes or text beside its tags', () => {
    expect(split('\nShown.\n<ReviewerNotes>secret</ReviewerNotes>\nshown\n').publicBody).toBe('\nShown.\nshown\n');
    expect(split('\nShown.\n  <ReviewerNotes id="k">secret\nmore</ReviewerNotes>\nshown\n').publicBody).toBe('\nShown.\nshown\n');
    expect(split('\nShown.\n<reviewernotes>\nsecret\n</reviewernotes>\n').publicBody).toBe('\nShown.\n');
  });

  it('gives the public text of the whole file, frontmatter kept, reviewer lines out', () => {
    const text = '---\nminutes: 5\n---\n\nShown.\n\n## Reviewer notes\n\nsecret line\n';
    const s = splitRubricBody({ file: 'r.mdx', body: '\nShown.\n\n## Reviewer notes\n\nsecret line\n', bodyLine: 4 });
    expect(publicRubricText(text, s)).toBe('---\nminutes: 5\n---\n\nShown.\n');
    expect(publicRubricText(text.replace(/\n/g, '\r\n'), s)).toBe('---\nminutes: 5\n---\n\nShown.\n');
  });
});
