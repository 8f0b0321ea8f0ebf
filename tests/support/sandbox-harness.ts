import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createSandbox } from '../../src/sandbox/create.ts';
import { createInterpreterResolver, type PythonInterpreter } from '../../src/sandbox/interpreters.ts';
import type { SelfTestReport } from '../../src/sandbox/self-test.ts';
import type { RunSpec, Sandbox } from '../../src/sandbox/types.ts';

/** What a sandbox test file shares: the real Python, one bubblewrap sandbox with its self-test, and work directories removed after the file. */
export interface SandboxHarness {
  python: PythonInterpreter;
  bwrap: Sandbox;
  selfTest: SelfTestReport | null;
  /** The sandbox's notes, said once at start (`createSandbox`'s `notes`). */
  notes: string[];
  /** A fresh host directory, removed after the file's tests. */
  tempDir(label: string): string;
  /** A spec with a fresh work directory and the real Python on PATH. */
  spec(command: string, extra?: Partial<RunSpec>): RunSpec;
}

/** Set up (in `beforeAll`) and tear down (in `afterAll`) the sandbox of a test file; call it at the file's top level. */
export function useSandbox(prefix: string, timeoutMs: number): SandboxHarness {
  const scratch: string[] = [];
  const resolver = createInterpreterResolver({ searchPath: process.env.PATH ?? '', env: process.env, tmpDir: tmpdir() });
  const h = {
    selfTest: null,
    tempDir(label: string) {
      const dir = mkdtempSync(join(tmpdir(), `${prefix}-${label}-`));
      scratch.push(dir);
      return dir;
    },
    spec(command: string, extra: Partial<RunSpec> = {}): RunSpec {
      return { workdir: h.tempDir('work'), command, timeoutMs, ...h.python.mounts, ...extra };
    },
  } as unknown as SandboxHarness;
  beforeAll(async () => {
    const resolved = await resolver.python();
    if ('error' in resolved) throw new Error(resolved.error);
    h.python = resolved;
    const created = await createSandbox({ allowUnconfined: false, selfTestMounts: resolved.mounts });
    if (!created.ok) throw new Error(created.error.message);
    h.bwrap = created.sandbox;
    h.selfTest = created.selfTest;
    h.notes = created.notes;
  });
  afterAll(async () => {
    await h.bwrap?.dispose?.();
    await resolver.dispose();
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  });
  return h;
}
