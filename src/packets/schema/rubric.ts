import { z } from 'astro/zod';
import { kebabId } from './common.ts';
import { field } from './field-doc.ts';

/** The automatic checks that can pre-fill a rubric row. */
export const AUTO_CHECKS = ['tests', 'hidden-tests', 'visible-tests', 'protected', 'workspace', 'receipts', 'choices'] as const;

/** One automatic check. */
export type AutoCheck = (typeof AUTO_CHECKS)[number];

/** What each automatic check scores: full marks when it holds, 0 when it does not (then failure caps apply). */
export const AUTO_CHECK_DOCS: Readonly<Record<AutoCheck, string>> = {
  tests: 'Every test ran and passed, the visible and the hidden ones: the usual choice for a correctness row.',
  'hidden-tests': 'No hidden test failed (the visible ones are not looked at).',
  'visible-tests': 'No visible test (the starter\'s) failed (the hidden ones are not looked at).',
  protected: 'No protected file (`protected` in prompt.mdx) was changed.',
  workspace: 'Every changed file is one the submission may change (inside `workspace.allow`, and not protected: a protected file it changed fails this check as well as `protected`), no `workspace.forbid` pattern appears, no file hooks the runner, no file was refused and no secret was found.',
  receipts: 'The receipts (`receipts.dir` in prompt.mdx) are there, add up, keep the budget\'s caps and name the code handed in (take-homes only).',
  choices: 'Labs and drills: the share of the candidate\'s choices that match the key, as the row\'s maximum times the matches over the suggestions or diffs, rounded down.',
};

/** One row of the rubric card. */
export const rubricRowSchema = z.strictObject({
  id: field(kebabId, {
    description: 'A stable kebab-case id; vetoes (`vetoes[].row`) and failure caps (`caps.row` in failures.mdx) name the row by it.',
    examples: ['token-shape'],
  }),
  criterion: field(z.string().min(1), {
    description: 'What the reviewer judges, in one sentence the candidate can read too.',
    examples: ['A failed call is retried with backoff and never past the budget.'],
  }),
  max: field(z.int().positive(), {
    description: 'The row\'s top score; scores run from 0 to `max`. The lint asks for at most 3 (PK208): reviewers cannot tell more levels apart.',
    examples: [3],
  }),
  minutes: field(z.number().positive().optional(), {
    description:
      'The reviewer\'s minutes for this row; 2.5 when left out. The rows\' minutes must fit in the rubric\'s `minutes` (lint PK210).',
    examples: [2],
  }),
  levels: field(z.record(z.string().regex(/^\d+$/, 'level keys are scores: 0, 1, 2, 3'), z.string().min(1)), {
    description:
      'What each score looks like, keyed by the score. At least the lowest (0) and the highest (`max`) need words (lint PK209); a score in between without words shows on the card as lying between the nearest scores that have them.',
    examples: [{ '0': 'Retries forever, or not at all.', '1': 'Retries, but past the budget.', '3': 'Backoff inside the budget, and says when it gives up.' }],
  }),
  auto: field(z.enum(AUTO_CHECKS).optional(), {
    description:
      'An automatic check that pre-fills the row from the evidence of a run: the row gets full marks (`max`) when the check holds and 0 when it does not (`choices` scores a share), then the caps of the failure modes whose signal matched apply. The calibration check scores the sample and every mutant this way; rows without `auto` are scored at their maximum there, so a rubric whose rows are all judged by hand cannot tell a mutant from the sample. A reviewer can still change the score.',
    values: AUTO_CHECK_DOCS,
    examples: ['tests'],
  }),
});

/** A row score that ends the decision whatever the total. */
export const vetoSchema = z.strictObject({
  row: field(kebabId, { description: 'The id of the rubric row this veto watches.', examples: ['failure-handling'] }),
  atMost: field(z.int().nonnegative(), { description: 'A score at or below this on that row is a no, whatever the total; usually 0.', examples: [0] }),
  note: field(z.string().min(1), {
    description: 'The rule in words, as the card prints it.',
    examples: ['A 3 on token shape with a 0 on failure handling is a no.'],
  }),
});

/** How the sheets of several reviewers of one submission become one decision. */
export const combineSchema = z.strictObject({
  rows: field(z.enum(['median', 'lowest']).default('median'), {
    description:
      'Each row\'s combined score: `median` (of an even number of sheets, the lower of the two middle scores, so a half point never rounds up) or `lowest` (the harshest reviewer\'s).',
    values: { median: 'The middle score; of an even number, the lower middle.', lowest: 'The lowest score any reviewer gave.' },
    examples: ['median'],
  }),
  veto: field(z.enum(['any', 'majority']).default('any'), {
    description: 'Which vetoes hold: `any` (one reviewer\'s fired veto is a no) or `majority` (more than half of the reviewers fired it).',
    values: { any: 'A veto one reviewer fired holds.', majority: 'A veto holds when more than half of the reviewers fired it.' },
    examples: ['any'],
  }),
});

/** Frontmatter of `rubric.mdx`: what a human scores in fifteen minutes. */
export const rubricSchema = z.strictObject({
  minutes: field(z.number().positive(), {
    description: 'Minutes a reviewer spends on the whole card; the lint asks for at most 15, and for the rows\' minutes to fit in it (PK210).',
    examples: [12],
  }),
  rows: field(z.array(rubricRowSchema).min(1), {
    description: 'The rows of the card, in the order they are scored: 3 to 6 (lint PK208).',
  }),
  hireBar: field(z.number().nonnegative(), {
    description: 'The total a submission needs to be a hire, unless a veto fires: at most the sum of the rows\' `max` (PK121), at least half of it (lint PK211).',
    examples: [6],
  }),
  vetoes: field(z.array(vetoSchema).default([]), {
    description: 'Row scores that are a no whatever the total.',
    examples: [[{ row: 'failure-handling', atMost: 0, note: 'Green tests with a swallowed error is a no.' }]],
  }),
  combine: field(combineSchema.default({ rows: 'median', veto: 'any' }), {
    description:
      'How the scored sheets of several reviewers of one submission make one decision, mechanically: the combined score of each row, then the hire bar, then the vetoes that hold. Read by `packet agreement` and the rubric page; declared here so no debrief argues about an average.',
    examples: [{ rows: 'median', veto: 'any' }],
  }),
});

/** Parsed `rubric.mdx` frontmatter. */
export type RubricFrontmatter = z.infer<typeof rubricSchema>;
/** One parsed rubric row. */
export type RubricRow = z.infer<typeof rubricRowSchema>;
