/**
 * The candidate's answer sheets (a lab's and a drill's) and the reviewer's key files, as the
 * pages export and import them: each pinned to one version by its digest, read back with every
 * field checked, refused with a sentence saying why. Pure; the pages' scripts do the I/O.
 */
import type { LabState } from '../packets/lab-compose.ts';
import type { DrillVerdict } from '../packets/schema/assistant.ts';
import { readEnvelope, SHEET_SCHEMA_VERSION, type LabAnswerSheet, type LabPlan, type ReadResult, type SheetTarget } from './sheet-read.ts';
import { LAB_KEY_KIND, LAB_TABLE_VERSION, type ReviewerKey } from './table.ts';

export {
  DRILL_SHEET_KIND,
  LAB_SHEET_KIND,
  readDrillSheet,
  readLabSheet,
  SHEET_SCHEMA_VERSION,
  sheetFileName,
  type DrillAnswerSheet,
  type LabAnswerSheet,
  type LabPlan,
  type ReadResult,
  type SheetDiff,
  type SheetSuggestion,
  type SheetTarget,
} from './sheet-read.ts';

/** The format name of a drill's key (DRILL-KEY.json). */
export const DRILL_KEY_KIND = 'packet-kit/drill-key';

/** The plan's fields in order, with the words the pages use. */
export const PLAN_FIELDS: readonly { key: keyof LabPlan; label: string; hint: string }[] = [
  { key: 'endState', label: 'End state', hint: 'One sentence: what is true when you are done.' },
  { key: 'checkpoints', label: 'Checkpoints', hint: 'Three to five, one per line, each one you can check.' },
  { key: 'invariant', label: 'The invariant', hint: 'What must stay true the whole time, e.g. "the visible tests keep passing".' },
  { key: 'byHand', label: 'What you will do by hand', hint: 'What you will not delegate to the assistant, and why.' },
];

/** A drill's key (DRILL-KEY.json in the reviewer bundle). */
export interface DrillKeyFile {
  schemaVersion: number;
  kind: typeof DRILL_KEY_KIND;
  id: string;
  version: string;
  digest: string;
  key: { id: string; verdict: DrillVerdict; consequence: string; change?: string }[];
}

/** The choices that need a reason: every one that departs from the assistant as offered. */
export function needsReason(choice: LabState | null, hand: boolean): boolean {
  return hand || choice === 'reject' || choice === 'revise';
}

/** The suggestions whose reason is required and empty, by id. */
export function missingReasons(sheet: Pick<LabAnswerSheet, 'suggestions'>): string[] {
  return sheet.suggestions.filter((s) => needsReason(s.choice, s.hand !== undefined) && !s.reason.trim()).map((s) => s.id);
}

/** Read a lab's key (LAB-KEY.json) for this lab. */
export function readLabKey(json: string, target: SheetTarget & { suggestions: readonly string[] }): ReadResult<ReviewerKey> {
  const env = readEnvelope(json, LAB_KEY_KIND, "a lab's key", target, LAB_TABLE_VERSION);
  if (!env.ok) return env;
  const v = env.value as unknown as ReviewerKey;
  if (!Array.isArray(v.key) || !Array.isArray(v.combinations) || !Array.isArray(v.tests) || typeof v.visibleCount !== 'number') return { ok: false, message: 'This key file is incomplete (it needs "key", "tests", "visibleCount" and "combinations"). Nothing was changed.' };
  if (v.suggestions.join() !== target.suggestions.join() || v.combinations.length !== 3 ** target.suggestions.length) return { ok: false, message: "This key's suggestions are not this lab's. Nothing was changed." };
  return { ok: true, value: v };
}

/** Read a drill's key (DRILL-KEY.json) for this drill. */
export function readDrillKey(json: string, target: SheetTarget & { diffs: readonly string[] }): ReadResult<DrillKeyFile> {
  const env = readEnvelope(json, DRILL_KEY_KIND, "a drill's key", target);
  if (!env.ok) return env;
  const v = env.value as unknown as DrillKeyFile;
  if (!Array.isArray(v.key) || v.key.map((k) => k.id).join() !== target.diffs.join()) return { ok: false, message: "This key's diffs are not this drill's. Nothing was changed." };
  return { ok: true, value: v };
}
