/**
 * Rehearse one packet: every check of docs/rehearsal.md, each workspace judged by the one judge
 * (src/judge). The floor (starter, visible tests) must be red for the right reason; the sample
 * must be PASS; each mode's mutant must be killed by the tests; each signal must match its
 * mutant and not the sample; the rubric must tell the sample from each mutant; each scripted
 * reply must end as its mode says. Every defect carries a catalog code.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LimitFunction } from 'p-limit';
import { RehearsalDefects } from '../errors/judge-catalog.ts';
import { calibrationCard } from '../judge/scorecard.ts';
import { judgeRun, type JudgedRun } from '../judge/judge-run.ts';
import { signalOutput, type Judgement } from '../judge/judge.ts';
import type { TestRunner } from '../judge/run-tests.ts';
import { compileSignal, describeSearch, findSignal, type SignalHit } from '../judge/signals.ts';
import { canonicalTestId } from '../judge/test-ids.ts';
import { EMPTY_SUBMISSION, loadPacketFiles, type PacketFiles, type Submission } from '../judge/workspace.ts';
import { failureModes, labModelOf, type CodePacket } from '../packets/packet.ts';
import type { FailureMode } from '../packets/schema/failures.ts';
import { labTables, type LabTables } from '../labs/table-cache.ts';
import { defect } from './defect.ts';
import { rehearseLab } from './rehearse-lab.ts';
import { replyChecks, type ScriptedEndpoint } from './replies.ts';
import type { CheckResult, PacketReport } from './report.ts';
import { statusOf } from './report.ts';

/** What rehearsing one packet needs. */
export interface PacketRehearsal {
  packet: CodePacket;
  /** Absolute path of the packet folder. */
  packetDir: string;
  runner: TestRunner;
  /** Shared pool: at most N sandbox runs at once across all packets. */
  limit: LimitFunction;
  /** Where workspaces are made. */
  scratchDir: string;
  /** Monotonic clock, ms. */
  now: () => number;
  /** [0, 1), for the canaries' names; default Math.random. */
  random?: () => number;
  /** Told about each check as it ends. */
  onCheck?: (check: CheckResult) => void;
  /** The embedded scripted endpoint: when set, every scripted reply is rehearsed through it (`reply:<name>` checks). */
  scripted?: ScriptedEndpoint;
  /** Wall clock, for the reply checks' receipts. */
  date?: () => Date;
  /** A lab's test tables (cached, shared with the build); default: computed here, kept in memory. */
  labTables?: LabTables;
}

/** One judged workspace of the rehearsal. */
interface Subject {
  name: string;
  judged: JudgedRun | { rejected: string };
  ms: number;
}

async function treeFiles(packetDir: string, tree: string, files: readonly string[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const f of files) out.set(f, await readFile(path.join(packetDir, tree, f)));
  return out;
}

async function judgeSubject(r: PacketRehearsal, files: PacketFiles, name: string, submission: Submission, withHidden: boolean): Promise<Subject> {
  const judged = await judgeRun({
    files,
    submission,
    withHidden,
    runner: r.runner,
    scratchDir: r.scratchDir,
    random: r.random ?? Math.random,
    now: r.now,
    schedule: (fn) => r.limit(fn),
  });
  return { name, judged, ms: 'rejected' in judged ? 0 : judged.durationMs };
}

/** The judgement of a subject, or why there is none (a layout the sandbox never saw, or a sandbox failure). */
function judgementOf(s: Subject): Judgement | { unjudged: string } {
  if ('rejected' in s.judged) return { unjudged: `the files could not be laid out: ${s.judged.rejected}` };
  const infra = s.judged.judgement.findings.find((f) => f.kind === 'infra');
  return infra ? { unjudged: infra.message } : s.judged.judgement;
}

function testsPart(s: Subject): Pick<CheckResult, 'tests' | 'outputTail' | 'findings'> {
  if ('rejected' in s.judged) return {};
  const j = s.judged.judgement;
  return { tests: j.tests, outputTail: s.judged.outputTail, ...(j.findings.length ? { findings: j.findings } : {}) };
}

function inconclusive(check: string, reason: string): Pick<CheckResult, 'ok' | 'inconclusive' | 'code' | 'defect' | 'actual'> {
  return { ...defect(RehearsalDefects.CheckInconclusive, { check, reason }), inconclusive: true, actual: reason };
}

/** The floor: the starter under its visible tests is red, because visible tests fail an assertion. */
export function floorCheck(packet: CodePacket, files: PacketFiles, floor: Subject): CheckResult {
  const declared = packet.kind === 'takehome' ? packet.sample.data.floor?.failing : undefined;
  const base = {
    id: 'floor',
    kind: 'floor' as const,
    expected: declared ? `red: exactly ${declared.length} named tests fail` : 'red: visible tests fail an assertion',
    durationMs: floor.ms,
    ...testsPart(floor),
  };
  const j = judgementOf(floor);
  if ('unjudged' in j) return { ...base, ...inconclusive('floor', j.unjudged) };
  const actual = j.description;
  const wrong = (reason: string) => ({ ...base, ...defect(RehearsalDefects.FloorWrongReason, { reason }), actual });
  const runFinding = j.findings.find((f) => f.kind === 'run' || f.kind === 'tamper');
  if (runFinding) return wrong(`${runFinding.code} ${runFinding.message}`);
  if (j.testsGreen) return { ...base, ...defect(RehearsalDefects.FloorGreen, {}), actual };
  if (j.tests.failed === 0) return wrong(`the tests error out instead of failing an assertion (${j.tests.errors} errors, no failures)`);
  if (declared) {
    const canon = (id: string) => canonicalTestId(id, files.testFiles.visible) ?? id;
    const want = new Set(declared.map(canon));
    const got = new Set(j.failing.visible);
    const missing = declared.filter((id) => !got.has(canon(id)));
    const extra = j.tests.failing.filter((id) => !want.has(canon(id)));
    if (missing.length || extra.length) return { ...base, ...defect(RehearsalDefects.FloorWrongTests, { missing, extra }), actual };
  }
  return { ...base, ok: true, actual };
}

/** The sample: PASS, with the hidden tests run, and keeping its own packet's rules. */
export function sampleCheck(packet: CodePacket, floor: Subject, sample: Subject): CheckResult {
  const base = { id: 'sample', kind: 'sample' as const, expected: 'PASS: every test green, nothing forged, the packet\'s rules kept', durationMs: sample.ms, ...testsPart(sample) };
  const j = judgementOf(sample);
  if ('unjudged' in j) return { ...base, ...inconclusive('sample', j.unjudged) };
  const actual = j.description;
  const say = (list: typeof j.findings) => list.map((f) => `${f.code} ${f.message}`).join('; ');
  const testFindings = j.findings.filter((f) => ['run', 'tamper', 'tests', 'hidden-tests'].includes(f.kind));
  if (testFindings.length) return { ...base, ...defect(RehearsalDefects.SampleRed, { reason: say(testFindings) }), actual };
  const rules = j.findings.filter((f) => ['protected', 'contract', 'deliverable', 'unsafe'].includes(f.kind));
  if (rules.length) return { ...base, ...defect(RehearsalDefects.SampleBreaksPacket, { what: 'The sample solution', findings: say(rules) }), actual };
  const floorJ = judgementOf(floor);
  const floorRan = 'unjudged' in floorJ ? 0 : (floorJ.tests.ran ?? 0);
  const sampleRan = j.tests.ran ?? 0;
  if (packet.trees.hidden.length && sampleRan <= floorRan) return { ...base, ...defect(RehearsalDefects.HiddenNotRun, { sampleRan, floorRan }), actual };
  return { ...base, ok: true, actual };
}

/** A mode's mutant: the tests kill it. */
export function mutantCheck(mode: FailureMode, subject: Subject): CheckResult {
  const base = { id: `mutant:${mode.id}`, kind: 'mutant' as const, mode: mode.id, expected: 'red: the tests kill the mutant', durationMs: subject.ms, ...testsPart(subject) };
  const j = judgementOf(subject);
  if ('unjudged' in j) return { ...base, ...inconclusive(`mutant:${mode.id}`, j.unjudged) };
  if (j.testsGreen) return { ...base, ...defect(RehearsalDefects.MutantSurvived, { mode: mode.id, title: mode.title, ran: j.tests.ran }), actual: `survived: ${j.description}` };
  const onlyHidden = j.visibleGreen;
  return { ...base, ok: true, actual: `killed: ${j.description}${onlyHidden ? '; only the hidden tests caught it (visible tests would show a false green)' : ''}` };
}

function hitOf(mode: FailureMode, s: Subject): SignalHit | null | string {
  if ('rejected' in s.judged) return null;
  const e = s.judged.evidence;
  return findSignal(mode, { before: e.before, starter: e.starter, output: e.run.error ? '' : signalOutput(e) });
}

/** A mode's signal: matches its mutant, not the sample. */
export function signalCheck(mode: FailureMode, sample: Subject, mutant: Subject, now: () => number): CheckResult {
  const t0 = now();
  const base = { id: `signal:${mode.id}`, kind: 'signal' as const, mode: mode.id, expected: `matches the mutant, not the sample (searches ${describeSearch(mode)})` };
  const compiled = compileSignal(mode);
  if (typeof compiled === 'string') return { ...base, ...defect(RehearsalDefects.SignalInvalid, { mode: mode.id, reason: compiled }), actual: 'does not compile', durationMs: now() - t0 };
  const onMutant = hitOf(mode, mutant);
  const onSample = hitOf(mode, sample);
  const show = (h: SignalHit | null | string) => (h && typeof h !== 'string' ? `${h.where}: ${h.line}` : 'no match');
  const actual = `mutant: ${show(onMutant)}; sample: ${show(onSample)}`;
  const durationMs = now() - t0;
  if (!onMutant || typeof onMutant === 'string') return { ...base, ...defect(RehearsalDefects.SignalMissesMutant, { mode: mode.id, searched: describeSearch(mode) }), actual, durationMs };
  if (onSample && typeof onSample !== 'string') return { ...base, ...defect(RehearsalDefects.SignalMatchesSample, { mode: mode.id, where: onSample.where, line: onSample.line }), actual, durationMs };
  return { ...base, ok: true, actual, durationMs };
}

/** The rubric scored on a subject (judgement rows at their best): the sample clears the bar, a mutant does not. */
export function calibrationCheck(packet: CodePacket, subject: Subject, mode: FailureMode | undefined, now: () => number): CheckResult | null {
  const t0 = now();
  const j = judgementOf(subject);
  if ('unjudged' in j) return null;
  const { rows, decision } = calibrationCard(packet, j);
  const ok = decision.decision === (mode ? 'no-hire' : 'hire');
  const card = rows.map((row) => `${row.id} ${row.score}`).join(', ');
  const base = {
    id: `calibration:${subject.name}`,
    kind: 'calibration' as const,
    ...(mode ? { mode: mode.id } : {}),
    expected: mode ? 'below the hire bar or vetoed' : 'clears the hire bar',
    actual: `${decision.decision}: ${decision.reason} [${card}]`,
    durationMs: now() - t0,
  };
  if (ok) return { ...base, ok: true };
  return mode
    ? { ...base, ...defect(RehearsalDefects.CalibrationMutant, { mode: mode.id, title: mode.title, total: decision.total, max: decision.max, hireBar: decision.hireBar }) }
    : { ...base, ...defect(RehearsalDefects.CalibrationSample, { reason: decision.reason }) };
}

/** Rehearse one packet: floor, sample, one mutant per mode, signals, calibration, scripted replies. */
export async function rehearsePacket(r: PacketRehearsal): Promise<PacketReport> {
  const { packet, packetDir } = r;
  const started = r.now();
  const checks: CheckResult[] = [];
  const push = (c: CheckResult | null) => {
    if (!c) return;
    checks.push(c);
    r.onCheck?.(c);
  };
  const files = await loadPacketFiles(packet, packetDir);
  if (labModelOf(packet)) {
    const tables = r.labTables ?? labTables({ runner: r.runner, scratchDir: r.scratchDir, dir: null, interpreter: null, kit: '' });
    for (const check of await rehearseLab(r, files, tables)) push(check);
    return reportOf(r, checks, started);
  }
  const sampleFiles = await treeFiles(packetDir, 'sample', packet.trees.sample);
  const [floor, sample] = await Promise.all([
    judgeSubject(r, files, 'starter', EMPTY_SUBMISSION, false),
    judgeSubject(r, files, 'sample', { files: sampleFiles, deleted: [] }, true),
  ]);
  push(floorCheck(packet, files, floor));
  push(sampleCheck(packet, floor, sample));

  // Scripted replies through the model pipeline, alongside the mutants.
  const replies =
    r.scripted && !('unjudged' in judgementOf(sample))
      ? replyChecks({ files, runner: r.runner, schedule: (fn) => r.limit(fn), scratchDir: r.scratchDir, endpoint: r.scripted, date: r.date ?? (() => new Date()), now: r.now })
      : Promise.resolve([]);
  // Awaited after the calibration; until then a failure must not go unhandled.
  replies.catch(() => undefined);

  const modes = failureModes(packet);
  const mutants = await Promise.all(
    modes.map(async (mode) => {
      const name = mode.mutant.replace(/\/+$/, '').split('/')[1] ?? mode.id;
      const overlay = await treeFiles(packetDir, `mutants/${name}`, packet.trees.mutants[name] ?? []);
      const subject = await judgeSubject(r, files, mode.id, { files: new Map([...sampleFiles, ...overlay]), deleted: [] }, true);
      return { mode, subject };
    }),
  );
  for (const { mode, subject } of mutants) push(mutantCheck(mode, subject));
  for (const { mode, subject } of mutants) push(signalCheck(mode, sample, subject, r.now));
  push(calibrationCheck(packet, sample, undefined, r.now));
  for (const { mode, subject } of mutants) push(calibrationCheck(packet, subject, mode, r.now));
  for (const check of await replies) push(check);

  return reportOf(r, checks, started);
}

function reportOf(r: PacketRehearsal, checks: CheckResult[], started: number): PacketReport {
  return {
    id: r.packet.id,
    version: r.packet.prompt.data.version,
    digest: r.packet.digest,
    status: statusOf(checks),
    checks,
    defects: checks.filter((c) => c.defect).map((c) => (c.code ? `${c.code} ${c.defect!}` : c.defect!)),
    cached: false,
    durationMs: r.now() - started,
  };
}
