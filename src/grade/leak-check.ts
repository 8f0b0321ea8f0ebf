/**
 * The leak check's one loop, for a take-home submission (grade.ts) and for a lab's answer sheet
 * (sheet-variants.ts): when a submission's own variant is not all green (and its run could be
 * trusted), judge it against up to LEAK_CHECK_MAX other variants' tests, hidden ones included,
 * those whose values its text carries first (`leakCandidates`); the first that is all green is
 * named (PK584). What is judged for another variant (the same files, or the same answers
 * composed over that variant's starter) is the caller's.
 */
import { GradeErrors } from '../errors/grade-catalog.ts';
import { finding, type Finding } from '../judge/findings.ts';
import type { Judgement } from '../judge/judge.ts';
import { judgeRun } from '../judge/judge-run.ts';
import type { TestRunner } from '../judge/run-tests.ts';
import type { CardVariant } from '../judge/scorecard.ts';
import type { PacketFiles, Submission } from '../judge/workspace.ts';
import { variantId, type VariantValues } from '../packets/variants.ts';
import type { VariantBench } from './grade-variants.ts';
import { leakCandidates } from './variant-read.ts';

/** What the leak check's runs need. */
export interface LeakRunOptions {
  runner: TestRunner;
  scratchDir: string;
  random: () => number;
  now: () => number;
}

/** What is judged for another variant: its id, its files, and the submission as it would be there. */
export interface LeakTrial {
  id: string;
  files: PacketFiles;
  submission: Submission;
}

/** The leak check's outcome: whether it ran, what it tried, and the PK584 finding when another variant passed. */
export interface LeakOutcome {
  check: CardVariant['leakCheck'];
  finding?: Finding;
}

/**
 * The leak check over the candidates `leakCandidates` ranks by `texts`; `trial(k)` gives what
 * to judge for variant k, or undefined to pass it over (it is then not counted as tried).
 */
export async function leakCheckOver(
  o: LeakRunOptions,
  bench: VariantBench,
  own: { number: number; values: VariantValues },
  texts: readonly string[],
  mine: Judgement,
  trial: (k: number) => Promise<LeakTrial | undefined>,
): Promise<LeakOutcome> {
  const untrusted = mine.findings.some((f) => f.kind === 'infra' || f.kind === 'tamper');
  if (mine.testsGreen || untrusted) return { check: { ran: false, reason: mine.testsGreen ? 'its own variant is green' : 'its own run cannot be trusted', tried: [], passed: null } };
  const pool = Math.max(bench.count, own.number);
  const others: { number: number; values: VariantValues }[] = [];
  for (let k = 1; k <= pool; k++) if (k !== own.number) others.push({ number: k, values: bench.values(k) });
  const tried: string[] = [];
  for (const k of leakCandidates(own, others, texts)) {
    const t = await trial(k);
    if (!t) continue;
    tried.push(t.id);
    const r = await judgeRun({ files: t.files, submission: t.submission, withHidden: true, runner: o.runner, scratchDir: o.scratchDir, random: o.random, now: o.now });
    if ('rejected' in r) continue;
    const clean = r.judgement.testsGreen && !r.judgement.findings.some((f) => f.kind === 'infra' || f.kind === 'run' || f.kind === 'tamper');
    if (!clean) continue;
    const f = finding('hidden-tests', GradeErrors.AnswersOtherVariant, { own: variantId(own.number), other: t.id, ownTests: mine.description, otherTests: r.judgement.description });
    return { check: { ran: true, reason: 'its own variant is red', tried, passed: t.id }, finding: f };
  }
  return { check: { ran: true, reason: 'its own variant is red', tried, passed: null } };
}
