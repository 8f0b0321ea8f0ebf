import { z } from 'astro/zod';
import { kebabId, relativePath } from './common.ts';
import { field } from './field-doc.ts';

/**
 * `assistant.mdx`: the scripted assistant of a lab (its suggestions) or of a drill (its diffs).
 * The candidate sees what the assistant says and offers; the `key` of each entry is reviewer
 * material and never reaches the public site.
 */

/** What a candidate does with a lab suggestion: take it as offered, take the assistant's revision, or keep the code as it was. */
export const LAB_CHOICES = ['accept', 'revise', 'reject'] as const;

/** A choice on a lab suggestion. */
export type LabChoice = (typeof LAB_CHOICES)[number];

/** What a reviewer does with a drill's diff. */
export const DRILL_VERDICTS = ['accept', 'accept-with-change', 'reject'] as const;

/** A verdict on a drill's diff. */
export type DrillVerdict = (typeof DRILL_VERDICTS)[number];

/** Lines of a starter file, 1-based and inclusive. */
export const lineRangeSchema = z.strictObject({
  from: field(z.int().positive(), { description: 'The first line of the region, counted from 1.', examples: [12] }),
  to: field(z.int().positive(), { description: 'The last line of the region, inclusive (at least `from`).', examples: [18] }),
});

/** The right choice on a lab suggestion, and why. Reviewer material. */
export const labKeySchema = z.strictObject({
  choice: field(z.enum(LAB_CHOICES), {
    description: 'The choice a careful engineer makes on this suggestion. Reviewer material: never on the public site.',
    values: {
      accept: 'Take the change as the assistant offers it.',
      revise: 'Push back, and take the assistant\'s revised version.',
      reject: 'Keep the code as it was.',
    },
    examples: ['revise'],
  }),
  reason: field(z.string().min(1), {
    description: 'Why: the consequence a good reason names. Shown to the reviewer beside the candidate\'s own reason.',
    examples: ['The offered loop retries a 400 too, so a bad request burns the whole call budget.'],
  }),
  reviewOnly: field(z.string().min(1).optional(), {
    description:
      'Set when no test can tell the wrong versions of this suggestion from the right one: why only review catches it. The rehearsal then does not ask the tests to catch them.',
    examples: ['The offered version logs the token; no test reads the log.'],
  }),
});

/** One suggestion of a lab's scripted assistant: it replaces one region of one starter file. */
export const suggestionSchema = z.strictObject({
  id: field(kebabId, { description: 'A stable kebab-case id; answer sheets and the test table name the suggestion by it.', examples: ['retry-on-429'] }),
  file: field(relativePath, { description: 'The starter file the suggestion changes, relative to `starter/`.', examples: ['src/fetch.py'] }),
  anchor: field(z.string().min(1).optional(), {
    description:
      'The region it replaces, as text that occurs exactly once in the file and covers whole lines (a YAML block scalar, `anchor: |`, keeps the final newline). Give `anchor` or `lines`.',
    examples: ['    return fetch_once(url)\n'],
  }),
  lines: field(lineRangeSchema.optional(), {
    description: 'The region it replaces, as a line range of the file. Give `anchor` or `lines`.',
    examples: [{ from: 12, to: 18 }],
  }),
  ask: field(z.string().min(1), { description: 'What the candidate asked the assistant, in the candidate\'s words.', examples: ['Retry when the server says 429.'] }),
  message: field(z.string().min(1), { description: 'What the assistant says with its change.', examples: ['Here is a retry loop with a short sleep between attempts.'] }),
  offered: field(z.string(), { description: 'The region\'s new text as the assistant first offers it (whole lines).', examples: ['    while True:\n        ...\n'] }),
  revised: field(z.string(), {
    description: 'The region\'s text after the candidate pushes back and the assistant revises (whole lines).',
    examples: ['    for attempt in range(3):\n        ...\n'],
  }),
  key: field(labKeySchema, { description: 'The right choice and why. Reviewer material: never on the public site.' }),
});

/** The verdict a careful reviewer gives a drill's diff, and what a good reason names. Reviewer material. */
export const drillKeySchema = z.strictObject({
  verdict: field(z.enum(DRILL_VERDICTS), {
    description: 'The verdict a careful reviewer gives the diff. Reviewer material: never on the public site.',
    values: {
      accept: 'Merge it as it is.',
      'accept-with-change': 'Merge it once one named change is made (`change`).',
      reject: 'Do not merge it.',
    },
    examples: ['reject'],
  }),
  consequence: field(z.string().min(1), {
    description: 'The consequence a good reason names, compared with the reviewer\'s reason.',
    examples: ['blocks the event loop for the whole backoff'],
  }),
  change: field(z.string().min(1).optional(), { description: 'For `accept-with-change`: the change to ask for.', examples: ['Cap the wait at the deadline.'] }),
});

/** One diff of a drill, with enough context to judge it. */
export const drillDiffSchema = z.strictObject({
  id: field(kebabId, { description: 'A stable kebab-case id; answer sheets name the diff by it.', examples: ['sleep-in-handler'] }),
  title: field(z.string().min(1).max(100), { description: 'A short title for the diff (at most 100 characters), as a reviewer would name the change.', examples: ['Back off with time.sleep'] }),
  file: field(relativePath, { description: 'The file the diff changes, as in the codebase it comes from.', examples: ['app/handlers.py'] }),
  context: field(z.string().min(1), {
    description: 'What a reviewer needs to know about the code around the diff, in a few sentences.',
    examples: ['The handler runs on the event loop; every request shares it.'],
  }),
  diff: field(z.string().min(1), {
    description: 'The diff: lines that start with a space (context), `+` (added) or `-` (removed); `@@` lines separate hunks.',
    examples: [' def handle(req):\n-    return call(req)\n+    time.sleep(2)\n+    return call(req)\n'],
  }),
  key: field(drillKeySchema, { description: 'The verdict and the consequence a good reason names. Reviewer material: never on the public site.' }),
});

/** Frontmatter of `assistant.mdx`: a lab's suggestions or a drill's diffs. */
export const assistantSchema = z.strictObject({
  suggestions: field(z.array(suggestionSchema).min(3).max(6).optional(), {
    description: 'A lab\'s suggestions, 3 to 6; each replaces its own region of a starter file.',
  }),
  diffs: field(z.array(drillDiffSchema).min(3).max(8).optional(), { description: 'A drill\'s diffs, 3 to 8.' }),
});

/** Parsed `assistant.mdx` frontmatter. */
export type AssistantFrontmatter = z.infer<typeof assistantSchema>;
/** One parsed lab suggestion. */
export type Suggestion = z.infer<typeof suggestionSchema>;
/** One parsed drill diff. */
export type DrillDiff = z.infer<typeof drillDiffSchema>;
/** The key of a lab suggestion. */
export type LabKey = z.infer<typeof labKeySchema>;
/** The key of a drill diff. */
export type DrillKey = z.infer<typeof drillKeySchema>;
