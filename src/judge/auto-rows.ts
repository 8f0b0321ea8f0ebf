/**
 * The evidence behind the rubric's automatic rows: a row with `auto` gets its maximum when its
 * evidence holds and 0 when it does not (the card itself is `src/judge/scorecard.ts`). Which
 * findings bear on a row is decided here once, so the score, the quoted evidence and the
 * findings a card lists beside the row always agree.
 */
import type { Finding } from './findings.ts';
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
  /**
   * `workspace`: the contract holds: every file the submission changed is one it may change
   * (inside `allow`, and not protected), no forbidden pattern, no runner hook, no refused file,
   * no secret.
   */
  workspaceOk: boolean;
  /** `receipts`: the receipts are there, add up, keep the caps and name the code handed in. */
  receiptsOk: boolean;
  /** Ids of the failure modes whose signal matched. */
  matchedModes: readonly string[];
}

/** Findings of a run that make its results untrustworthy: they bear on every test row. */
const RUN_KINDS: readonly Finding['kind'][] = ['infra', 'run', 'tamper'];

/**
 * Whether a finding bears on a row with this `auto` check: it is evidence against the check.
 * A protected file the submission changed is a changed file it may not change, so it bears on
 * `workspace` as well as on `protected`.
 */
export function bearsOn(auto: string, f: Pick<Finding, 'kind' | 'code'>): boolean {
  switch (auto) {
    case 'tests':
      return [...RUN_KINDS, 'tests', 'hidden-tests'].includes(f.kind);
    case 'visible-tests':
      return [...RUN_KINDS, 'tests'].includes(f.kind);
    case 'hidden-tests':
      return [...RUN_KINDS, 'hidden-tests'].includes(f.kind);
    case 'protected':
      return f.kind === 'protected' || f.code === 'PK425';
    case 'workspace':
      return f.kind === 'contract' || f.kind === 'unsafe' || f.kind === 'secret' || f.kind === 'protected';
    case 'receipts':
      return f.kind === 'receipts';
    default:
      return false;
  }
}

/** The automatic evidence of a judgement (with its findings, those of intake and the secret scan included). */
export function autoEvidence(j: Pick<Judgement, 'testsGreen' | 'visibleGreen' | 'hiddenGreen' | 'findings' | 'signals'>): AutoEvidence {
  const clear = (auto: string) => !j.findings.some((f) => bearsOn(auto, f));
  return {
    testsGreen: j.testsGreen,
    visibleGreen: j.visibleGreen,
    hiddenGreen: j.hiddenGreen,
    protectedIntact: clear('protected'),
    workspaceOk: clear('workspace'),
    receiptsOk: clear('receipts'),
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
