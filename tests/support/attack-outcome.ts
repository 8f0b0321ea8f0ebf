import type { Finding } from '../../src/judge/findings.ts';
import { judgeRun } from '../../src/judge/judge-run.ts';
import type { TestRunner } from '../../src/judge/run-tests.ts';
import type { PacketFiles } from '../../src/judge/workspace.ts';

/** What a planted attack ended as: the verdict, its finding codes, the findings, the run in words. */
export interface Outcome {
  verdict: string;
  codes: string[];
  findings: Pick<Finding, 'code' | 'kind' | 'severity' | 'message'>[];
  description: string;
}

/** Judge one planted submission (files over the starter, hidden tests laid) for real, as grading does. */
export async function judgeSubmission(files: PacketFiles, submitted: Record<string, string>, runner: TestRunner, scratchDir: string): Promise<Outcome> {
  const run = await judgeRun({
    files,
    submission: { files: new Map(Object.entries(submitted)), deleted: [] },
    withHidden: true,
    runner,
    scratchDir,
    random: Math.random,
    now: () => performance.now(),
  });
  if ('rejected' in run) return { verdict: 'REJECTED', codes: [], findings: [], description: run.rejected };
  const j = run.judgement;
  return { verdict: j.verdict, codes: j.findings.map((f) => f.code), findings: j.findings, description: j.description };
}
