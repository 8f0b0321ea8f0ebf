/**
 * Judge the files a reply writes: lay them over the starter in a fresh workspace (the
 * protected files and hidden tests copied last, from the packet), run every test in the
 * sandbox, grep every failure signal, and name the verdict.
 */
import { lstat, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Packet } from '../packets/packet.ts';
import { splitFailing, workspaceContract } from './calibration.ts';
import type { TestCounts } from './report.ts';
import { countsOf, describeRun, isGreen, runTests, tail, type TestRunner } from './run-tests.ts';
import { findSignal, type Evidence } from './signals.ts';
import { composeWorkspace, protectedMatcher } from './workspace.ts';

/** What judged a wrong answer. */
export type CaughtBy = 'visible-tests' | 'hidden-tests' | 'signal';

/** The verdict on one applied reply (GAVE-UP is a run's, not a reply's). */
export type ReplyVerdict = 'PASS' | 'CAUGHT' | 'FALSE-GREEN' | 'INCONCLUSIVE';

/** A failure signal that matched. */
export interface SignalMatch {
  mode: string;
  where: string;
  line: string;
}

/** Everything known about one applied reply. */
export interface Evaluation {
  verdict: ReplyVerdict;
  /** Every test (visible and hidden) ran, at least as many as the sample runs, and passed. */
  allGreen: boolean;
  /** No visible test failed (only hidden tests did, or none). */
  visibleGreen: boolean;
  caughtBy: CaughtBy[];
  signals: SignalMatch[];
  tests: TestCounts;
  /** The run in words. */
  summary: string;
  outputTail: string;
  /** Protected paths the reply wrote; the packet's copies ran instead. */
  touchedProtected: string[];
  /** The workspace contract (allowed paths, forbidden patterns) over the reply's files. */
  workspace: { ok: boolean; problems: string[] };
  /** Set when the sandbox could not run the tests: the verdict is INCONCLUSIVE. */
  infra?: string;
  /** Set when the files could not be laid out (a file where a folder must be, a symlink). */
  rejected?: string;
  /** Failing tests and matched signals: equal keys mean the reply changed no test result. */
  resultKey: string;
  durationMs: number;
}

/** What evaluating needs. */
export interface EvaluateInput {
  packet: Packet;
  packetDir: string;
  /** The reply's files (all turns so far), relative to the workspace root. */
  files: ReadonlyMap<string, string>;
  /** Paths the reply deletes. */
  deleted: readonly string[];
  runner: TestRunner;
  scratchDir: string;
  /** Tests the sample runs (visible and hidden): fewer is not green. */
  expectedRan: number;
  /** Wraps each sandbox run (a shared pool). */
  schedule?: <T>(fn: () => Promise<T>) => Promise<T>;
  now: () => number;
}

/** Why these paths cannot all exist at once (one is a file where another needs a folder), or null. */
export function layoutConflict(paths: Iterable<string>): string | null {
  const all = new Set(paths);
  for (const p of all) {
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (all.has(dir)) return `"${dir}" is both a file and a folder of "${p}"`;
    }
  }
  return null;
}

async function symlinkOnPath(root: string, rel: string): Promise<string | null> {
  const parts = rel.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const st = await lstat(path.join(root, ...parts.slice(0, i))).catch(() => undefined);
    if (st?.isSymbolicLink()) return parts.slice(0, i).join('/');
  }
  return null;
}

function emptyEvaluation(reason: { infra?: string; rejected?: string }, ms: number): Evaluation {
  return {
    verdict: 'INCONCLUSIVE',
    allGreen: false,
    visibleGreen: false,
    caughtBy: [],
    signals: [],
    tests: { ran: null, failed: 0, errors: 0, failing: [], exitCode: null, timedOut: false },
    summary: reason.infra ?? reason.rejected ?? '',
    outputTail: '',
    touchedProtected: [],
    workspace: { ok: true, problems: [] },
    ...reason,
    resultKey: `rejected:${reason.rejected ?? reason.infra}`,
    durationMs: ms,
  };
}

/** Apply, test, grep, judge. Never throws for a bad reply; a workspace problem comes back as `rejected`. */
export async function evaluateReply(input: EvaluateInput): Promise<Evaluation> {
  const { packet } = input;
  const t0 = input.now();
  const schedule = input.schedule ?? (<T>(fn: () => Promise<T>) => fn());
  const isProtected = protectedMatcher(packet);
  const guarded = (p: string) => isProtected(p) || packet.trees.hidden.includes(p);
  const touchedProtected = [...new Set([...input.files.keys(), ...input.deleted])].filter(guarded).sort();
  // A reply never writes under a protected glob: files there that the packet has are restored
  // from it, and new ones (a conftest.py that patches the code under test, say) are dropped.
  const files = new Map([...input.files].filter(([p]) => !guarded(p)));
  const removed = input.deleted.filter((p) => !guarded(p));
  const conflict = layoutConflict([...packet.trees.starter.filter((p) => !removed.includes(p)), ...packet.trees.hidden, ...files.keys()]);
  if (conflict) return emptyEvaluation({ rejected: conflict }, input.now() - t0);

  return schedule(async () => {
    const started = input.now();
    let ws;
    try {
      ws = await composeWorkspace(packet, input.packetDir, [{ memory: files }], { withHidden: true, parentDir: input.scratchDir });
    } catch (err) {
      return emptyEvaluation({ rejected: `the files could not be laid out: ${(err as Error).message}` }, input.now() - started);
    }
    try {
      const protectedSet = new Set(ws.protectedFiles);
      for (const d of removed) await rm(path.join(ws.dir, d), { force: true });
      for (const p of files.keys()) {
        const link = await symlinkOnPath(ws.dir, p);
        if (link) return emptyEvaluation({ rejected: `"${link}" is a symlink` }, input.now() - started);
      }
      const run = await runTests(input.runner, ws.dir, packet.prompt.data.test);
      if (run.result.error) return emptyEvaluation({ infra: `the sandbox could not run the tests: ${run.result.error}` }, input.now() - started);
      const deleted = new Set(removed);
      const candidateFiles = ws.files.filter((f) => !protectedSet.has(f) && !deleted.has(f));
      const snapshot = new Map<string, string>();
      for (const f of candidateFiles) snapshot.set(f, await readFile(path.join(ws.dir, f), 'utf8').catch(() => ''));
      const evidence: Evidence = { candidateFiles, snapshot, starterDir: path.join(input.packetDir, 'starter'), starterFiles: packet.trees.starter, output: run.output };
      const signals: SignalMatch[] = [];
      for (const mode of packet.failures.data.modes) {
        const hit = await findSignal(mode, evidence);
        if (hit && typeof hit !== 'string') signals.push({ mode: mode.id, where: hit.where, line: hit.line });
      }
      const green = isGreen(run, Math.max(1, input.expectedRan));
      const s = run.summary;
      const split = splitFailing(packet, s.failing);
      const visibleGreen = green || (!run.result.timedOut && !run.result.outputFlooded && !s.crash && s.failing.length > 0 && split.visible === 0);
      const caughtBy: CaughtBy[] = [];
      if (!visibleGreen) caughtBy.push('visible-tests');
      if (!green && (visibleGreen || split.hidden > 0)) caughtBy.push('hidden-tests');
      if (signals.length) caughtBy.push('signal');
      const verdict: ReplyVerdict = green && !signals.length ? 'PASS' : visibleGreen ? 'FALSE-GREEN' : 'CAUGHT';
      return {
        verdict,
        allGreen: green,
        visibleGreen,
        caughtBy,
        signals,
        tests: countsOf(run),
        summary: describeRun(run),
        outputTail: tail(run.output),
        touchedProtected,
        workspace: workspaceContract(packet, files),
        resultKey: JSON.stringify({ green, failing: s.failing, crash: s.crash ?? null, timedOut: run.result.timedOut, signals: signals.map((x) => x.mode) }),
        durationMs: input.now() - started,
      };
    } finally {
      await ws.dispose();
    }
  });
}

/**
 * The visible tests' output for a feedback turn: the same files without the hidden tests, so no
 * line of a hidden test can reach the model through a traceback.
 */
export async function visibleTestOutput(input: Omit<EvaluateInput, 'expectedRan'>): Promise<string> {
  const schedule = input.schedule ?? (<T>(fn: () => Promise<T>) => fn());
  const isProtected = protectedMatcher(input.packet);
  const guarded = (p: string) => isProtected(p) || input.packet.trees.hidden.includes(p);
  const files = new Map([...input.files].filter(([p]) => !guarded(p)));
  return schedule(async () => {
    const ws = await composeWorkspace(input.packet, input.packetDir, [{ memory: files }], { withHidden: false, parentDir: input.scratchDir });
    try {
      for (const d of input.deleted) if (!guarded(d)) await rm(path.join(ws.dir, d), { force: true });
      const run = await runTests(input.runner, ws.dir, input.packet.prompt.data.test);
      return tail(run.output, 60);
    } finally {
      await ws.dispose();
    }
  });
}
