import { z } from 'astro/zod';
import { kebabId, relativeGlob, relativePath } from './common.ts';
import { field } from './field-doc.ts';

/** Where a failure signal greps. */
export const SIGNAL_SOURCES = ['files', 'diff', 'output', 'ledger'] as const;

/** One place a signal can grep. */
export type SignalSource = (typeof SIGNAL_SOURCES)[number];

/** What each signal source searches. */
export const SIGNAL_SOURCE_DOCS: Readonly<Record<SignalSource, string>> = {
  files: 'The whole text of every file a submission could write (the workspace minus the protected files), as it was before the tests ran.',
  diff: 'Only the lines a submission added or changed against the starter, joined as text without the diff\'s leading `+` (a file new to the workspace counts whole). Unchanged files and removed lines are not searched.',
  output: 'The combined standard output and standard error of the test run.',
  ledger: 'The run\'s receipts: `usage.jsonl`, `ledger.json` and `give_up.json`.',
};

/** A greppable signal that a submission died this way. */
export const signalSchema = z.strictObject({
  pattern: field(z.string().min(1), {
    description:
      'A JavaScript regular expression. It runs once over each searched text as a whole (a file, the added lines of a file, the output), not line by line: without `flags`, `^` and `$` match only at the start and end of that text and `.` does not cross a newline. The first match is the finding. In YAML double quotes write each backslash twice.',
    examples: ['PART\\.search\\(', '^\\s*except\\s*:\\s*pass'],
  }),
  flags: field(z.string().regex(/^[imsu]*$/, 'use only the flags i, m, s and u').default(''), {
    description: 'Regular expression flags: `i` ignores case, `m` makes `^` and `$` match at every line, `s` lets `.` match a newline, `u` reads the pattern as Unicode.',
    examples: ['m', 'im'],
  }),
  in: field(z.enum(SIGNAL_SOURCES), {
    description: 'What the signal searches.',
    values: SIGNAL_SOURCE_DOCS,
    examples: ['files'],
  }),
  files: field(z.array(relativeGlob).optional(), {
    description: 'Globs, relative to the workspace root, that limit a `files` or `diff` search; every file when left out. Not used by `output` and `ledger`.',
    examples: [['src/**/*.py']],
  }),
});

/** The rubric row a failure caps, and the cap. */
export const capSchema = z.strictObject({
  row: field(kebabId, { description: 'The id of the rubric row (`rows[].id` in rubric.mdx) this failure caps.', examples: ['correctness'] }),
  max: field(z.int().nonnegative(), {
    description: 'The most that row can score when this failure\'s signal matches; below the row\'s own `max` (PK129), usually 0.',
    examples: [0],
  }),
});

/** One named way the task dies. */
export const failureModeSchema = z.strictObject({
  id: field(kebabId, {
    description: 'A stable kebab-case id; the body\'s section about this mode mentions it (lint PK214), and reports name the mode by it.',
    examples: ['raw-line-cache'],
  }),
  title: field(z.string().min(1), {
    description: 'A short human title; the body has a `## <title>` section telling how the task dies this way (lint PK214).',
    examples: ['Caches the raw line, not the parsed one'],
  }),
  signal: field(signalSchema, {
    description: 'How to recognise this failure in a submission: a regular expression and where to search it. It must match this mode\'s mutant and not the sample, and must not match the untouched starter (lint PK213).',
    examples: [{ pattern: 'PART\\.search\\(', in: 'files', files: ['src/**/*.py'] }],
  }),
  mutant: field(relativePath, {
    description:
      'The overlay folder, `mutants/<name>`, whose files laid over the sample reproduce this failure. The rehearsal runs every test on it and expects red: a mutant that passes is a blind spot of the tests.',
    examples: ['mutants/raw-line-cache'],
  }),
  reply: field(relativePath.optional(), {
    description:
      'A scripted model reply, `replies/<name>.md`, that commits this failure. The rehearsal sends it through the model pipeline (endpoint, client, reply parser, sandbox) and expects it caught. Every file in `replies/` but `sample.md` should be named by a mode (PK130).',
    examples: ['replies/raw-line-cache.md'],
  }),
  caps: field(capSchema, {
    description: 'The rubric row this failure caps, and the cap: when the signal matches, that row scores at most `max`, whatever else the submission does.',
    examples: [{ row: 'correctness', max: 0 }],
  }),
});

/** Frontmatter of `failures.mdx`: the failure catalog. */
export const failuresSchema = z.strictObject({
  modes: field(z.array(failureModeSchema).min(1), {
    description: 'The named ways the task dies: at least two (lint PK212), each with a signal, a mutant and the rubric row it caps.',
  }),
});

/** Parsed `failures.mdx` frontmatter. */
export type FailuresFrontmatter = z.infer<typeof failuresSchema>;
/** One parsed failure mode. */
export type FailureMode = z.infer<typeof failureModeSchema>;
