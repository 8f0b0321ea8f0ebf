import picomatch from 'picomatch';
import { decide, type Decision } from '../grade/score.ts';
import type { Packet } from '../packets/packet.ts';

/** What the machine knows about one workspace, to pre-fill the rubric's automatic rows. */
export interface AutoEvidence {
  /** Every test (visible and hidden) ran and passed. */
  testsGreen: boolean;
  /** No visible (starter) test failed. */
  visibleGreen: boolean;
  /** No hidden test failed. */
  hiddenGreen: boolean;
  /** No protected file was changed by the submission. */
  protectedIntact: boolean;
  /** Every changed file is allowed and no forbidden pattern appears. */
  workspaceOk: boolean;
  /** Ids of the failure modes whose signal matched. */
  matchedModes: readonly string[];
}

/** A scored card: rows a machine cannot judge at their maximum, auto rows from evidence, caps applied. */
export function scoreCard(packet: Packet, evidence: AutoEvidence): { scores: Record<string, number>; decision: Decision } {
  const scores: Record<string, number> = {};
  for (const row of packet.rubric.data.rows) {
    let pass = true;
    switch (row.auto) {
      case 'tests':
        pass = evidence.testsGreen;
        break;
      case 'visible-tests':
        pass = evidence.visibleGreen;
        break;
      case 'hidden-tests':
        pass = evidence.hiddenGreen;
        break;
      case 'protected':
        pass = evidence.protectedIntact;
        break;
      case 'workspace':
        pass = evidence.workspaceOk;
        break;
    }
    scores[row.id] = pass ? row.max : 0;
  }
  for (const mode of packet.failures.data.modes) {
    if (evidence.matchedModes.includes(mode.id) && scores[mode.caps.row] !== undefined) {
      scores[mode.caps.row] = Math.min(scores[mode.caps.row]!, mode.caps.max);
    }
  }
  return { scores, decision: decide(packet.rubric.data, scores) };
}

/** Whether a set of changed files keeps the workspace contract (allowed paths, no forbidden pattern). */
export function workspaceContract(packet: Packet, changed: ReadonlyMap<string, string>): { ok: boolean; problems: string[] } {
  const allow = picomatch(packet.prompt.data.workspace.allow, { dot: true });
  const problems: string[] = [];
  for (const [file, text] of changed) {
    if (!allow(file)) problems.push(`${file} is outside the allowed files`);
    for (const rule of packet.prompt.data.workspace.forbid) {
      let re: RegExp;
      try {
        re = new RegExp(rule.pattern);
      } catch {
        continue;
      }
      if (re.test(text)) problems.push(`${file} contains a forbidden pattern: ${rule.reason}`);
    }
  }
  return { ok: problems.length === 0, problems };
}

/** Split failing test ids into visible (starter) and hidden ones; an id that maps to neither counts as both. */
export function splitFailing(packet: Packet, failing: readonly string[]): { visible: number; hidden: number } {
  let visible = 0;
  let hidden = 0;
  for (const id of failing) {
    let found: 'visible' | 'hidden' | undefined;
    if (id.includes('::')) {
      const file = id.split('::')[0]!;
      found = packet.trees.hidden.includes(file) ? 'hidden' : packet.trees.starter.includes(file) ? 'visible' : undefined;
    }
    const parts = id.split('.');
    for (let n = parts.length; n > 0 && !found && !id.includes('::'); n--) {
      const file = `${parts.slice(0, n).join('/')}.py`;
      if (packet.trees.hidden.includes(file)) found = 'hidden';
      else if (packet.trees.starter.includes(file)) found = 'visible';
    }
    if (found !== 'hidden') visible++;
    if (found !== 'visible') hidden++;
  }
  return { visible, hidden };
}
