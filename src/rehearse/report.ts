/** Version of the rehearsal report document. */
export const REPORT_SCHEMA_VERSION = 1;

/** The kinds of check, in the order they run. */
export type CheckKind = 'floor' | 'sample' | 'mutant' | 'signal' | 'calibration' | 'reply';

/** What a test run said, kept in the report. */
export interface TestCounts {
  ran: number | null;
  failed: number;
  errors: number;
  failing: string[];
  exitCode: number | null;
  timedOut: boolean;
}

/** The result of one check. */
export interface CheckResult {
  /** Stable id within the packet: `floor`, `sample`, `mutant:<mode>`, `signal:<mode>`, `calibration:<subject>`. */
  id: string;
  kind: CheckKind;
  /** The failure mode, for per-mode checks. */
  mode?: string;
  /** What the check must see, in words. */
  expected: string;
  /** What it saw, in words. */
  actual: string;
  /** The check passed. */
  ok: boolean;
  /** The check could not be judged (sandbox or infrastructure failure). */
  inconclusive?: boolean;
  /** When not ok: the defect, in words a hiring lead understands. */
  defect?: string;
  /** Wall-clock milliseconds. */
  durationMs: number;
  /** The test run, for checks that ran tests. */
  tests?: TestCounts;
  /** The last lines of the run's output. */
  outputTail?: string;
}

/** One packet's verdict. */
export type PacketStatus = 'fails-closed' | 'defect' | 'inconclusive';

/** Everything the rehearsal found about one packet. */
export interface PacketReport {
  id: string;
  version: string;
  digest: string;
  status: PacketStatus;
  checks: CheckResult[];
  /** The defects, one sentence each. */
  defects: string[];
  /** The result came from the cache. */
  cached: boolean;
  durationMs: number;
}

/** The whole rehearsal. */
export interface RehearsalReport {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  /** ISO time the run started. */
  date: string;
  /** How untrusted code ran. */
  sandbox: { kind: 'bubblewrap' | 'unconfined'; notice: string | null };
  /** The interpreter that ran the tests. */
  interpreter: { python: string | null };
  /** Worker pool size. */
  jobs: number;
  packets: PacketReport[];
  summary: { packets: number; failsClosed: number; defects: number; inconclusive: number; cached: number; durationMs: number };
}

/** Exit code of a report: 0 all fail closed, 1 a packet defect, 2 inconclusive. */
export function exitCodeOf(report: Pick<RehearsalReport, 'packets'>): 0 | 1 | 2 {
  if (report.packets.some((p) => p.status === 'inconclusive')) return 2;
  if (report.packets.some((p) => p.status === 'defect')) return 1;
  return 0;
}

/** A packet's status from its checks. */
export function statusOf(checks: readonly CheckResult[]): PacketStatus {
  if (checks.some((c) => c.inconclusive)) return 'inconclusive';
  if (checks.some((c) => !c.ok)) return 'defect';
  return 'fails-closed';
}
