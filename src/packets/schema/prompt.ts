import { z } from 'astro/zod';
import { PRIMITIVE_DOCS, PRIMITIVES, primitiveSchema } from './primitives.ts';
import { LIMIT_MAXIMA } from '../../sandbox/limits.ts';
import { isoDate, relativeGlob, relativePath, semver } from './common.ts';
import { field } from './field-doc.ts';
import { variantsSchema } from './prompt-variants.ts';
import { FILE_LIMIT_MAX_MB, FILE_LIMIT_MB, ZIP_LIMIT_MAX_MB, ZIP_LIMIT_MB } from '../file-limits.ts';

// Each field's words live in its field() call: they are the JSON Schema's descriptions, the
// format reference (docs/format.md) and `packet explain <field>`, so they are written only there.

/** Seniority levels, in catalog order. */
export const LEVELS = ['junior', 'mid', 'senior', 'staff', 'principal'] as const;

/** A pattern that must never appear in a submission, and why. */
export const forbiddenPatternSchema = z.strictObject({
  pattern: field(z.string().min(1), {
    description:
      'A JavaScript regular expression searched in the whole text of every file a submission changed, without flags: `^` and `$` match only the start and end of a file, and `.` does not cross a line. In YAML double quotes write each backslash twice.',
    examples: ['time\\.sleep\\(', 'except\\s*:\\s*pass'],
  }),
  reason: field(z.string().min(1), {
    description: 'Why it is forbidden, in a sentence: the packet page shows it to the candidate, and a scorecard quotes it beside the file that matched.',
    examples: ['Inject the clock; never sleep for real in a test.'],
  }),
});

/** The shortest reason an allowance of a screened primitive may give. */
export const ALLOWANCE_REASON_MIN = 20;

/** One primitive of the static screen a packet allows, and why its solution needs it. */
export const primitiveAllowanceSchema = z.strictObject({
  primitive: field(primitiveSchema, {
    description:
      'The id of a primitive the static screen names in a candidate\'s Python files. An allowed primitive is not a finding in this packet.',
    examples: ['computed-attr'],
    values: PRIMITIVE_DOCS,
  }),
  reason: field(
    z.string().trim().min(ALLOWANCE_REASON_MIN, {
      message: `say in a sentence why a solution of this packet needs the primitive (at least ${ALLOWANCE_REASON_MIN} characters)`,
    }),
    {
      description: `Why a solution of this packet needs the primitive, in a sentence of at least ${ALLOWANCE_REASON_MIN} characters: a scorecard quotes it beside every use it let through.`,
      examples: ['The gate dispatches its red, model and green steps by name.'],
    },
  ),
});

/** The workspace contract: what a candidate may touch, and what must never appear. */
export const workspaceSchema = z.strictObject({
  allow: field(z.array(relativeGlob).min(1), {
    description:
      'Globs, relative to the workspace root (the unzipped folder), of the files a submission may create or change. A changed file outside them is a finding, and fails the `workspace` check of an `auto` row.',
    examples: [['src/**', 'NOTES.md']],
  }),
  forbid: field(z.array(forbiddenPatternSchema).default([]), {
    description: 'Patterns that must never appear in a submitted file, each with its reason. A match is a finding that names the file, and fails the `workspace` check of an `auto` row.',
    examples: [[{ pattern: 'time\\.sleep\\(', reason: 'Inject the clock; never sleep for real in a test.' }]],
  }),
  allowPrimitives: field(z.array(primitiveAllowanceSchema).optional(), {
    description: `Primitives of the static screen this packet's solutions may use, each with its reason. Before the run the screen names, at file:line, each use in a submitted Python file of a way to reach the harness that judges it (${PRIMITIVES.join(', ')}); an allowed one is let through, every other one is a tamper finding.`,
    examples: [[{ primitive: 'computed-attr', reason: 'The gate dispatches its red, model and green steps by name.' }]],
  }),
});

/** Hard caps the kit enforces on a model run of this packet. */
export const budgetSchema = z.strictObject({
  modelCalls: field(z.int().positive(), {
    description: 'Model calls one run may make, retries included. The call that would exceed it is not made; the run stops cleanly (GAVE-UP, with give_up.json).',
    examples: [12],
  }),
  tokens: field(z.int().positive(), {
    description:
      'Prompt plus completion tokens for the whole run. Before each call the kit checks that the tokens spent, the request\'s estimated prompt tokens and its max_tokens fit in what is left; when they do not, the run stops cleanly.',
    examples: [40000],
  }),
  wallSeconds: field(z.int().positive(), {
    description: 'Wall-clock seconds for the whole run, model calls and test runs included. A retry whose wait would pass the deadline is not made.',
    examples: [600],
  }),
  identicalErrors: field(z.int().positive(), {
    description:
      'How many identical endpoint errors in a row end the run. Two errors are identical when they have the same class and HTTP status (three 429s, three 500s); a usable answer resets the count. It stops a run that would spend its whole budget on a broken endpoint, and it is required: 3 is usual.',
    examples: [3],
  }),
});

/** The receipts of the candidate's own agent session, asked for by the prompt. */
export const receiptsSchema = z.strictObject({
  dir: field(z.union([z.literal('.'), relativePath]).default('receipts'), {
    description: 'The folder holding usage.jsonl, ledger.json and (when a cap stopped the run) give_up.json, relative to the workspace root; `.` is the root.',
    examples: ['receipts'],
  }),
});

/** A cap the kit enforces up to its own maximum, whatever the packet asks. */
function sandboxCap(min: number, max: number, what: string) {
  return z
    .int()
    .min(min, { message: `a run needs at least ${min} ${what} to start a test command` })
    .max(max, { message: `the kit never grants more than ${max} ${what} (its own maximum); make the tests need less` });
}

/**
 * Caps on the sandbox the packet's tests run in (the starter, the sample, mutants, model
 * replies and submissions alike). Every field is optional: a missing one keeps the kit's
 * default, and no value may exceed the kit's maximum. Lower them for a tight packet; raise them
 * only for tests that need it.
 */
export const sandboxCapsSchema = z.strictObject({
  processes: field(sandboxCap(8, LIMIT_MAXIMA.processes!, 'processes').optional(), {
    description: 'Processes and threads a run may have at once; default 256, at most 1024. A fork past it fails.',
    examples: [64],
  }),
  workspaceMb: field(sandboxCap(1, LIMIT_MAXIMA.workspaceMb!, 'MiB of workspace').optional(), {
    description: 'Size of the work directory as the tests see it, in MiB (a tmpfs); default 512, at most 2048. A write past it fails with "No space left on device".',
    examples: [128],
  }),
  tmpMb: field(sandboxCap(1, LIMIT_MAXIMA.tmpMb!, 'MiB of /tmp').optional(), { description: 'Size of the private /tmp, in MiB; default 64, at most 1024.', examples: [64] }),
  shmMb: field(sandboxCap(1, LIMIT_MAXIMA.shmMb!, 'MiB of /dev/shm').optional(), { description: 'Size of the private /dev/shm, in MiB; default 64, at most 1024.', examples: [64] }),
  memoryMb: field(sandboxCap(64, LIMIT_MAXIMA.addressSpaceMb!, 'MiB of memory per process').optional(), {
    description:
      'Memory per process, in MiB of address space; default 4096, at most 8192. An allocation past it fails. Where the sandbox has a delegated cgroup v2, it also caps the whole run: all its processes together plus the files they write in its tmpfs (/workspace beyond the files copied in, /tmp, /dev/shm), and the kernel kills a process past it; elsewhere it caps each process on its own.',
    examples: [1024],
  }),
  certificates: field(z.boolean().optional(), {
    description: 'Show the host\'s CA certificates (/etc/ssl/certs) to the tests, for code that builds TLS contexts; default false. The network stays off.',
    examples: [false],
  }),
});

/** The shortest reason a packet may give for raising its size limits. */
export const LIMITS_REASON_MIN = 20;

/**
 * Size limits the packet raises above the kit's defaults, with its reason. A file or a zip over
 * its limit is an error (PK142, PK325), so a packet that truly needs a large fixture says so here.
 */
export const limitsSchema = z.strictObject({
  fileMb: field(z.int().min(1).max(FILE_LIMIT_MAX_MB, { message: `the kit never reads a file over ${FILE_LIMIT_MAX_MB} MiB (its own maximum); generate the data in the tests` }).optional(), {
    description: `The largest file of any tree (starter, sample, hidden, mutants, replies), in MiB; default ${FILE_LIMIT_MB}, at most ${FILE_LIMIT_MAX_MB}. A larger file is an error (PK142).`,
    examples: [20],
  }),
  zipMb: field(z.int().min(1).max(ZIP_LIMIT_MAX_MB, { message: `the kit never builds a candidate zip over ${ZIP_LIMIT_MAX_MB} MiB (its own maximum)` }).optional(), {
    description: `The largest candidate zip the build may write for this packet, in MiB; default ${ZIP_LIMIT_MB}, at most ${ZIP_LIMIT_MAX_MB}. A larger zip stops the build (PK325).`,
    examples: [80],
  }),
  reason: field(
    z.string().trim().min(LIMITS_REASON_MIN, {
      message: `say in a sentence why this packet needs files or a zip this large (at least ${LIMITS_REASON_MIN} characters)`,
    }),
    {
      description: `Why the packet needs the larger limits, in a sentence of at least ${LIMITS_REASON_MIN} characters: a large fixture costs every candidate the download and every rehearsal the copy.`,
      examples: ['The parser is judged on a real 18 MiB access log that cannot be generated.'],
    },
  ),
});

/** The longest hand-in address. */
export const HAND_IN_TO_MAX = 200;
/** The longest hand-in note. */
export const HAND_IN_NOTE_MAX = 400;

/** Where the candidate sends their work: shown to them as text, never fetched or linked by the kit. */
export const handInSchema = z.strictObject({
  to: field(
    z
      .string()
      .trim()
      .refine((to) => to.length > 0, { message: "say where the candidate sends their work: the hiring lead's email address or a link, as text (or leave out handIn)" })
      .max(HAND_IN_TO_MAX, { message: `keep it to an address or a link of at most ${HAND_IN_TO_MAX} characters; put anything longer in handIn.note` }),
    {
      description: `Where the candidate sends their work, as text of at most ${HAND_IN_TO_MAX} characters: the hiring lead's email address or a link to an upload form. The zip's README (PACKET.md for a lab) and the lab and drill pages show it as it is written; the kit never fetches or links it.`,
      examples: ['the hiring lead who sent you this packet (reply to their email)', 'hiring@example.com'],
    },
  ),
  note: field(z.string().trim().min(1).max(HAND_IN_NOTE_MAX, { message: `keep the note to at most ${HAND_IN_NOTE_MAX} characters` }).optional(), {
    description: `One or two sentences shown after the address (at most ${HAND_IN_NOTE_MAX} characters): a deadline, a subject line to use.`,
    examples: ['Put the packet id in the subject line.'],
  }),
});

/** One released version of the packet. */
export const changelogEntrySchema = z.strictObject({
  version: field(semver, { description: 'The version this entry describes.', examples: ['1.1.0'] }),
  date: field(isoDate, { description: 'The release date, `YYYY-MM-DD` (quote it or not; YAML dates are read back as this text).', examples: ['2026-11-29'] }),
  note: field(z.string().min(1), { description: 'What changed, in a sentence a reviewer holding an older scored sheet can act on.', examples: ['Hidden test for an empty input.'] }),
});

/** Frontmatter of `prompt.mdx`: what the candidate (or their agent) sees. */
export const promptSchema = z.strictObject({
  title: field(z.string().min(1).max(120), {
    description: 'The packet\'s title (at most 120 characters), on the catalog card, the packet page, the rubric card and the zip\'s README.',
    examples: ['Retry with a budget'],
  }),
  summary: field(z.string().min(1).max(160), {
    description: 'One line (at most 160 characters) for the catalog card and the page\'s description: what the candidate makes, not how.',
    examples: ['Make the fetcher retry with backoff inside a fixed call budget.'],
  }),
  kind: field(z.enum(['takehome', 'lab', 'drill']), {
    description: 'What sort of round the packet is.',
    values: {
      takehome: 'A take-home: a prompt, starter code with its visible tests, hidden tests and a rubric.',
      lab: 'An AI-assisted round: a small codebase and a scripted assistant whose suggestions the candidate accepts, revises or rejects.',
      drill: 'A review drill: the candidate reads an assistant\'s diffs and judges each; no code runs, and its prompt takes the catalog fields only.',
    },
    examples: ['takehome'],
  }),
  level: field(z.enum(LEVELS), {
    description: 'The seniority the packet is calibrated for; the catalog groups packets by it, from junior to principal.',
    examples: ['mid'],
  }),
  language: field(z.string().min(1), {
    description: 'The starter\'s programming language, lowercase. It picks the code highlighting and how the visible tests are counted on the catalog card (Python: `def test*` in `test*.py` and `*_test.py`).',
    examples: ['python'],
  }),
  minutes: field(z.int().positive().max(24 * 60), {
    description: 'The candidate\'s time box, in minutes (at most 1440). The packet page and the zip\'s README show it; the prompt\'s stop rule should repeat it.',
    examples: [90],
  }),
  version: field(semver, {
    description:
      'The packet\'s semantic version. Zips are named `<id>-<version>.zip` and scored sheets carry it with the content digest; bump it whenever the content changes (`packet check` warns, PK311, when the content changed since the last build and the version did not) and add a `changelog` entry.',
    examples: ['1.0.0'],
  }),
  seed: field(z.string().min(1), {
    description:
      'A label you change whenever the packet is reused with new data or names, so answers to an earlier use do not fit this one. It is part of the content, so changing it changes the digest; in a packet with `variants`, it also seeds the draw of every variant\'s parameters, so a new seed gives every variant new values.',
    examples: ['rb-2026-11'],
  }),
  variants: field(variantsSchema.optional(), {
    description:
      'Make a variant of the packet per candidate: parameters drawn from `seed` and the variant\'s number, written into the prompt, the starter, the sample, the hidden tests and the mutants by `[[variant.NAME]]` placeholders, and one candidate zip per variant (docs/variants.md). Left out, the packet has one version, as before.',
    examples: [{ count: 3, params: { limit: { int: [3, 9] }, verb: { pick: ['fetch', 'load', 'pull'] } } }],
  }),
  tags: field(z.array(z.string().min(1)).default([]), {
    description: 'Free words for the catalog\'s tag filter and search.',
    examples: [['retries', 'budgets']],
  }),
  deliverables: field(z.array(z.string().min(1)).min(1), {
    description:
      'What the candidate hands in: workspace paths or short names. Each must be named in the prompt body, exactly as written here (lint PK204); the zip\'s README lists them.',
    examples: [['src/fetch.py', 'NOTES.md']],
  }),
  handIn: field(handInSchema.optional(), {
    description:
      'Where the candidate sends what they hand in (`to`, as text) and an optional `note`. Left out, the zip\'s README and the lab and drill pages tell the candidate to send it to the person who sent them the packet. For a lab or a drill the page says to send the exported answer sheet, by its file name.',
    examples: [{ to: 'the hiring lead who sent you this packet (reply to their email)' }],
  }),
  test: field(z.string().trim().min(1), {
    description:
      'The command that runs the tests, from the workspace root (the unzipped folder). The rehearsal and grading run it in the sandbox with the hidden tests laid over the workspace; the prompt body must show it in a code block (lint PK205).',
    examples: ['python3 -m unittest discover -s tests -t . -q'],
  }),
  protected: field(z.array(relativeGlob).default([]), {
    description:
      'Globs, relative to `starter/`, of files the candidate must not change: the tests, usually. Grading and the rehearsal copy the originals back in last and mount them read-only; a change is a finding and fails the `protected` check of an `auto` row. Each glob must match a starter file (PK124).',
    examples: [['tests/**']],
  }),
  context: field(z.array(relativePath).optional(), {
    description:
      'The starter files sent to a model with the prompt, paths relative to `starter/`: what a model needs to read to answer, when the packet is rehearsed against a model or a scripted reply. Left out, every starter file that is not protected is sent. Nothing outside `starter/` is ever sent. Each path must be a starter file (PK128).',
    examples: [['src/fetch.py']],
  }),
  workspace: field(workspaceSchema, {
    description: 'The workspace contract: the files a submission may change (`allow`) and the patterns that must never appear in it (`forbid`).',
    examples: [{ allow: ['src/**', 'NOTES.md'], forbid: [{ pattern: 'time\\.sleep\\(', reason: 'Inject the clock; never sleep for real in a test.' }] }],
  }),
  budget: field(budgetSchema, {
    description:
      'Hard caps on one model run of this packet (a rehearsal against a model, a scripted reply, or a candidate\'s agent when the prompt asks for receipts). The kit checks them before each call and stops cleanly at the first one reached. All four are required.',
    examples: [{ modelCalls: 12, tokens: 40000, wallSeconds: 600, identicalErrors: 3 }],
  }),
  receipts: field(receiptsSchema.optional(), {
    description:
      'Ask for the receipts of the candidate\'s own agent session (usage.jsonl, ledger.json and, when a cap stopped it, give_up.json; docs/grading.md, "Receipts"). `packet grade` checks them against `budget` and the code handed in; the zip\'s README says how to keep them.',
    examples: [{ dir: 'receipts' }],
  }),
  sandbox: field(sandboxCapsSchema.optional(), {
    description: 'Caps on the sandbox the packet\'s tests run in; the kit\'s defaults when left out, never above its maxima.',
    examples: [{ processes: 64, workspaceMb: 128 }],
  }),
  limits: field(limitsSchema.optional(), {
    description: `Raise the size limits of this packet's files (default ${FILE_LIMIT_MB} MiB a file) or candidate zip (default ${ZIP_LIMIT_MB} MiB), with a reason; left out, the defaults hold. A file or zip over its limit is an error, not a warning.`,
    examples: [{ fileMb: 20, reason: 'The parser is judged on a real 18 MiB access log that cannot be generated.' }],
  }),
  changelog: field(z.array(changelogEntrySchema).default([]), {
    description: 'Released versions, newest first; the packet page shows them and marks the current one.',
    examples: [[{ version: '1.0.0', date: '2026-11-29', note: 'First release.' }]],
  }),
});

/** Parsed `prompt.mdx` frontmatter. */
export type PromptFrontmatter = z.infer<typeof promptSchema>;
