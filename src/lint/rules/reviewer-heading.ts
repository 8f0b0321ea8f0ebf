import type { Heading, Nodes } from 'mdast';
import { LintErrors } from '../../errors/lint-catalog.ts';
import { plainText } from '../../packets/markdown-tree.ts';
import { isReviewerNotesHeading, splitRubricBody } from '../../packets/rubric-notes.ts';
import { defineRule, type Finding } from '../rule.ts';

/** Words of a heading written for the reviewer, not the candidate. */
const FOR_REVIEWERS = /\b(reviewers?|graders?|grading|marking|answer key|scoring key|not for (the )?candidates?)\b/i;

/** Where each part's body ships. */
const SHIPS: Partial<Record<string, string>> = {
  prompt: 'PROMPT.md and the packet page',
  rubric: 'RUBRIC.md and the rubric page',
};

export const reviewerHeading = defineRule({
  id: 'reviewer-heading',
  defaultSeverity: 'warning',
  entry: LintErrors.ReviewerHeadingShips,
  kinds: ['takehome', 'lab', 'drill'],
  docs: {
    summary:
      'The bodies of prompt.mdx and rubric.mdx are public: the zip holds them as PROMPT.md and RUBRIC.md, and the site shows them. The one section that stays with the reviewer is a `## Reviewer notes` heading of rubric.mdx (any level) and what follows it up to the next heading of its level (docs/format.md, "The body of rubric.mdx"). A heading that reads as meant for reviewers ("Notes for the grader", "Reviewer tips", or `Reviewer notes` in the prompt) but is not that one ships all the same; it is reported at the heading.',
    bad: '## Notes for the reviewer\n\nThe held-out test feeds `1h30`.',
    good: '## Reviewer notes\n\nThe held-out test feeds `1h30`.',
  },
  check(ctx) {
    const out: Finding<{ heading: string; part: string; ships: string }>[] = [];
    for (const name of ctx.parts) {
      const ships = SHIPS[name];
      if (!ships) continue;
      const parsed = ctx.body(name);
      // Headings inside a reviewer-only section are the reviewer's already.
      const kept = new Set(name === 'rubric' ? splitRubricBody(ctx.packet.rubric).reviewerLines.map((l) => l.line) : []);
      for (const node of parsed.tree.children as Nodes[]) {
        if (node.type !== 'heading') continue;
        const place = parsed.placeOfNode(node);
        if (place.line !== undefined && kept.has(place.line)) continue;
        const text = plainText(node as Heading).replace(/\s+/g, ' ').trim();
        const reviewerNotes = isReviewerNotesHeading(text);
        if (name === 'rubric' ? reviewerNotes || !FOR_REVIEWERS.test(text) : !reviewerNotes && !FOR_REVIEWERS.test(text)) continue;
        out.push({ place, params: { heading: text, part: `${name}.mdx`, ships } });
      }
    }
    return out;
  },
});
