/**
 * Caps from the outside in (a packet's `sandbox:` frontmatter into a `RunSpec`) and from the
 * inside out (what a failed run says into the cap it ran into).
 */
import { CAPPED_MOUNTS, LIMIT_MAXIMA } from './limits.ts';
import type { ResourceLimits, RunSpec, SandboxCap } from './types.ts';

/**
 * The caps a packet may set for its runs (the prompt's `sandbox:` frontmatter, same names).
 * Each is optional; a missing one takes the kit's default, and none may exceed the kit's
 * maximum (`LIMIT_MAXIMA`).
 */
export interface SandboxCaps {
  /** Processes and threads at once. */
  processes?: number;
  /** Size of `/workspace` in MiB. */
  workspaceMb?: number;
  /** Size of `/tmp` in MiB. */
  tmpMb?: number;
  /** Size of `/dev/shm` in MiB. */
  shmMb?: number;
  /** Memory per process in MiB (address space). */
  memoryMb?: number;
  /** Show the host's CA certificates. */
  certificates?: boolean;
}

/** The `RunSpec` fields a packet's caps set; spread into a spec. */
export function capsToRunSpec(caps: SandboxCaps | undefined): Pick<RunSpec, 'limits' | 'certificates'> {
  const limits: Partial<ResourceLimits> = {};
  if (caps?.processes !== undefined) limits.processes = caps.processes;
  if (caps?.workspaceMb !== undefined) limits.workspaceMb = caps.workspaceMb;
  if (caps?.tmpMb !== undefined) limits.tmpMb = caps.tmpMb;
  if (caps?.shmMb !== undefined) limits.shmMb = caps.shmMb;
  if (caps?.memoryMb !== undefined) limits.addressSpaceMb = caps.memoryMb;
  return { limits, certificates: caps?.certificates ?? false };
}

/** The `sandbox:` field of prompt.mdx that raises a cap, where a packet may raise it. */
export const CAP_FIELDS: Readonly<Record<SandboxCap, string | null>> = Object.freeze({
  processes: 'sandbox.processes',
  workspace: 'sandbox.workspaceMb',
  tmp: 'sandbox.tmpMb',
  shm: 'sandbox.shmMb',
  memory: 'sandbox.memoryMb',
  runMemory: 'sandbox.memoryMb',
  fileSize: null,
  cpu: null,
  openFiles: null,
});

/** What to do about a cap in a sentence: raise it in the frontmatter (up to the kit's maximum), or use less. */
export function capFix(cap: SandboxCap): string {
  const field = CAP_FIELDS[cap];
  const limit = { processes: 'processes', workspace: 'workspaceMb', tmp: 'tmpMb', shm: 'shmMb', memory: 'addressSpaceMb', runMemory: 'addressSpaceMb', fileSize: 'fileSizeMb', cpu: 'cpuSeconds', openFiles: 'openFiles' }[cap] as keyof ResourceLimits;
  const max = LIMIT_MAXIMA[limit];
  return field
    ? `If the packet really needs more, raise ${field} in prompt.mdx (at most ${max}); otherwise the code under test uses too much.`
    : 'The code under test uses too much; packets cannot raise this cap.';
}

/** What the cap finder reads of a run. */
export interface CapEvidence {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

const MOUNT_CAPS: readonly (keyof typeof CAPPED_MOUNTS)[] = ['workspace', 'tmp', 'shm'];

const FORK_FAILED = /\bCannot fork\b|can't fork|can't start new thread|\bfork: (?:retry: )?Resource temporarily unavailable|pthread_create[^\n]*Resource temporarily unavailable/i;
const EAGAIN = /Resource temporarily unavailable|\[Errno 11\]/;
const FORK_CONTEXT = /\bfork|fork_exec|Popen|spawn|thread/i;
const NO_MEMORY = /\bMemoryError\b|Cannot allocate memory|\[Errno 12\]|std::bad_alloc|\bout of memory\b/i;
const TOO_MANY_FILES = /Too many open files|\[Errno 24\]|\bEMFILE\b/;
const FILE_TOO_LARGE = /File too large|\[Errno 27\]|\bEFBIG\b/;

/**
 * The cap a failed run ran into, or null: first a capped tmpfs the kit measured full
 * (`fullMounts`, from `measureMounts`: the kernel's count, never the run's text), then the
 * kernel's memory cgroup (`oomKills`, a process killed at the run's memory cap), then the exit
 * status (128 + SIGXFSZ, 128 + SIGXCPU), then the errors in the output for the per-process
 * rlimits (skipped when `reported` is false: what the kernel measured or counted alone). A "No
 * space left on device" the run printed names no cap by itself: only a mount measured full does.
 * A run that exited 0 hit no cap that mattered: null.
 */
export function findCapHit(run: CapEvidence, fullMounts: readonly string[], oomKills = 0, reported = true): SandboxCap | null {
  if (run.exitCode === 0 && !run.timedOut) return null;
  for (const cap of MOUNT_CAPS) if (fullMounts.includes(CAPPED_MOUNTS[cap])) return cap;
  if (oomKills > 0) return 'runMemory';
  if (!reported) return null;
  const output = `${run.stdout}\n${run.stderr}`;
  if (run.exitCode === 128 + 25 || run.signal === 'SIGXFSZ' || FILE_TOO_LARGE.test(output)) return 'fileSize';
  if (run.exitCode === 128 + 24 || run.signal === 'SIGXCPU') return 'cpu';
  if (FORK_FAILED.test(output) || (EAGAIN.test(output) && FORK_CONTEXT.test(output))) return 'processes';
  if (NO_MEMORY.test(output)) return 'memory';
  if (TOO_MANY_FILES.test(output)) return 'openFiles';
  return null;
}

/**
 * The memory cap of a whole run, where a cgroup applies it: the packet's memory cap, which then
 * holds for all its processes together and the files of its tmpfs mounts (their pages count
 * against the run's cgroup as they are written), as well as for each process's address space.
 */
export function runMemoryMb(limits: ResourceLimits): number {
  return limits.addressSpaceMb;
}

/**
 * The fields a run result gets for a cap: the cap, its sentence, and `capReported` when only the
 * run's own output or exit status tells of it (no measure or count of the kernel's): the sentence
 * then says so, and the judge does not take it for a kill.
 */
export function capFields(cap: SandboxCap, limits: ResourceLimits, measured: boolean): { capHit: SandboxCap; capDetail: string; capReported?: true } {
  const detail = describeCap(cap, limits);
  return measured ? { capHit: cap, capDetail: detail } : { capHit: cap, capDetail: `${detail}, as the run's own output or exit status reports (no count of the kernel's confirms it)`, capReported: true };
}

/** A cap in a sentence that names it and its value. */
export function describeCap(cap: SandboxCap, limits: ResourceLimits): string {
  switch (cap) {
    case 'workspace':
      return `the workspace (${CAPPED_MOUNTS.workspace}, ${limits.workspaceMb} MiB) is full`;
    case 'tmp':
      return `${CAPPED_MOUNTS.tmp} (${limits.tmpMb} MiB) is full`;
    case 'shm':
      return `${CAPPED_MOUNTS.shm} (${limits.shmMb} MiB) is full`;
    case 'processes':
      return `a process or thread could not start: the run is capped at ${limits.processes} processes and threads at once`;
    case 'memory':
      return `an allocation failed: each process is capped at ${limits.addressSpaceMb} MiB of memory (address space)`;
    case 'runMemory':
      return `the run's processes and the files it wrote in its tmpfs mounts together passed its memory cap of ${runMemoryMb(limits)} MiB and the kernel killed a process (the run's memory cgroup counted an oom_kill)`;
    case 'fileSize':
      return `a file reached the file-size cap of ${limits.fileSizeMb} MiB`;
    case 'cpu':
      return `a process used up its ${limits.cpuSeconds} s of CPU time`;
    case 'openFiles':
      return `a process reached the cap of ${limits.openFiles} open files`;
  }
}
