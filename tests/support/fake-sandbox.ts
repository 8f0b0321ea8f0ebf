import type { EnvironmentOptions, RunEnvironment } from '../../src/runs/environment.ts';
import type { RunResult, RunSpec, Sandbox, SandboxKind } from '../../src/sandbox/types.ts';

/** A sandbox that runs nothing: every run comes back as an error, each spec kept. */
export function fakeSandboxMaker(kind: SandboxKind = 'bubblewrap', notes: readonly string[] = []) {
  const seen = { prepared: [] as EnvironmentOptions[], runs: [] as RunSpec[], disposed: 0 };
  const sandbox: Sandbox = {
    kind,
    async run(spec): Promise<RunResult> {
      seen.runs.push(spec);
      return { kind, exitCode: null, signal: null, timedOut: false, outputFlooded: false, stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false, durationMs: 0, cwd: spec.workdir, error: 'the fake sandbox runs nothing' };
    },
  };
  const prepare = async (o: EnvironmentOptions): Promise<{ ok: true; environment: RunEnvironment }> => {
    seen.prepared.push(o);
    return {
      ok: true,
      environment: {
        sandbox,
        notice: kind === 'unconfined' ? 'bubblewrap is unusable here' : null,
        notes,
        interpreter: { mounts: { pathPrepend: [], readOnlyPaths: [] }, version: null },
        dispose: async () => {
          seen.disposed++;
        },
      },
    };
  };
  return { seen, prepare };
}
