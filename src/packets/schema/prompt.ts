import { z } from 'astro/zod';
import { LIMIT_MAXIMA } from '../../sandbox/limits.ts';
import { isoDate, relativeGlob, relativePath, semver } from './common.ts';

/** Seniority levels, in catalog order. */
export const LEVELS = ['junior', 'mid', 'senior', 'staff', 'principal'] as const;

/** A pattern that must never appear in a submission, and why. */
export const forbiddenPatternSchema = z.strictObject({
  /** A regular expression (JavaScript syntax) searched in every submitted file. */
  pattern: z.string().min(1),
  /** Why it is forbidden, shown to the candidate and in the scorecard. */
  reason: z.string().min(1),
});

/** The workspace contract: what a candidate may touch, and what must never appear. */
export const workspaceSchema = z.strictObject({
  /** Globs (relative to the workspace root) of files the candidate may create or change. */
  allow: z.array(relativeGlob).min(1),
  /** Patterns that must never appear in the submission. */
  forbid: z.array(forbiddenPatternSchema).default([]),
});

/** Hard caps the kit enforces on a model run of this packet. */
export const budgetSchema = z.strictObject({
  /** Model calls allowed, retries included. */
  modelCalls: z.int().positive(),
  /** Prompt plus completion tokens allowed over the whole run. */
  tokens: z.int().positive(),
  /** Wall-clock seconds for the whole run. */
  wallSeconds: z.int().positive(),
  /** Identical errors in a row before the run gives up. */
  identicalErrors: z.int().positive(),
});

/** The receipts of the candidate's own agent session, asked for by the prompt. */
export const receiptsSchema = z.strictObject({
  /** The folder holding usage.jsonl, ledger.json and (when a cap stopped the run) give_up.json, relative to the workspace root; `.` is the root. */
  dir: z.union([z.literal('.'), relativePath]).default('receipts'),
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
  /** Processes and threads a run may have at once; default 256, at most 1024. A fork past it fails. */
  processes: sandboxCap(8, LIMIT_MAXIMA.processes!, 'processes').optional(),
  /** Size of the work directory as the tests see it, in MiB (a tmpfs); default 512, at most 2048. A write past it fails with "No space left on device". */
  workspaceMb: sandboxCap(1, LIMIT_MAXIMA.workspaceMb!, 'MiB of workspace').optional(),
  /** Size of the private /tmp, in MiB; default 64, at most 1024. */
  tmpMb: sandboxCap(1, LIMIT_MAXIMA.tmpMb!, 'MiB of /tmp').optional(),
  /** Size of the private /dev/shm, in MiB; default 64, at most 1024. */
  shmMb: sandboxCap(1, LIMIT_MAXIMA.shmMb!, 'MiB of /dev/shm').optional(),
  /** Memory per process, in MiB of address space; default 4096, at most 8192. An allocation past it fails. */
  memoryMb: sandboxCap(64, LIMIT_MAXIMA.addressSpaceMb!, 'MiB of memory per process').optional(),
  /** Show the host's CA certificates (/etc/ssl/certs) to the tests, for code that builds TLS contexts; default false. The network stays off. */
  certificates: z.boolean().optional(),
});

/** One released version of the packet. */
export const changelogEntrySchema = z.strictObject({
  /** The version this entry describes. */
  version: semver,
  /** The release date, `YYYY-MM-DD`. */
  date: isoDate,
  /** What changed, in a sentence. */
  note: z.string().min(1),
});

/** Frontmatter of `prompt.mdx`: what the candidate (or their agent) sees. */
export const promptSchema = z.strictObject({
  /** The packet's title, as shown on the catalog card and the packet page. */
  title: z.string().min(1).max(120),
  /** One line (at most 160 characters) for the catalog card. */
  summary: z.string().min(1).max(160),
  /** `takehome` for a plain packet, `lab` for one with a scripted assistant, `drill` for a review of diffs (its prompt takes the catalog fields only). */
  kind: z.enum(['takehome', 'lab', 'drill']),
  /** The seniority the packet is calibrated for. */
  level: z.enum(LEVELS),
  /** The starter's programming language, e.g. `python`. */
  language: z.string().min(1),
  /** The candidate's time box, in minutes. */
  minutes: z.int().positive().max(24 * 60),
  /** The packet's semantic version; zips and scored sheets carry it. */
  version: semver,
  /** A seed rotated whenever the packet is reused, so answers do not carry over. */
  seed: z.string().min(1),
  /** Free tags for the catalog filters. */
  tags: z.array(z.string().min(1)).default([]),
  /** What the candidate hands in: paths or short names, each named in the prompt body. */
  deliverables: z.array(z.string().min(1)).min(1),
  /** The test command, run from the workspace root, e.g. `python3 -m unittest discover -s tests -t . -q`. */
  test: z.string().trim().min(1),
  /** Globs (relative to `starter/`) the candidate must not change; the tests, usually. */
  protected: z.array(relativeGlob).default([]),
  /** Starter files sent to a model as context; defaults to every starter file that is not protected. */
  context: z.array(relativePath).optional(),
  /** The workspace contract. */
  workspace: workspaceSchema,
  /** Caps on a model run; with `receipts`, also the caps the candidate's own receipts are checked against. */
  budget: budgetSchema,
  /** Ask for the receipts of the candidate's agent session (usage.jsonl, ledger.json, give_up.json; README "Receipts"); grading checks them. */
  receipts: receiptsSchema.optional(),
  /** Caps on the sandbox the tests run in; the kit's defaults when left out. */
  sandbox: sandboxCapsSchema.optional(),
  /** Released versions, newest first. */
  changelog: z.array(changelogEntrySchema).default([]),
});

/** Parsed `prompt.mdx` frontmatter. */
export type PromptFrontmatter = z.infer<typeof promptSchema>;
