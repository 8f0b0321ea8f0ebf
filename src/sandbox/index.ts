/** Public surface of the sandbox: run untrusted commands in isolation. */
export type { ResourceLimits, RunResult, RunSpec, Sandbox, SandboxKind, SandboxMounts } from './types.ts';
export { DEFAULT_LIMITS } from './limits.ts';
export { DEFAULT_OUTPUT_LIMIT_BYTES, DEFAULT_TIMEOUT_MS } from './run-spec.ts';
export {
  BUBBLEWRAP_WORKSPACE,
  DEFAULT_SYSTEM_PATHS,
  createBubblewrapSandbox,
  probeBubblewrap,
  type BubblewrapFeatures,
  type BubblewrapOptions,
} from './bubblewrap.ts';
export { createUnconfinedSandbox, type UnconfinedOptions } from './unconfined.ts';
export { selfTest, type SelfTestCheck, type SelfTestOptions, type SelfTestReport } from './self-test.ts';
export { createSandbox, type CreateSandboxOptions, type CreateSandboxResult, type SandboxUnavailable } from './create.ts';
export {
  createInterpreterResolver,
  findExecutable,
  type InterpreterContext,
  type InterpreterProblem,
  type InterpreterResolver,
  type ProbeOutput,
  type PythonInterpreter,
} from './interpreters.ts';
