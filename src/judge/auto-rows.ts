/**
 * The evidence behind the rubric's automatic rows: a row with `auto` gets its maximum when its
 * evidence holds and 0 when it does not (the card itself is `src/judge/scorecard.ts`).
 */
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
  /** `receipts`: the receipts are there, add up, keep the caps and name the code handed in. */
  receiptsOk: boolean;
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
    receiptsOk: !j.findings.some((f) => f.kind === 'receipts'),
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
    case 'receipts':
      return e.receiptsOk;
    default:
      return true;
  }
}
