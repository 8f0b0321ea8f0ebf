/**
 * Rehearse a lab: prove it fails closed, each verdict from a run of the one judge (canaries,
 * every expected test, the workspace contract), each run a combination of its suggestions'
 * states composed onto the starter:
 *
 * - `lab:key`: the key's combination is PASS, visible and held-out tests green;
 * - `lab:wrong:<id>:<state>`: a wrong choice on one suggestion (the rest at the key) is caught by
 *   a test, or the suggestion is declared `reviewOnly`;
 * - `lab:reject:<id>`: rejecting a suggestion the key keeps (accept or revise) leaves a test red;
 * - `lab:all-offered`: accepting everything as offered is not green;
 * - `lab:plausible`: at least one wrong suggestion passes the visible tests as offered (and is
 *   still wrong: held-out tests or review catch it);
 * - `lab:calibration`: the rubric clears the key's answer and not the accept-everything one;
 * - `lab:table`: the precomputed table the page shows agrees with every judged run.
 */
import { LabDefects } from '../errors/lab-catalog.ts';
import { RehearsalDefects } from '../errors/judge-catalog.ts';
import { decide } from '../judge/score.ts';
import { judgeRun, type JudgedRun } from '../judge/judge-run.ts';
import type { Judgement } from '../judge/judge.ts';
import type { PacketFiles } from '../judge/workspace.ts';
import { calibratedScores } from '../labs/score.ts';
import { allPass, type LabTable } from '../labs/table.ts';
import type { LabTables } from '../labs/table-cache.ts';
import { combinationIndex, composeLab, type LabState } from '../packets/lab-compose.ts';
import { keyCombination, type LabModel } from '../packets/lab-model.ts';
import { labModelOf, type CodePacket } from '../packets/packet.ts';
import type { TestRunner } from '../judge/run-tests.ts';
import type { LimitFunction } from 'p-limit';
import { defect } from './defect.ts';
import type { CheckResult } from './report.ts';

/** What rehearsing a lab needs (a packet rehearsal's fields). */
export interface LabRehearsal {
  packet: CodePacket;
  runner: TestRunner;
  /** The shared pool of sandbox runs. */
  limit: LimitFunction;
  scratchDir: string;
  now: () => number;
  random?: () => number;
}

/** One judged combination. */
interface Judged {
  states: LabState[];
  run: JudgedRun | { rejected: string };
}

const describeStates = (model: LabModel, states: readonly LabState[]) => model.suggestions.map((s, i) => `${s.id}=${states[i]}`).join(', ');

function judgementOf(j: Judged): Judgement | { unjudged: string } {
  if ('rejected' in j.run) return { unjudged: `the files could not be laid out: ${j.run.rejected}` };
  const infra = j.run.judgement.findings.find((f) => f.kind === 'infra');
  return infra ? { unjudged: infra.message } : j.run.judgement;
}

function testsPart(j: Judged): Pick<CheckResult, 'tests' | 'outputTail' | 'findings' | 'durationMs'> {
  if ('rejected' in j.run) return { durationMs: 0 };
  const jj = j.run.judgement;
  return { tests: jj.tests, outputTail: j.run.outputTail, durationMs: j.run.durationMs, ...(jj.findings.length ? { findings: jj.findings } : {}) };
}

function inconclusive(check: string, reason: string) {
  return { ...defect(RehearsalDefects.CheckInconclusive, { check, reason }), inconclusive: true, actual: reason };
}

/** The test ids a judgement saw fail, in the judge's id form. */
function failingIds(j: Judgement): string[] {
  return [...j.failing.visible, ...j.failing.hidden].sort();
}

/** The test ids a table's combination says did not pass. */
function tableFailing(table: LabTable, index: number): string[] {
  const c = table.combinations[index]!;
  return [
    ...table.tests.visible.filter((_, i) => c.visible[i]!.outcome !== 'pass'),
    ...table.tests.hidden.filter((_, i) => c.hidden[i]!.outcome !== 'pass'),
  ].sort();
}

/** Rehearse one lab; `tables` gives its precomputed table. */
export async function rehearseLab(r: LabRehearsal, files: PacketFiles, tables: LabTables): Promise<CheckResult[]> {
  const model = labModelOf(r.packet);
  if (!model) throw new Error(`rehearseLab: ${r.packet.id} is not a lab with resolved suggestions`);
  const n = model.suggestions.length;
  const key = keyCombination(model);
  const judgeStates = (states: LabState[]): Promise<Judged> =>
    judgeRun({
      files,
      submission: { files: composeLab(model, states), deleted: [] },
      withHidden: true,
      runner: r.runner,
      scratchDir: r.scratchDir,
      random: r.random ?? Math.random,
      now: r.now,
      schedule: (fn) => r.limit(fn),
    }).then((run) => ({ states, run }));

  // Every combination a rule needs, each judged once.
  const wanted = new Map<number, LabState[]>();
  const want = (states: LabState[]) => wanted.set(combinationIndex(states), states);
  want(key);
  for (let i = 0; i < n; i++) for (const state of ['reject', 'accept', 'revise'] as const) if (state !== key[i]) want(key.map((k, j) => (j === i ? state : k)));
  const allOffered = key.map(() => 'accept' as const);
  want(allOffered);
  const tablePromise = tables(files);
  tablePromise.catch(() => undefined);
  const judged = new Map<number, Judged>();
  await Promise.all([...wanted].map(async ([index, states]) => judged.set(index, await judgeStates(states))));
  const at = (states: LabState[]) => judged.get(combinationIndex(states))!;

  const checks: CheckResult[] = [];
  const keyRun = at(key);
  {
    const base = { id: 'lab:key', kind: 'lab' as const, expected: 'PASS: every visible and held-out test green, nothing forged', ...testsPart(keyRun) };
    const j = judgementOf(keyRun);
    if ('unjudged' in j) checks.push({ ...base, ...inconclusive('lab:key', j.unjudged) });
    else if (j.verdict !== 'PASS') checks.push({ ...base, ...defect(LabDefects.LabKeyRed, { reason: j.findings.map((f) => `${f.code} ${f.message}`).join('; ') }), actual: `${j.verdict}: ${j.description}` });
    else checks.push({ ...base, ok: true, actual: `PASS: ${j.description}` });
  }

  const offeredGreen: { id: string; visibleGreen: boolean }[] = [];
  model.suggestions.forEach((s, i) => {
    for (const state of ['reject', 'accept', 'revise'] as const) {
      if (state === s.key.choice) continue;
      const states = key.map((k, j) => (j === i ? state : k));
      const run = at(states);
      const needed = state === 'reject';
      const id = needed ? `lab:reject:${s.id}` : `lab:wrong:${s.id}:${state}`;
      const expected = needed ? 'red: a test needs this change' : s.key.reviewOnly ? 'red, or green as declared reviewOnly' : 'red: a test catches the wrong choice';
      const base = { id, kind: 'lab' as const, expected, ...testsPart(run) };
      const j = judgementOf(run);
      if ('unjudged' in j) {
        checks.push({ ...base, ...inconclusive(id, j.unjudged) });
        continue;
      }
      if (state === 'accept' && s.key.choice !== 'accept') offeredGreen.push({ id: s.id, visibleGreen: j.visibleGreen });
      const actual = `${j.testsGreen ? 'green' : j.visibleGreen ? 'caught by the held-out tests' : 'caught by the visible tests'}: ${j.description}`;
      if (!j.testsGreen) checks.push({ ...base, ok: true, actual });
      else if (needed) checks.push({ ...base, ...defect(LabDefects.LabRightRejectedGreen, { suggestion: s.id, key: s.key.choice }), actual });
      else if (s.key.reviewOnly) checks.push({ ...base, ok: true, actual: `${actual}; declared reviewOnly: ${s.key.reviewOnly.trim()}` });
      else checks.push({ ...base, ...defect(LabDefects.LabWrongNotCaught, { suggestion: s.id, state, key: s.key.choice }), actual });
    }
  });

  const allRun = at(allOffered);
  {
    const base = { id: 'lab:all-offered', kind: 'lab' as const, expected: 'not green: accepting everything is caught', ...testsPart(allRun) };
    const j = judgementOf(allRun);
    if ('unjudged' in j) checks.push({ ...base, ...inconclusive('lab:all-offered', j.unjudged) });
    else if (j.testsGreen) checks.push({ ...base, ...defect(LabDefects.LabAllOfferedGreen, {}), actual: `green: ${j.description}` });
    else checks.push({ ...base, ok: true, actual: `red: ${j.description}` });
  }

  {
    const plausible = offeredGreen.filter((o) => o.visibleGreen).map((o) => o.id);
    const base = { id: 'lab:plausible', kind: 'lab' as const, expected: 'a wrong suggestion that passes the visible tests', durationMs: 0 };
    if (plausible.length) checks.push({ ...base, ok: true, actual: `passes the visible tests as offered and is still wrong: ${plausible.join(', ')}` });
    else checks.push({ ...base, ...defect(LabDefects.LabNothingPlausible, {}), actual: 'every wrong suggestion fails a visible test as offered' });
  }

  {
    const keyJ = judgementOf(keyRun);
    const allJ = judgementOf(allRun);
    const base = { id: 'lab:calibration', kind: 'lab' as const, expected: "the key's answer clears the hire bar; accepting everything does not", durationMs: 0 };
    if (!('unjudged' in keyJ) && !('unjudged' in allJ)) {
      const rubric = r.packet.rubric.data;
      const evidence = (j: Judgement, matches: number) => ({ matches, total: n, testsGreen: j.testsGreen, visibleGreen: j.visibleGreen, hiddenGreen: j.hiddenGreen });
      const keyDecision = decide(rubric, calibratedScores(rubric, evidence(keyJ, n)));
      const allDecision = decide(rubric, calibratedScores(rubric, evidence(allJ, key.filter((k) => k === 'accept').length)));
      const actual = `key: ${keyDecision.decision} (${keyDecision.reason}); all offered: ${allDecision.decision} (${allDecision.reason})`;
      if (keyDecision.decision !== 'hire') checks.push({ ...base, ...defect(LabDefects.LabCalibration, { reason: `the key's own answer is a no (${keyDecision.reason})` }), actual });
      else if (allDecision.decision === 'hire') checks.push({ ...base, ...defect(LabDefects.LabCalibration, { reason: `an answer that accepts every suggestion as offered is still a hire (${allDecision.reason})` }), actual });
      else checks.push({ ...base, ok: true, actual });
    }
  }

  {
    const t0 = r.now();
    const outcome = await tablePromise.catch((err: unknown) => ({ error: (err as Error).message }));
    const base = { id: 'lab:table', kind: 'lab' as const, expected: `every one of the ${3 ** n} combinations run; the table agrees with each judged run` };
    if ('error' in outcome) checks.push({ ...base, ...inconclusive('lab:table', outcome.error), durationMs: r.now() - t0 });
    else {
      const disagreements: string[] = [];
      let first: { combination: string; table: string; judge: string } | undefined;
      for (const [index, run] of judged) {
        const j = judgementOf(run);
        if ('unjudged' in j) continue;
        const c = outcome.table.combinations[index]!;
        const tableSays = tableFailing(outcome.table, index);
        const judgeSays = failingIds(j);
        // A run that crashed or lost tests names its failures by module, the table by test: compare what each says is green.
        const ranClean = !j.findings.some((f) => f.kind === 'run' || f.kind === 'tamper');
        const same = allPass(c.visible) === j.visibleGreen && allPass(c.hidden) === j.hiddenGreen && (!ranClean || tableSays.join() === judgeSays.join());
        if (same) continue;
        disagreements.push(describeStates(model, run.states));
        first ??= {
          combination: describeStates(model, run.states),
          table: tableSays.length ? `${tableSays.length} failing (${tableSays.join(', ')})` : 'every test passes',
          judge: judgeSays.length ? `${judgeSays.length} failing (${judgeSays.join(', ')})` : j.testsGreen ? 'every test passes' : j.description,
        };
      }
      const summary = `${outcome.table.combinations.length} combinations${outcome.cached ? ' (cached)' : ` in ${Math.round(outcome.runMs)} ms`}, ${judged.size} judged`;
      if (first) checks.push({ ...base, ...defect(LabDefects.LabTableDisagrees, first), actual: `${summary}; disagrees on ${disagreements.join(' | ')}`, durationMs: r.now() - t0 + ('runMs' in outcome ? outcome.runMs : 0) });
      else checks.push({ ...base, ok: true, actual: `${summary}: they agree`, durationMs: r.now() - t0 + outcome.runMs });
    }
  }
  return checks;
}
