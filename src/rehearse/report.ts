import type { BudgetLimits } from '../llm/budget.ts';
import type { ErrorClass } from '../llm/error-class.ts';
import type { StopReason } from '../llm/retry.ts';
import type { Finding } from '../judge/findings.ts';
import type { SignalMatch, TestCounts } from '../judge/judge.ts';
import type { KitIdentity } from '../kit/identity.ts';

export type { TestCounts } from '../judge/judge.ts';
export type { KitIdentity } from '../kit/identity.ts';

/**
 * Version of the rehearsal report document. 3: the kit that wrote it (`kit`), the shard it covers
 * (`shard`), the models asked for (`live`), one model run per packet and model, and the shards a
 * merged report was made of (`merged`).
 */
export const REPORT_SCHEMA_VERSION = 3;

/** How a model run ended (the judge's verdicts, and GAVE-UP when a budget cap stopped it). */
export type ModelVerdict = 'PASS' | 'CAUGHT' | 'FALSE-GREEN' | 'GAVE-UP' | 'INCONCLUSIVE';

/** The kinds of check, in the order they run. */
export type CheckKind = 'floor' | 'sample' | 'mutant' | 'signal' | 'calibration' | 'reply' | 'lab' | 'leak' | 'variant';

/** The variant a check ran on: its id and its drawn values. */
export interface CheckVariant {
  id: string;
  values: Record<string, string | number>;
}

/** The result of one check. */
export interface CheckResult {
  /**
   * Stable id within the packet: `floor`, `sample`, `mutant:<mode>`, `signal:<mode>`, `calibration:<subject>`, `reply:<reply>`; a lab's `lab:<rule>` (see rehearse-lab.ts).
   * A packet with variants: each variant's checks as `<variant>:<id>` (`v2:mutant:drops-minutes`), the leak checks `leak:<a>><b>`, the weaker variants `variant:<id>` (see rehearse-variants.ts).
   */
  id: string;
  /** The variant the check ran on (a packet with variants). */
  variant?: CheckVariant;
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
  /** When not ok: the defect's catalog code (PK44x-PK45x, a lab's PK47x; `npx packet explain <code>`). */
  code?: string;
  /** When not ok: what to do about it, the catalog entry's hint. */
  hint?: string;
  /** The judge's findings on the workspace this check ran (codes, places, hints). */
  findings?: Finding[];
  /** Wall-clock milliseconds. */
  durationMs: number;
  /** The test run, for checks that ran tests. */
  tests?: TestCounts;
  /** The last lines of the run's output. */
  outputTail?: string;
  /** For `reply` checks: the model run that produced and judged the reply. */
  model?: ModelRunReport;
}

/** One model run on one packet: the verdict and its receipts. */
export interface ModelRunReport {
  /** ISO time the run started. */
  date: string;
  packet: string;
  /** The packet's version and content digest (of a packet with variants: the digest of the variant the model was given). */
  version: string;
  digest: string;
  /** Of a packet with variants: the variant the model was given (its first, rendered), with its values. */
  variant?: CheckVariant;
  /** The model id sent to the endpoint. */
  model: string;
  /**
   * The model as named in `--model` (with `{packet}` not yet replaced): the column of the packet x
   * model matrix. Set on live runs, not on scripted reply checks.
   */
  named?: string;
  /** The endpoint's host and port only (never credentials, path or query). */
  endpoint: string;
  verdict: ModelVerdict;
  /** The verdict in words. */
  reason: string;
  /** Why a run was inconclusive: `endpoint`, `no-code`, `reply` or `sandbox`. */
  inconclusiveCause?: string;
  /** PASS on the first answer: the packet may leak its answer. */
  possibleLeak: boolean;
  /** What caught a wrong answer, by kind of evidence (`visible-tests`, `hidden-tests`, `signal`, `tamper`, `contract`, ...). */
  caughtBy: string[];
  /** The judge's findings on the last judged answer (codes, places, hints). */
  findings: Finding[];
  /** The failure signals that matched the last judged answer. */
  signals: SignalMatch[];
  /** Model calls (every attempt) and session turns. */
  calls: number;
  turns: number;
  /** Tokens as the endpoint reported them; `total` is null when any call's usage is unknown. */
  tokens: { prompt: number; completion: number; total: number | null; unknownCalls: number };
  /** Request and response body bytes. */
  bytes: { out: number; in: number };
  wallMs: number;
  /** Attempts by error class. */
  errors: Partial<Record<ErrorClass, number>>;
  /** The cap that stopped the run, if one did. */
  stop: StopReason | null;
  /** The budget the run had (the packet's, lowered by flags). */
  budget: BudgetLimits;
  /** The receipts, relative to the working directory (null when not written). */
  receipts: { usage: string | null; ledger: string | null; giveUp: string | null };
  /** The last judged answer's test run. */
  tests?: TestCounts;
  /** The run's last failed attempt, as the server put it: class, HTTP status, message (cut, keys removed), and what to do. */
  failure?: { error: ErrorClass; status: number | null; message: string | null; hint: string };
  /** Models the server says answered, when not the one asked for. */
  servedModels?: string[];
  /** What the reply parser noted, by turn (a whole file and a diff for one path, and which was applied). */
  notes?: string[];
  /** Reasoning kept apart from the answers: turns that had some, and characters in all. */
  reasoning?: { turns: number; chars: number };
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
  /** The defects, one sentence each, after their catalog code. */
  defects: string[];
  /** The result came from the cache. */
  cached: boolean;
  durationMs: number;
  /** A packet with variants: each variant rehearsed, by number (its checks are in `checks`, prefixed with its id). */
  variants?: VariantReport[];
}

/** One variant of a packet, as rehearsed. */
export interface VariantReport extends CheckVariant {
  number: number;
  /** The digest of the variant's rendered files (the one its zip's README names). */
  digest: string;
  status: PacketStatus;
  /** Its result came from the cache (keyed by its digest). */
  cached: boolean;
  durationMs: number;
}

/** One shard's run, as a merged report keeps it. */
export interface ShardRun {
  /** 1-based shard index and the number of shards. */
  index: number;
  count: number;
  /** ISO time the shard's run started. */
  date: string;
  durationMs: number;
  /** Packets the shard rehearsed. */
  packets: number;
}

/** The whole rehearsal. */
export interface RehearsalReport {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  /** ISO time the run started (a merged report: its earliest shard's). */
  date: string;
  /** The kit that ran it. */
  kit: KitIdentity;
  /** Set when the run covered one shard of the packets (`--shard i/n`, see shard.ts). */
  shard?: { index: number; count: number };
  /** Set on a report made by `packet merge-reports`: the shards it joined, by index. */
  merged?: { shards: ShardRun[] };
  /** How untrusted code ran. */
  sandbox: { kind: 'bubblewrap' | 'unconfined'; notice: string | null };
  /** The interpreter that ran the tests. */
  interpreter: { python: string | null };
  /** Worker pool size. */
  jobs: number;
  packets: PacketReport[];
  /** Counts of packets by status; `durationMs` is the run's wall time (a merged report: its longest shard's). */
  summary: { packets: number; failsClosed: number; defects: number; inconclusive: number; cached: number; durationMs: number };
  /** The live models asked for (`--model a,b`), in the order given: the columns of the packet x model matrix. */
  live?: { endpoint: string; models: string[] };
  /** Live model runs: one per packet and model (the cells of the matrix), sorted by packet, then in the order of `live.models`. */
  models?: ModelRunReport[];
}

/**
 * Exit code of a report: 2 when any packet or model run is inconclusive, else 1 on packet
 * defects, else 0. A model run that ends PASS, CAUGHT, FALSE-GREEN or GAVE-UP is a finding,
 * not a failure of the rehearsal.
 */
export function exitCodeOf(report: Pick<RehearsalReport, 'packets'> & { models?: readonly Pick<ModelRunReport, 'verdict'>[] | undefined }): 0 | 1 | 2 {
  if (report.packets.some((p) => p.status === 'inconclusive')) return 2;
  if (report.models?.some((m) => m.verdict === 'INCONCLUSIVE')) return 2;
  if (report.packets.some((p) => p.status === 'defect')) return 1;
  return 0;
}

/** A variant's values in words: `func=to_seconds, limit=12` (names in order). */
export function variantValuesText(values: Readonly<Record<string, string | number>>): string {
  return Object.keys(values)
    .sort()
    .map((k) => `${k}=${values[k]}`)
    .join(', ');
}

/** A packet's status from its checks. */
export function statusOf(checks: readonly CheckResult[]): PacketStatus {
  if (checks.some((c) => c.inconclusive)) return 'inconclusive';
  if (checks.some((c) => !c.ok)) return 'defect';
  return 'fails-closed';
}
