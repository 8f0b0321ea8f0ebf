/** Public surface of the sandbox: run untrusted commands in isolation. */
export type { ResourceLimits, RunResult, RunSpec, Sandbox, SandboxCap, SandboxKind, SandboxMounts } from './types.ts';
export { DEFAULT_LIMITS, LIMIT_MAXIMA } from './limits.ts';
export { CAP_FIELDS, capFix, capsToRunSpec, describeCap, type SandboxCaps } from './caps.ts';
export { SANDBOX_GID, SANDBOX_UID } from './etc.ts';
export { DEFAULT_HOST_IDS, type HostIds } from './host-user.ts';
export { createScratchRoot, removeStaleScratch, SCRATCH_MARKER, SCRATCH_PREFIX, type ScratchOptions, type ScratchRoot } from './scratch.ts';
export { DEFAULT_OUTPUT_LIMIT_BYTES, DEFAULT_TIMEOUT_MS } from './run-spec.ts';
export {
  BUBBLEWRAP_LINK_DIRS,
  BUBBLEWRAP_WORKSPACE,
  DEFAULT_SYSTEM_PATHS,
  createBubblewrapSandbox,
  probeBubblewrap,
  type BubblewrapFeatures,
  type BubblewrapOptions,
} from './bubblewrap.ts';
export { createUnconfinedSandbox, type UnconfinedOptions } from './unconfined.ts';
export { PROBE_LIMITS, selfTest, type SelfTestCheck, type SelfTestOptions, type SelfTestReport } from './self-test.ts';
export { createSandbox, DEFAULT_SECCOMP_CACHE_DIR, type CreateSandboxOptions, type CreateSandboxResult, type SandboxUnavailable } from './create.ts';
export { buildSeccompFilter, type SeccompBuildOptions } from './seccomp.ts';
export {
  createInterpreterResolver,
  findExecutable,
  type InterpreterContext,
  type InterpreterProblem,
  type InterpreterResolver,
  type ProbeOutput,
  type PythonInterpreter,
} from './interpreters.ts';
