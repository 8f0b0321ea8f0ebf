/**
 * The rubric's automatic rows, scored from a judgement: a row with `auto` gets its maximum when
 * its evidence holds and 0 when it does not; each matched failure mode caps the row it names;
 * the hire bar and vetoes decide. Rows a machine cannot judge are left to the caller (the
 * rehearsal's calibration scores them at their maximum, grading leaves them to the reviewer).
 */
import { decide, type Decision } from '../grade/score.ts';
import { failureModes, type Packet } from '../packets/packet.ts';
import type { Judgement } from './judge.ts';

/** The evidence behind each `auto` value. */
export interface AutoEvidence {
  /** `tests`: every test (visible and hidden) ran and passed, on a run that can be trusted. */
  testsGreen: boolean;
  /** `visible-tests`: no visible test failed. */
  visibleGreen: boolean;
  /** `hidden-tests`: no held-out test failed. */
  hiddenGreen: boolean;
  /** `protected`: no protected file touched, none changed during the run. */
  protectedIntact: boolean;
  /** `workspace`: the contract holds (allowed paths, no forbidden pattern, no runner hook, no refused file). */
  workspaceOk: boolean;
  /** Ids of the failure modes whose signal matched. */
  matchedModes: readonly string[];
}

/** The automatic evidence of a judgement. */
export function autoEvidence(j: Pick<Judgement, 'testsGreen' | 'visibleGreen' | 'hiddenGreen' | 'findings' | 'signals'>): AutoEvidence {
  return {
    testsGreen: j.testsGreen,
    visibleGreen: j.visibleGreen,
    hiddenGreen: j.hiddenGreen,
    protectedIntact: !j.findings.some((f) => f.kind === 'protected' || f.code === 'PK425'),
    workspaceOk: !j.findings.some((f) => f.kind === 'contract' || f.kind === 'unsafe'),
    matchedModes: j.signals.map((s) => s.mode),
  };
}

/** Whether a row's automatic evidence holds; rows without `auto` hold. */
export function autoRowHolds(auto: string | undefined, e: AutoEvidence): boolean {
  switch (auto) {
    case 'tests':
      return e.testsGreen;
    case 'visible-tests':
      return e.visibleGreen;
    case 'hidden-tests':
      return e.hiddenGreen;
    case 'protected':
      return e.protectedIntact;
    case 'workspace':
      return e.workspaceOk;
    default:
      return true;
  }
}

/** A scored card: rows a machine cannot judge at their maximum, auto rows from evidence, caps applied. */
export function scoreCard(packet: Pick<Packet, 'rubric' | 'failures'>, evidence: AutoEvidence): { scores: Record<string, number>; decision: Decision } {
  const scores: Record<string, number> = {};
  for (const row of packet.rubric.data.rows) scores[row.id] = autoRowHolds(row.auto, evidence) ? row.max : 0;
  for (const mode of failureModes(packet)) {
    if (evidence.matchedModes.includes(mode.id) && scores[mode.caps.row] !== undefined) {
      scores[mode.caps.row] = Math.min(scores[mode.caps.row]!, mode.caps.max);
    }
  }
  return { scores, decision: decide(packet.rubric.data, scores) };
}
