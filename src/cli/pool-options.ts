import { availableParallelism } from 'node:os';
import type { CliIo } from './io.ts';

/**
 * `--jobs N` and `--timeout S`, shared by the commands that run tests in the sandbox.
 * Returns undefined after saying what is wrong, naming the command and the flag.
 */
export function parsePoolOptions(command: string, values: { jobs?: string | number | undefined; timeout?: string | number | undefined }, io: CliIo): { jobs: number; timeout: number } | undefined {
  const jobs = values.jobs === undefined ? availableParallelism() : Number(values.jobs);
  const timeout = Number(values.timeout);
  if (!Number.isInteger(jobs) || jobs < 1) {
    io.err(`packet ${command}: --jobs must be a whole number of at least 1, not "${values.jobs}".\n`);
    return undefined;
  }
  if (!(timeout > 0)) {
    io.err(`packet ${command}: --timeout must be a positive number of seconds, not "${values.timeout}".\n`);
    return undefined;
  }
  return { jobs, timeout };
}
