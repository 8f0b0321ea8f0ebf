import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runHarness } from '../../src/judge/harness/run.ts';
import type { HarnessPlan } from '../../src/judge/runners/runner.ts';
import type { HarnessRecord } from '../../src/judge/harness/record.ts';
import type { SandboxHarness } from './sandbox-harness.ts';

/** A record of one harness run, with what the process printed and its exit. */
export type HarnessRun = HarnessRecord & { output: string; exitCode: number | null };

/**
 * Small workspaces run through the trusted harness in the file's sandbox: `disk` is laid out (with
 * the `tests` and `src` packages), `tests` are handed to the harness from memory, `tests/` is bound
 * read-only. `screenDisk` screens the laid-out `src/` files, as a submission's would be.
 */
export function harnessWorkspaces(h: SandboxHarness, options: { screenDisk?: boolean } = {}) {
  const workspace = (files: Record<string, string>): string => {
    const dir = h.tempDir('ws');
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    return dir;
  };
  const harness = async (disk: Record<string, string>, tests: Record<string, string>, extra: Partial<HarnessPlan> = {}): Promise<HarnessRun> => {
    const dir = workspace({ 'tests/__init__.py': '', 'src/__init__.py': '', ...disk });
    const plan: HarnessPlan = {
      style: 'unittest',
      command: 'python3 -m unittest discover -s tests -t . -q',
      tests: Object.entries(tests).map(([file, source]) => ({ file, source })),
      trusted: ['tests/__init__.py', ...Object.keys(tests)],
      screen: options.screenDisk ? Object.keys(disk).filter((f) => f.startsWith('src/')) : [],
      allow: [],
      ...extra,
    };
    const { run, record } = await runHarness({ sandbox: h.bwrap, mounts: h.python.mounts, timeoutMs: 20_000 }, dir, plan, ['tests']);
    if (run.error) throw new Error(run.error);
    return { ...record, output: run.output, exitCode: run.exitCode };
  };
  return { workspace, harness };
}
