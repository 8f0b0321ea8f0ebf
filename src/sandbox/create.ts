import { join } from 'node:path';
import { KIT_ROOT } from '../kit/fingerprint.ts';
import { createBubblewrapSandbox, probeBubblewrap, type BubblewrapOptions } from './bubblewrap.ts';
import { detectCgroupDelegation, prepareCgroupParent } from './cgroup.ts';
import { DEFAULT_HOST_IDS, type HostIds } from './host-user.ts';
import { findExecutable } from './interpreters.ts';
import { buildSeccompFilter } from './seccomp.ts';
import { selfTest, type SelfTestReport } from './self-test.ts';
import type { Sandbox, SandboxMounts } from './types.ts';
import { createUnconfinedSandbox } from './unconfined.ts';

/** How to pick a sandbox. */
export interface CreateSandboxOptions {
  /**
   * The user passed the explicit flag that lets the kit run code without isolation when
   * bubblewrap is missing or fails its self-test. Without it, that situation is a refusal.
   */
  allowUnconfined: boolean;
  /** Path of `bwrap`; default: found on `searchPath`. */
  bwrapPath?: string;
  /** `PATH` on which to look for `bwrap` (e.g. `process.env.PATH`); default `/usr/bin:/bin`. */
  searchPath?: string;
  /** Scratch directory for the self-test; default `os.tmpdir()` at call time. */
  tmpDir?: string;
  /** Interpreter mounts that give the self-test a TCP client inside (see `PythonInterpreter.mounts`). */
  selfTestMounts?: SandboxMounts;
  /** Passed to the bubblewrap sandbox. */
  systemPaths?: BubblewrapOptions['systemPaths'];
  /**
   * This process's effective uid; default `process.geteuid()` at call time. As root (0), bwrap
   * is started as `hostIds` so that the sandbox's processes are not root on the host.
   */
  euid?: number;
  /** The unprivileged host ids bwrap runs as when `euid` is 0; default `DEFAULT_HOST_IDS`. */
  hostIds?: HostIds;
  /** Where the built seccomp filter is kept; default `node_modules/.cache/packet-kit/seccomp` in the kit. */
  seccompCacheDir?: string;
  /** Where /proc and /sys are read to find a delegated cgroup v2 (`detectCgroupDelegation`); default `/`. */
  cgroupRoot?: string;
  /** Monotonic clock in milliseconds; default `performance.now`. */
  now?: () => number;
}

/** Where `createSandbox` keeps the built seccomp filter unless told otherwise. */
export const DEFAULT_SECCOMP_CACHE_DIR = join(KIT_ROOT, 'node_modules', '.cache', 'packet-kit', 'seccomp');

/** Why no sandbox was given. Plain data, in the shape of the error catalog. */
export interface SandboxUnavailable {
  /** Permanent name. */
  name: 'SandboxUnavailable';
  /** Stable code. */
  code: 'REHEARSE_SANDBOX_UNAVAILABLE';
  /** Short title. */
  title: string;
  /** What happened, why, and what to do. */
  message: string;
  /** The two ways forward. */
  hint: string;
  /** `bwrap-missing`: no usable bwrap; `self-test-failed`: bwrap ran but did not confine. */
  reason: 'bwrap-missing' | 'self-test-failed';
  /** The self-test's checks, when it ran. */
  checks: SelfTestReport['checks'];
}

/** The outcome of `createSandbox`. */
export type CreateSandboxResult =
  | {
      /** A sandbox is ready. */
      ok: true;
      /** The sandbox to run commands in. */
      sandbox: Sandbox;
      /** The bubblewrap self-test, or `null` when the unconfined fallback was taken. */
      selfTest: SelfTestReport | null;
      /** Set when running unconfined: why, so the caller can say it out loud. */
      notice: string | null;
      /**
       * What the caller says once at start, one line each: today, that no cgroup caps a run as a
       * whole and why (bubblewrap without cgroup v2 delegation).
       */
      notes: string[];
    }
  | {
      /** No sandbox: untrusted code must not run. */
      ok: false;
      /** What happened and what to do. */
      error: SandboxUnavailable;
    };

const HINT =
  'Install bubblewrap 0.7 or later, gcc and libseccomp-dev (Debian/Ubuntu: apt-get install bubblewrap gcc libseccomp-dev; scripts/setup.sh does) and make sure unprivileged user namespaces are allowed ' +
  '(the sandbox runs as an unprivileged uid even when the kit runs as root), ' +
  'or pass the explicit unconfined flag to run trees you wrote yourself without isolation.';

/**
 * Finds bubblewrap, proves it confines with `selfTest`, and returns it. When bwrap is missing
 * or the self-test fails: a refusal, or the unconfined sandbox (with a notice saying why)
 * only if `allowUnconfined` is set. Never falls back silently.
 */
export async function createSandbox(options: CreateSandboxOptions): Promise<CreateSandboxResult> {
  const bwrapPath = options.bwrapPath ?? findExecutable('bwrap', options.searchPath ?? '/usr/bin:/bin');
  let failure: { reason: SandboxUnavailable['reason']; what: string; checks: SelfTestReport['checks'] };

  const features = bwrapPath === null ? 'no bwrap executable on PATH' : await probeBubblewrap(bwrapPath);
  if (bwrapPath !== null && typeof features !== 'string') {
    const asRoot = (options.euid ?? process.geteuid?.() ?? -1) === 0;
    const utilPath = `${options.searchPath ?? '/usr/bin:/bin'}:/usr/bin:/bin`;
    const nsenterPath = asRoot ? findExecutable('nsenter', utilPath) : null;
    const setprivPath = asRoot ? findExecutable('setpriv', utilPath) : null;
    const ccPath = findExecutable('cc', utilPath) ?? findExecutable('gcc', utilPath);
    const cgroup = runCgroupParent(options.cgroupRoot ?? '/');
    const sandbox = createBubblewrapSandbox({
      ...(typeof cgroup.parent === 'string' ? { cgroupParent: cgroup.parent } : {}),
      bwrapPath,
      features,
      seccomp: () => buildSeccompFilter({ ccPath, cacheDir: options.seccompCacheDir ?? DEFAULT_SECCOMP_CACHE_DIR, arch: process.arch }),
      ...(asRoot ? { hostIds: options.hostIds ?? DEFAULT_HOST_IDS } : {}),
      ...(nsenterPath ? { nsenterPath } : {}),
      ...(setprivPath ? { setprivPath } : {}),
      ...(options.systemPaths ? { systemPaths: options.systemPaths } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
    const report = await selfTest(sandbox, {
      ...(options.tmpDir ? { tmpDir: options.tmpDir } : {}),
      ...(options.selfTestMounts ? { mounts: options.selfTestMounts } : {}),
    });
    if (report.ok) return { ok: true, sandbox, selfTest: report, notice: null, notes: cgroup.note ? [cgroup.note] : [] };
    await sandbox.dispose?.();
    const failed = report.checks.filter((check) => !check.ok).map((check) => `${check.name}: ${check.detail}`);
    failure = {
      reason: 'self-test-failed',
      what: `${features.version} at ${bwrapPath} failed its confinement self-test (${failed.join('; ')})`,
      checks: report.checks,
    };
  } else {
    failure = { reason: 'bwrap-missing', what: `bubblewrap is not usable: ${String(features)}`, checks: [] };
  }

  if (options.allowUnconfined) {
    return {
      ok: true,
      sandbox: createUnconfinedSandbox(options.now ? { now: options.now } : {}),
      selfTest: null,
      notes: [],
      notice: `Running UNCONFINED because ${failure.what}. Commands see the whole filesystem and network.`,
    };
  }
  return {
    ok: false,
    error: {
      name: 'SandboxUnavailable',
      code: 'REHEARSE_SANDBOX_UNAVAILABLE',
      title: 'No sandbox for untrusted code',
      message:
        `Refusing to run untrusted code: ${failure.what}. ` +
        'Packet tests, model replies and submissions run only inside bubblewrap, which isolates the filesystem, ' +
        'network and processes. ' +
        HINT,
      hint: HINT,
      reason: failure.reason,
      checks: failure.checks,
    },
  };
}

/**
 * The delegated cgroup folder runs get their cgroups in, ready (memory and pids enabled for its
 * children); or the note that says there is none, and why: then each process keeps its rlimits,
 * and nothing caps their sum.
 */
export function runCgroupParent(root: string): { parent: string; note: null } | { parent: null; note: string } {
  const found = detectCgroupDelegation(root);
  const why = found.available ? prepareCgroupParent(found) : found.reason;
  if (found.available && why === null) return { parent: found.dir, note: null };
  return {
    parent: null,
    note: `no cgroup caps a run's total memory and processes (${why}); each process keeps its own caps (memory, processes, CPU), but their sum is not capped.`,
  };
}
