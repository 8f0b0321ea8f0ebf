import type { CheckResult, ModelRunReport, PacketReport, RehearsalReport } from './report.ts';

/** Observes a rehearsal. Every hook is optional; the runner never depends on one. */
export interface Reporter {
  onRunStart?(plan: { packets: string[]; jobs: number }): void;
  onPacketStart?(id: string): void;
  onCheckEnd?(id: string, check: CheckResult): void;
  onPacketEnd?(report: PacketReport): void;
  /** A live model run ended (`--endpoint`/`--model`). */
  onModelRunEnd?(run: ModelRunReport): void;
  onRunEnd?(report: RehearsalReport): void;
}
