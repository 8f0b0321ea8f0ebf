import { createInterpreterResolver, type InterpreterResolver } from '../sandbox/interpreters.ts';
import { createSandbox } from '../sandbox/create.ts';
import type { Sandbox, SandboxMounts } from '../sandbox/types.ts';

/** The sandbox and interpreter every run of untrusted code uses. */
export interface RunEnvironment {
  sandbox: Sandbox;
  /** Set when running unconfined: why. */
  notice: string | null;
  /** Lines the run says once at start (`note: ...`): what the sandbox cannot cap here, and why. */
  notes?: readonly string[];
  interpreter: { mounts: SandboxMounts; version: string | null };
  dispose(): Promise<void>;
}

/** Options of {@link prepareRunEnvironment}. */
export interface EnvironmentOptions {
  /** The host environment (PATH, and pyenv's variables for resolving the interpreter once). */
  env: Readonly<Record<string, string | undefined>>;
  tmpDir: string;
  /** The explicit flag to run without isolation where bubblewrap is unusable. */
  allowUnconfined: boolean;
  /** Path of bwrap; default: found on PATH. */
  bwrapPath?: string;
}

/** Resolve the interpreter once and make a sandbox that has passed its confinement self-test. */
export async function prepareRunEnvironment(
  options: EnvironmentOptions,
): Promise<{ ok: true; environment: RunEnvironment } | { ok: false; message: string; hint: string }> {
  const resolver: InterpreterResolver = createInterpreterResolver({ searchPath: options.env.PATH ?? '/usr/bin:/bin', env: options.env, tmpDir: options.tmpDir });
  const python = await resolver.python();
  const mounts: SandboxMounts = 'error' in python ? { pathPrepend: [], readOnlyPaths: [] } : python.mounts;
  const created = await createSandbox({
    allowUnconfined: options.allowUnconfined,
    ...(options.bwrapPath ? { bwrapPath: options.bwrapPath } : {}),
    searchPath: options.env.PATH ?? '/usr/bin:/bin',
    tmpDir: options.tmpDir,
    selfTestMounts: mounts,
  });
  if (!created.ok) {
    await resolver.dispose();
    return { ok: false, message: created.error.message, hint: created.error.hint };
  }
  return {
    ok: true,
    environment: {
      sandbox: created.sandbox,
      notice: created.notice,
      notes: created.notes,
      interpreter: { mounts, version: 'error' in python ? null : python.version },
      dispose: async () => {
        await created.sandbox.dispose?.();
        await resolver.dispose();
      },
    },
  };
}
