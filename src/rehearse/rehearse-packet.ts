import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LimitFunction } from 'p-limit';
import type { Packet } from '../packets/packet.ts';
import type { FailureMode } from '../packets/schema/failures.ts';
import { scoreCard, splitFailing, workspaceContract, type AutoEvidence } from './calibration.ts';
import type { CheckResult, PacketReport } from './report.ts';
import { statusOf } from './report.ts';
import { countsOf, describeRun, isGreen, runTests, tail, type TestRun, type TestRunner } from './run-tests.ts';
import { replyChecks, type ScriptedEndpoint } from './replies.ts';
import { findSignal, type Evidence, type SignalHit } from './signals.ts';
import { composeWorkspace, protectedMatcher, type Layer } from './workspace.ts';

/** What rehearsing one packet needs. */
export interface PacketRehearsal {
  packet: Packet;
  /** Absolute path of the packet folder. */
  packetDir: string;
  runner: TestRunner;
  /** Shared pool: at most N sandbox runs at once across all packets. */
  limit: LimitFunction;
  /** Where workspaces are made. */
  scratchDir: string;
  /** Monotonic clock, ms. */
  now: () => number;
  /** Told about each check as it ends. */
  onCheck?: (check: CheckResult) => void;
  /** The embedded scripted endpoint: when set, every scripted reply is rehearsed through it (`reply:<name>` checks). */
  scripted?: ScriptedEndpoint;
  /** Wall clock, for the reply checks' receipts. */
  date?: () => Date;
}

/** A workspace that ran the tests, kept for signals and calibration. */
interface Subject {
  name: string;
  run: TestRun;
  evidence: Evidence;
  /** Files this subject's layers changed, with their text (for the workspace contract). */
  changed: Map<string, string>;
  /** A layer wrote a protected path (it was restored before the run). */
  touchedProtected: string[];
  /** Milliseconds from composing the workspace to the end of the run, queueing excluded. */
  ms: number;
}

async function readLayerFiles(packetDir: string, tree: string, files: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of files) out.set(f, await readFile(path.join(packetDir, tree, f), 'utf8').catch(() => ''));
  return out;
}

/** Run the tests of one composed workspace and keep its evidence. The workspace is removed after. */
async function runSubject(r: PacketRehearsal, name: string, layers: { tree: string; files: readonly string[] }[], withHidden: boolean): Promise<Subject> {
  const { packet, packetDir } = r;
  return r.limit(async () => {
    const t0 = r.now();
    const ws = await composeWorkspace(packet, packetDir, layers, { withHidden, parentDir: r.scratchDir });
    try {
      const run = await runTests(r.runner, ws.dir, packet.prompt.data.test);
      const isProtected = new Set(ws.protectedFiles);
      const changed = new Map<string, string>();
      const touchedProtected: string[] = [];
      for (const layer of layers) {
        for (const [f, text] of await readLayerFiles(packetDir, layer.tree, layer.files)) {
          if (isProtected.has(f) || protectedMatcher(packet)(f)) touchedProtected.push(f);
          else changed.set(f, text);
        }
      }
      // Signals read the files before the workspace goes: keep the candidate files' text in memory.
      const candidateFiles = ws.files.filter((f) => !isProtected.has(f));
      const snapshot = new Map<string, string>();
      for (const f of candidateFiles) snapshot.set(f, await readFile(path.join(ws.dir, f), 'utf8').catch(() => ''));
      const evidence: Evidence = {
        candidateFiles,
        starterDir: path.join(packetDir, 'starter'),
        starterFiles: packet.trees.starter,
        output: run.output,
        snapshot,
      };
      return { name, run, evidence, changed, touchedProtected, ms: r.now() - t0 };
    } finally {
      await ws.dispose();
    }
  });
}

function infraFailure(run: TestRun): string | undefined {
  return run.result.error ? `the sandbox could not run the tests: ${run.result.error}` : undefined;
}

/** Rehearse one packet: floor, sample, one mutant per mode, signals, calibration. */
export async function rehearsePacket(r: PacketRehearsal): Promise<PacketReport> {
  const { packet } = r;
  const started = r.now();
  const checks: CheckResult[] = [];
  const push = (c: CheckResult) => {
    checks.push(c);
    r.onCheck?.(c);
  };
  const sampleLayer = { tree: 'sample', files: packet.trees.sample };
  const [floor, sample] = await Promise.all([runSubject(r, 'starter', [], false), runSubject(r, 'sample', [sampleLayer], true)]);

  // Floor: red for the right reason.
  {
    const run = floor.run;
    const infra = infraFailure(run);
    const expectedFailing = r.packet.sample.data.floor?.failing;
    let defect: string | undefined;
    const s = run.summary;
    if (infra) defect = infra;
    else if (run.result.timedOut) defect = 'The starter\'s tests hang: they were killed at the time limit instead of failing.';
    else if (s.crash) defect = `The starter is red for the wrong reason: ${s.crash}. A candidate would start from a crash, not from failing tests.`;
    else if (isGreen(run, 1)) defect = 'The starter already passes its visible tests, so the task is done before it starts.';
    else if (!s.ran) defect = 'The starter\'s test run executed no test.';
    else if (s.failed === 0) defect = `The starter's tests error out instead of failing an assertion (${s.errors} errors, no failures).`;
    else if (expectedFailing) {
      const missing = expectedFailing.filter((id) => !s.failing.includes(id));
      const extra = s.failing.filter((id) => !expectedFailing.includes(id));
      if (missing.length || extra.length) {
        defect = `The starter fails other tests than the packet expects${missing.length ? `; expected to fail but did not: ${missing.join(', ')}` : ''}${extra.length ? `; failed unexpectedly: ${extra.join(', ')}` : ''}.`;
      }
    }
    push({
      id: 'floor',
      kind: 'floor',
      expected: expectedFailing ? `red: exactly ${expectedFailing.length} named tests fail` : 'red: visible tests fail an assertion',
      actual: describeRun(run),
      ok: !defect,
      ...(infra ? { inconclusive: true } : {}),
      ...(defect ? { defect } : {}),
      durationMs: floor.ms,
      tests: countsOf(run),
      outputTail: tail(run.output),
    });
  }

  // Sample: green with visible and hidden tests, and the hidden tests really ran.
  const floorRan = floor.run.summary.ran ?? 0;
  const sampleRan = sample.run.summary.ran ?? 0;
  {
    const run = sample.run;
    const infra = infraFailure(run);
    let defect: string | undefined;
    if (infra) defect = infra;
    else if (!isGreen(run, Math.max(1, floorRan))) defect = `The sample solution does not pass the tests (${describeRun(run)}), so no candidate can be expected to.`;
    else if (packet.trees.hidden.length && sampleRan <= floorRan)
      defect = `The hidden tests did not run: the sample ran ${sampleRan} tests, the starter ${floorRan}. Check the hidden files' names match the test command's pattern.`;
    push({
      id: 'sample',
      kind: 'sample',
      expected: 'green: visible and hidden tests pass',
      actual: describeRun(run) + (sample.touchedProtected.length ? `; the sample's own copies of ${sample.touchedProtected.join(', ')} were replaced by the packet's` : ''),
      ok: !defect,
      ...(infra ? { inconclusive: true } : {}),
      ...(defect ? { defect } : {}),
      durationMs: sample.ms,
      tests: countsOf(run),
      outputTail: tail(run.output),
    });
  }

  // Scripted replies through the model pipeline, alongside the mutants (they need the sample's test count).
  const replies =
    r.scripted && !infraFailure(sample.run)
      ? replyChecks({
          packet,
          packetDir: r.packetDir,
          runner: r.runner,
          schedule: (fn) => r.limit(fn),
          scratchDir: r.scratchDir,
          sampleRan,
          endpoint: r.scripted,
          date: r.date ?? (() => new Date()),
          now: r.now,
        })
      : Promise.resolve([]);
  // Awaited after the calibration; until then a failure must not go unhandled.
  replies.catch(() => undefined);

  // One mutant per mode: killed.
  const modes = packet.failures.data.modes;
  const mutants = await Promise.all(
    modes.map(async (mode) => {
      const name = mode.mutant.replace(/\/+$/, '').split('/')[1] ?? mode.id;
      const files = packet.trees.mutants[name] ?? [];
      const subject = await runSubject(r, mode.id, [sampleLayer, { tree: `mutants/${name}`, files }], true);
      return { mode, subject, ms: subject.ms };
    }),
  );
  for (const { mode, subject, ms } of mutants) {
    const run = subject.run;
    const infra = infraFailure(run);
    const survived = !infra && isGreen(run, sampleRan);
    const split = splitFailing(packet, run.summary.failing);
    const onlyHidden = !survived && !infra && split.visible === 0 && run.summary.failing.length > 0;
    push({
      id: `mutant:${mode.id}`,
      kind: 'mutant',
      mode: mode.id,
      expected: 'red: the tests kill the mutant',
      actual: survived ? `survived: ${describeRun(run)}` : `killed: ${describeRun(run)}${onlyHidden ? '; only the hidden tests caught it (visible tests would show a false green)' : ''}`,
      ok: !survived && !infra,
      ...(infra ? { inconclusive: true, defect: infra } : {}),
      ...(survived
        ? { defect: `The tests miss the failure "${mode.title}" (${mode.id}): its mutant passes all ${run.summary.ran} tests. Add a test that fails on mutants/${mode.id}.` }
        : {}),
      durationMs: ms,
      tests: countsOf(run),
      outputTail: tail(run.output),
    });
  }

  // Signals: each matches its mutant and not the sample.
  const hits = new Map<string, Map<string, SignalHit | null | string>>();
  const subjects = [sample.evidence, ...mutants.map((m) => m.subject.evidence)];
  const names = ['sample', ...mutants.map((m) => m.mode.id)];
  for (const mode of modes) {
    const t0 = r.now();
    const perSubject = new Map<string, SignalHit | null | string>();
    for (let i = 0; i < subjects.length; i++) perSubject.set(names[i]!, await findSignal(mode, subjects[i]!));
    hits.set(mode.id, perSubject);
    const onMutant = perSubject.get(mode.id);
    const onSample = perSubject.get('sample');
    let defect: string | undefined;
    if (typeof onMutant === 'string') defect = `The signal of "${mode.id}" is not a valid regular expression: ${onMutant}.`;
    else if (!onMutant) defect = `The signal of "${mode.id}" does not match its own mutant, so a reviewer grepping for it would miss this failure.`;
    else if (onSample && typeof onSample !== 'string') defect = `The signal of "${mode.id}" also matches the sample solution (${onSample.where}: ${onSample.line}), so it would flag a good answer.`;
    push({
      id: `signal:${mode.id}`,
      kind: 'signal',
      mode: mode.id,
      expected: 'matches the mutant, not the sample',
      actual: `${onMutant && typeof onMutant !== 'string' ? `mutant: ${onMutant.where}: ${onMutant.line}` : 'mutant: no match'}; ${onSample && typeof onSample !== 'string' ? `sample: ${onSample.where}: ${onSample.line}` : 'sample: no match'}`,
      ok: !defect,
      ...(defect ? { defect } : {}),
      durationMs: r.now() - t0,
    });
  }

  // Calibration: the sample clears the hire bar; every mutant falls below it or trips a veto.
  const calibrate = (subject: Subject, name: string): AutoEvidence => {
    const split = splitFailing(packet, subject.run.summary.failing);
    const green = isGreen(subject.run, name === 'sample' ? Math.max(1, floorRan) : sampleRan);
    const visibleGreen = green || (!subject.run.result.error && !subject.run.result.timedOut && !subject.run.summary.crash && split.visible === 0 && subject.run.summary.failing.length > 0);
    const matchedModes = modes.filter((m) => {
      const h = hits.get(m.id)?.get(name);
      return h && typeof h !== 'string';
    });
    return {
      testsGreen: green,
      visibleGreen,
      hiddenGreen: green || split.hidden === 0,
      protectedIntact: subject.touchedProtected.length === 0,
      workspaceOk: workspaceContract(packet, subject.changed).ok,
      matchedModes: matchedModes.map((m) => m.id),
    };
  };
  const calib = [{ name: 'sample', subject: sample, mode: undefined as FailureMode | undefined }, ...mutants.map((m) => ({ name: m.mode.id, subject: m.subject, mode: m.mode }))];
  for (const { name, subject, mode } of calib) {
    const t0 = r.now();
    if (subject.run.result.error) continue;
    const { scores, decision } = scoreCard(packet, calibrate(subject, name));
    const want = mode ? 'no-hire' : 'hire';
    const ok = decision.decision === want;
    const card = Object.entries(scores).map(([row, s]) => `${row} ${s}`).join(', ');
    push({
      id: `calibration:${name}`,
      kind: 'calibration',
      ...(mode ? { mode: mode.id } : {}),
      expected: mode ? 'below the hire bar or vetoed' : 'clears the hire bar',
      actual: `${decision.decision}: ${decision.reason} [${card}]`,
      ok,
      ...(ok
        ? {}
        : {
            defect: mode
              ? `The rubric cannot tell "${mode.title}" from a hire: scored with every judgement row at its best, the mutant still gets ${decision.total} of ${decision.max} (hire bar ${decision.hireBar}) and trips no veto. Raise the bar, add a veto, or cap a row lower.`
              : `The sample solution does not clear the rubric's own hire bar (${decision.reason}).`,
          }),
      durationMs: r.now() - t0,
    });
  }

  for (const check of await replies) push(check);

  return {
    id: packet.id,
    version: packet.prompt.data.version,
    digest: packet.digest,
    status: statusOf(checks),
    checks,
    defects: checks.filter((c) => c.defect).map((c) => c.defect!),
    cached: false,
    durationMs: r.now() - started,
  };
}
