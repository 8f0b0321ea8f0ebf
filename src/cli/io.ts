/** What a command may touch of the outside world; tests pass their own. */
export interface CliIo {
  /** Write to standard output. */
  out(text: string): void;
  /** Write to standard error. */
  err(text: string): void;
  /** The working directory. */
  cwd: string;
  /** The environment (read only here, never at import time). */
  env: Readonly<Record<string, string | undefined>>;
  /** True when standard output is a terminal: code frames, colours and live progress. */
  isTTY: boolean;
  /** The clock. */
  now(): Date;
}

/** An io that collects output, for tests. */
export function memoryIo(cwd: string, overrides: Partial<CliIo> = {}): CliIo & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out(text: string) {
      io.stdout += text;
    },
    err(text: string) {
      io.stderr += text;
    },
    cwd,
    env: {},
    isTTY: false,
    now: () => new Date('2026-11-29T12:00:00Z'),
    ...overrides,
  };
  return io;
}
