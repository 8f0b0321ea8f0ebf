/**
 * One run of the trusted harness in the sandbox: the kit starts the interpreter itself
 * (no user site, no bytecode written) on a bootstrap that reads the harness, the screen, the
 * manifest and a fresh key from private pipes, and collects the sealed record from a pipe of
 * its own. The packet's test command is read for its runner and its options only: what runs is
 * always the harness.
 */
import { capsToRunSpec } from '../../sandbox/caps.ts';
import type { RunEvidence } from '../judge.ts';
import { runEvidence, type TestRunner } from '../run-tests.ts';
import { runnerNamed } from '../runners/index.ts';
import type { HarnessPlan } from '../runners/runner.ts';
import { harnessKey, readRecord, type HarnessRecord } from './record.ts';

/** The record may hold this many bytes; a run that writes more is cut, and a cut record is broken. */
export const RECORD_LIMIT_BYTES = 4 * 1024 * 1024;

/** A harness run: the sandbox's view of the process, and the record. */
export interface HarnessEvidence {
  run: RunEvidence;
  record: HarnessRecord;
}

/** The manifest the harness reads: the runner's name (`style`), what the kit protects and screens, and the runner's own part. */
export function harnessManifest(plan: HarnessPlan): Record<string, unknown> {
  return {
    style: plan.style,
    protected: [...plan.trusted].sort(),
    screen: { files: [...plan.screen].sort(), allow: [...plan.allow].sort() },
    ...runnerNamed(plan.style).manifest(plan),
  };
}

/** Run the harness in `workdir` with `readOnly` paths bound read-only. Never throws. */
export async function runHarness(runner: TestRunner, workdir: string, plan: HarnessPlan, readOnly: readonly string[] = []): Promise<HarnessEvidence> {
  const key = harnessKey();
  const program = runnerNamed(plan.style).harness;
  const result = await runner.sandbox.run({
    workdir,
    command: program.command,
    timeoutMs: runner.timeoutMs,
    pathPrepend: runner.mounts.pathPrepend,
    readOnlyPaths: runner.mounts.readOnlyPaths,
    readOnlyInWorkdir: readOnly,
    env: { ...program.env },
    channels: { inputs: [...program.inputs(runner.mounts.pathPrepend), Buffer.from(JSON.stringify(harnessManifest(plan)), 'utf8'), key], recordLimitBytes: RECORD_LIMIT_BYTES },
    ...capsToRunSpec(runner.caps),
  });
  const run = runEvidence(result, runner.timeoutMs);
  return { run, record: readRecord(result.record ?? '', key, result.recordTruncated === true) };
}
