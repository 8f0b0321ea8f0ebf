/**
 * The kit's own record of a mutation run (`report.json`): every proposed mutant with its code,
 * its outcome and why, the calls and their receipts, and the summary with the mutation score.
 * The standard mutation-testing report (`mutation-report.json`) is made from it
 * (stryker-report.ts); `--adopt` and the reviewer bundle read it back.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { MutantStatus } from './classify.ts';

/** The files of a run folder (`out/mutate/<id>/` by default), by role. */
export const RUN_FILES = {
  report: 'report.json',
  schemaReport: 'mutation-report.json',
  html: 'mutation-report.html',
  usage: 'usage.jsonl',
  ledger: 'ledger.json',
  giveUp: 'give_up.json',
} as const;

/** Version of `report.json`. */
export const MUTATE_SCHEMA_VERSION = 1;

/** One proposed mutant. */
export interface MutantRecord {
  /** 1-based, in the order the replies proposed them; the number `--adopt` takes. */
  id: number;
  /** The fault it plants, in the model's words. */
  fault: string;
  /** The file it changes ('' when the item named none). */
  path: string;
  status: MutantStatus;
  /** The outcome in words. */
  reason: string;
  /** How the reply gave the change. */
  form?: 'code' | 'diff';
  /** The whole mutated file, when the item gave one. */
  code?: string;
  /** For a duplicate: the mutant it repeats. */
  duplicateOf?: number;
  /** The tests that failed on it (killed). */
  killedBy?: string[];
  /** Killed by held-out tests alone. */
  onlyHidden?: boolean;
  /** Findings that did not decide the outcome (a failure signal that matches, the contract). */
  notes?: string[];
  /** The run in words, when it ran. */
  tests?: string;
  /** Milliseconds of its judged run (laying out the workspace to the judgement). */
  durationMs?: number;
  /** The call (turn) whose reply proposed it. */
  turn: number;
}

/** One call to the model. */
export interface CallRecord {
  turn: number;
  /** Attempts (each one a line of usage.jsonl). */
  attempts: number;
  /** `ok`: the reply was read; `INCONCLUSIVE`: no reply, or one that could not be read. */
  status: 'ok' | 'INCONCLUSIVE';
  /** Why not ok, in words. */
  reason?: string;
  /** The final error class of the call, if any. */
  error: string | null;
  /** What the reader noted (where the array was found). */
  notes?: string[];
}

/** The counts and the score. */
export interface MutationSummary {
  /** Mutants asked for (`--count`). */
  asked: number;
  /** Items the replies held. */
  proposed: number;
  killed: number;
  survived: number;
  crashed: number;
  invalid: number;
  /** Repeats of an earlier mutant, counted once (not in the other counts). */
  duplicates: number;
  /** Mutants the sandbox could not run. */
  unjudged: number;
  /** killed / (killed + survived) as a percentage with one decimal, as the mutation-testing report computes it; null with neither. */
  score: number | null;
}

/** `report.json`. */
export interface MutationReport {
  schemaVersion: typeof MUTATE_SCHEMA_VERSION;
  packet: string;
  version: string;
  digest: string;
  /** ISO date of the run. */
  date: string;
  model: string;
  /** Host (and port) of the endpoint; never a path, a query or a key. */
  endpoint: string;
  /** True when the embedded scripted endpoint answered. */
  scripted: boolean;
  /** `classified`: every mutant proposed was classified; `INCONCLUSIVE`: no reply could be read, or a mutant could not be run. */
  verdict: 'classified' | 'INCONCLUSIVE';
  /** Why the run is INCONCLUSIVE. */
  inconclusive?: { cause: 'endpoint' | 'reply' | 'budget' | 'sandbox'; reason: string };
  /** The sample's source files the model was given, with the sha256 of each (adopting checks the sample has not changed since). */
  sources: { path: string; sha256: string }[];
  /** The sample's own judged run, before any mutant. */
  baseline: { tests: string; durationMs: number };
  calls: CallRecord[];
  mutants: MutantRecord[];
  summary: MutationSummary;
  /** The sum of usage.jsonl (calls, tokens; null tokens when any call's usage is unknown). */
  spend: { calls: number; tokens: number | null; promptTokens: number; completionTokens: number; unknownCalls: number; wallMs: number };
  /** A budget cap that stopped the calls. */
  stop: string | null;
  /** Milliseconds: before the first call (sources, baseline), the mutants' judged runs in all, and per judged mutant on average. */
  timing: { setupMs: number; baselineMs: number; mutantsMs: number; perMutantMs: number | null; wallMs: number };
  /** Receipt paths, relative to the working directory. */
  receipts: { usage: string | null; ledger: string | null; giveUp: string | null };
}

/** The counts of a list of mutants, and the score. Pure. */
export function summarize(asked: number, mutants: readonly Pick<MutantRecord, 'status'>[]): MutationSummary {
  const count = (s: MutantStatus) => mutants.filter((m) => m.status === s).length;
  const killed = count('killed');
  const survived = count('survived');
  return {
    asked,
    proposed: mutants.length,
    killed,
    survived,
    crashed: count('crashed'),
    invalid: count('invalid'),
    duplicates: count('duplicate'),
    unjudged: count('unjudged'),
    score: killed + survived ? Math.round((killed / (killed + survived)) * 1000) / 10 : null,
  };
}

/** The counts in words: "5 mutants: 3 killed, 1 survived, 0 crashed, 1 invalid (and 1 duplicate, counted once)". */
export function describeCounts(s: MutationSummary): string {
  const counted = s.proposed - s.duplicates;
  const parts = [`${s.killed} killed`, `${s.survived} survived`, `${s.crashed} crashed`, `${s.invalid} invalid`];
  if (s.unjudged) parts.push(`${s.unjudged} unjudged`);
  const dup = s.duplicates ? ` (and ${s.duplicates} duplicate${s.duplicates === 1 ? '' : 's'}, counted once)` : '';
  return `${counted} mutant${counted === 1 ? '' : 's'}: ${parts.join(', ')}${dup}`;
}

/** The score in words: "mutation score 75%", or why there is none. */
export function describeScore(s: MutationSummary): string {
  return s.score === null ? 'no mutation score (nothing was killed or survived)' : `mutation score ${s.score}%`;
}

/** The summary in words: "5 mutants: 3 killed, 1 survived, 0 crashed, 1 invalid (and 1 duplicate, counted once); mutation score 75%". */
export function describeSummary(s: MutationSummary): string {
  return `${describeCounts(s)}; ${describeScore(s)}`;
}

/** Read a `report.json`, or undefined when there is none or it is not one. */
export async function readMutationReport(file: string): Promise<MutationReport | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const r = JSON.parse(text) as MutationReport;
    return r && r.schemaVersion === MUTATE_SCHEMA_VERSION && Array.isArray(r.mutants) ? r : undefined;
  } catch {
    return undefined;
  }
}

/** A run folder's reports: report.json (required), and the standard report and the page as written (when present). */
export async function readMutationRun(dir: string): Promise<{ report: MutationReport; schemaJson?: string; html?: string } | undefined> {
  const report = await readMutationReport(path.join(dir, RUN_FILES.report));
  if (!report) return undefined;
  const text = (f: string) => readFile(path.join(dir, f), 'utf8').catch(() => undefined);
  const [schemaJson, html] = await Promise.all([text(RUN_FILES.schemaReport), text(RUN_FILES.html)]);
  return { report, ...(schemaJson !== undefined ? { schemaJson } : {}), ...(html !== undefined ? { html } : {}) };
}
