import type { ResourceLimits } from './types.ts';

/** Limits used when a `RunSpec` leaves a field out. */
export const DEFAULT_LIMITS: Readonly<ResourceLimits> = Object.freeze({
  cpuSeconds: 60,
  addressSpaceMb: 4096,
  fileSizeMb: 64,
  openFiles: 256,
});

/** Exit status of the wrapper shell when a limit cannot be applied. */
export const LIMIT_FAILURE_EXIT_CODE = 125;

/** Merges partial limits over the defaults; returns an error message for a bad value. */
export function resolveLimits(partial: Partial<ResourceLimits> | undefined): ResourceLimits | string {
  const limits: ResourceLimits = { ...DEFAULT_LIMITS, ...partial };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value <= 0) {
      return `limits.${name} must be a positive integer, got ${String(value)}`;
    }
  }
  return limits;
}

/**
 * The POSIX shell text that applies the limits (soft and hard, so the command cannot raise
 * them back) and then hands over to the command, passed as `$1`. Units follow POSIX `ulimit`
 * as dash and bash-as-sh implement it: `-f` in 512-byte blocks, `-v` in KiB.
 */
export function limitsWrapperScript(limits: ResourceLimits): string {
  const steps: Array<[flag: string, value: number, what: string]> = [
    ['-t', limits.cpuSeconds, 'CPU time'],
    ['-v', limits.addressSpaceMb * 1024, 'address space'],
    ['-f', limits.fileSizeMb * 2048, 'file size'],
    ['-n', limits.openFiles, 'open files'],
  ];
  const applied = steps.map(
    ([flag, value, what]) =>
      `ulimit ${flag} ${value} 2>/dev/null || { echo "packet-kit sandbox: could not apply the ${what} limit (ulimit ${flag} ${value})" >&2; exit ${LIMIT_FAILURE_EXIT_CODE}; }`,
  );
  return [...applied, 'exec /bin/sh -c "$1"'].join('\n');
}
