import { capFields, findCapHit } from './caps.ts';
import { limitsWrapperScript } from './limits.ts';
import { channelFds, channelRecord, checkRunSpec, notRun, OUTPUT_FLOOD_FACTOR, sandboxEnvironment } from './run-spec.ts';
import { runSupervised } from './supervised-process.ts';
import type { RunResult, RunSpec, Sandbox } from './types.ts';

/** How to build the unconfined sandbox. */
export interface UnconfinedOptions {
  /** Monotonic clock in milliseconds; default `performance.now`. */
  now?: () => number;
}

/**
 * The same contract with no isolation, for machines without bubblewrap when the user passed
 * an explicit flag: the command sees the whole filesystem and network, runs as the host user,
 * and writes in the work directory in place. It still gets a cleared environment, the CPU,
 * memory, file-size and open-file rlimits, the timeout, capped output, and a SIGKILL to its
 * process group when it ends (a process that leaves the group with `setsid` escapes that;
 * bubblewrap's pid namespace does not let it). The process cap and the tmpfs sizes are not
 * applied (there is no tmpfs, and RLIMIT_NPROC would count every process of the host user);
 * `readOnlyPaths`, `readOnlyInWorkdir` and `certificates` are ignored. Only for trees the user
 * wrote; never for model replies or submissions unless they said so.
 */
export function createUnconfinedSandbox(options: UnconfinedOptions = {}): Sandbox {
  const now = options.now ?? (() => performance.now());
  return {
    kind: 'unconfined',
    async run(spec: RunSpec): Promise<RunResult> {
      const checked = checkRunSpec(spec);
      if (typeof checked === 'string') return notRun('unconfined', spec.workdir, checked);
      const channels = channelFds(checked.channels, 3);
      const outcome = await runSupervised({
        file: '/bin/sh',
        args: ['-c', limitsWrapperScript(checked.limits), 'packet-kit-sandbox', checked.command],
        env: { ...sandboxEnvironment(checked, checked.workdir), ...channels.env },
        extraFds: channels.extra,
        cwd: checked.workdir,
        timeoutMs: checked.timeoutMs,
        outputLimitBytes: checked.outputLimitBytes,
        floodLimitBytes: checked.outputLimitBytes * OUTPUT_FLOOD_FACTOR,
        now,
      });
      const { collected, collectedTruncated, spawnError, ...rest } = outcome;
      const result: RunResult = { kind: 'unconfined', cwd: checked.workdir, ...rest, ...channelRecord(checked.channels, collected, collectedTruncated) };
      if (spawnError !== null) return { ...result, error: `could not start /bin/sh: ${spawnError}` };
      const cap = findCapHit(result, []);
      return cap ? { ...result, ...capFields(cap, checked.limits, false) } : result;
    },
  };
}
