/**
 * One judged run, end to end: lay out the workspace (before-snapshot taken), run the tests in
 * the sandbox with the protected paths read-only, re-check the protected files, and hand the
 * evidence to the pure judge. The only part of the judge that touches the sandbox and the disk.
 */
import { changesOf } from './contract.ts';
import { runHarness } from './harness/run.ts';
import { recordReport } from './harness/record.ts';
import { canaryRunnerIds, judge, type Evidence, type JudgeRules, type Judgement } from './judge.ts';
import { readableTail, runTests, tail, type TestRunner } from './run-tests.ts';
import { prepareWorkspace, protectedAfterRun, type PacketFiles, type PreparedWorkspace, type Submission } from './workspace.ts';

/** A judged run: the judgement and the evidence it came from. */
export interface JudgedRun {
  judgement: Judgement;
  evidence: Evidence;
  /** The last lines of the run's output. */
  outputTail: string;
  /** Milliseconds from laying out the workspace to the judgement (waiting for a slot excluded). */
  durationMs: number;
}

/** What a judged run needs. */
export interface JudgeRunOptions {
  files: PacketFiles;
  submission: Submission;
  /** Lay and expect the hidden tests (false only for the floor). */
  withHidden: boolean;
  runner: TestRunner;
  /** Parent folder for workspaces. */
  scratchDir: string;
  /** [0, 1), for canaries. */
  random: () => number;
  /** Monotonic clock, ms. */
  now: () => number;
  /** Wraps the sandbox run (a shared pool). */
  schedule?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** The rules to judge by; default the packet's (`files.rules`). */
  rules?: JudgeRules;
}

/** Judge one submission over a packet. Never throws for a bad submission: it comes back `rejected`. */
export async function judgeRun(o: JudgeRunOptions): Promise<JudgedRun | { rejected: string }> {
  const schedule = o.schedule ?? (<T>(fn: () => Promise<T>) => fn());
  return schedule(async () => {
    const t0 = o.now();
    const ws = await prepareWorkspace(o.files, o.submission, { withHidden: o.withHidden, canaries: true, parentDir: o.scratchDir, random: o.random, harness: true });
    if ('rejected' in ws) return ws;
    try {
      const { run, record } = await runJudged(o.files, ws, o.runner);
      const protectedAfter = run.error ? [] : await protectedAfterRun(ws);
      const evidence: Evidence = {
        starter: o.files.candidateStarter,
        before: ws.before,
        protectedEdits: ws.protectedEdits,
        protectedAfter,
        expected: ws.expected,
        ...(o.files.expectedProblem ? { expectedProblem: o.files.expectedProblem } : {}),
        testFiles: ws.testFiles,
        canaries: ws.canaries.map((c) => ({ id: c.id, file: c.file })),
        run,
        ...(record ? { record } : {}),
      };
      const shown = record ? `${tail(run.output)}\n${recordReport(record, canaryRunnerIds(evidence))}`.trim() : withoutCanaries(run.output, ws.canaries.map((c) => c.id));
      return { judgement: judge(o.rules ?? o.files.rules, evidence), evidence, outputTail: readableTail(shown, record ? 30 : 15), durationMs: o.now() - t0 };
    } finally {
      await ws.dispose();
    }
  });
}

/** Run the tests of a laid-out workspace: through the kit's harness whenever the kit knows the runner. */
async function runJudged(files: PacketFiles, ws: PreparedWorkspace, runner: TestRunner): Promise<Pick<Evidence, 'run' | 'record'>> {
  const command = files.packet.prompt.data.test;
  if (!files.style) return { run: await runTests(runner, ws.dir, command, ws.readOnly) };
  const workspace = files.packet.prompt.data.workspace as { allowPrimitives?: { primitive: string }[] };
  return runHarness(
    runner,
    ws.dir,
    {
      style: files.style,
      command,
      tests: [...ws.testSources].map(([file, source]) => ({ file, source })),
      trusted: [...new Set([...files.starter.keys()].filter((f) => files.isGuarded(f)).concat([...files.hidden.keys()]))],
      screen: changesOf(files.candidateStarter, ws.before).changed.filter((f) => f.endsWith('.py') && typeof ws.before.get(f) === 'string'),
      allow: (workspace.allowPrimitives ?? []).map((a) => a.primitive),
    },
    ws.readOnly,
  );
}

/** The run's output with the canaries' failure blocks taken out, for people and models to read. */
export function withoutCanaries(output: string, canaryIds: readonly string[]): string {
  const names = canaryIds.map((id) => id.split('::').at(-1)!);
  if (!names.length) return output;
  // unittest: drop each canary's failure block; the footer (a rule, then "Ran N tests") stays.
  const footer = [...output.matchAll(/^-{20,}\nRan \d+ tests?/gm)].at(-1)?.index ?? output.length;
  const blocks = output.slice(0, footer).split(/(?=^={20,}$)/m);
  const kept = blocks.filter((b) => !names.some((n) => new RegExp(`^(?:FAIL|ERROR): ${n} \\(`, 'm').test(b))).join('') + output.slice(footer);
  // pytest: drop the summary lines that name a canary.
  return kept.replace(new RegExp(`^.*::(?:${names.join('|')})\\b.*\\n?`, 'gm'), '');
}

/** Run the tests without canaries or hidden tests, for a model's feedback turn: the visible tests' output only. */
export async function visibleOutput(o: Omit<JudgeRunOptions, 'withHidden'>): Promise<string> {
  const schedule = o.schedule ?? (<T>(fn: () => Promise<T>) => fn());
  return schedule(async () => {
    const ws = await prepareWorkspace(o.files, o.submission, { withHidden: false, canaries: false, parentDir: o.scratchDir, random: o.random });
    if ('rejected' in ws) return `the files could not be laid out: ${ws.rejected}`;
    try {
      const run = await runTests(o.runner, ws.dir, o.files.packet.prompt.data.test, ws.readOnly);
      return run.output;
    } finally {
      await ws.dispose();
    }
  });
}
