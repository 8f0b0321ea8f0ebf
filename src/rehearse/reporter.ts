import type { GatePause } from '../llm/endpoint-gate.ts';
import type { WaitPlan } from '../llm/retry.ts';
import type { RunMessages } from '../runs/reporter.ts';
import type { CheckResult, ModelRunReport, PacketReport, RehearsalReport } from './report.ts';
import type { Shard } from './shard.ts';

/** The live model runs as they start: the models, the endpoint, the calls at once. */
export interface ModelsStart {
  models: string[];
  host: string;
  /** The embedded scripted endpoint answers. */
  scripted: boolean;
  endpointJobs: number;
}

/**
 * Observes a rehearsal, from its start to the report written. Every hook is optional; the runner
 * never depends on one (Vitest's reporters are the model). The terminal's lines, the build's
 * quiet lines and the report file are reporters of this one interface.
 */
export interface RehearsalReporter extends RunMessages {
  /** The shard of the packets this run covers, once selected. */
  onShard?(shard: Shard, selected: number, total: number): void;
  onRunStart?(plan: { packets: string[]; jobs: number }): void;
  onPacketStart?(id: string): void;
  onCheckEnd?(id: string, check: CheckResult): void;
  onPacketEnd?(report: PacketReport): void;
  /** The live model runs start (`--model`). */
  onModelsStart?(start: ModelsStart): void;
  /** A live run waits before retrying a call. */
  onWait?(packet: string, plan: WaitPlan, retry: number, model: string): void;
  /** A rate-limit answer pauses the endpoint for every live run. */
  onPause?(pause: GatePause, host: string): void;
  /** A live model run ended. */
  onModelRunEnd?(run: ModelRunReport): void;
  /** Every live model run ended. */
  onModelsEnd?(runs: ModelRunReport[]): void;
  /** The offline rehearsal (and the live runs, if any) ended. */
  onRunEnd?(report: RehearsalReport): void;
  /** The whole report, offline and live, final; awaited, so a reporter that writes it somewhere is done before the run ends. */
  onReport?(report: RehearsalReport): void | Promise<void>;
  /** A report is written, at this absolute path: the JSON report, or (`--junit`) the JUnit XML. */
  onReportWritten?(file: string, format?: 'json' | 'junit'): void;
}
