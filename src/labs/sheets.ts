/**
 * The candidate's answer sheets (a lab's and a drill's) and the reviewer's key files, as the
 * pages export and import them: each pinned to one version by its digest, read back with every
 * field checked, refused with a sentence saying why. Pure; the pages' scripts do the I/O.
 */
import { LAB_STATES, type LabState } from '../packets/lab-compose.ts';
import { DRILL_VERDICTS, type DrillVerdict } from '../packets/schema/assistant.ts';
import { LAB_KEY_KIND, LAB_TABLE_VERSION, type ReviewerKey } from './table.ts';

/** The sheets' format version. */
export const SHEET_SCHEMA_VERSION = 1;
/** The format name of a lab's answer sheet. */
export const LAB_SHEET_KIND = 'packet-kit/lab-answer-sheet';
/** The format name of a drill's answer sheet. */
export const DRILL_SHEET_KIND = 'packet-kit/drill-answer-sheet';
/** The format name of a drill's key (DRILL-KEY.json). */
export const DRILL_KEY_KIND = 'packet-kit/drill-key';

/** What a lab's sheet names: which lab, which version. */
export interface SheetTarget {
  id: string;
  version: string;
  digest: string;
}

/** The plan the candidate writes before asking the assistant anything (the method's checklist). */
export interface LabPlan {
  /** The end state, in a sentence. */
  endState: string;
  /** Three to five checkpoints, one per line, each checkable. */
  checkpoints: string;
  /** What must stay true throughout. */
  invariant: string;
  /** What the candidate will do by hand rather than delegate, and why. */
  byHand: string;
}

/** The plan's fields in order, with the words the pages use. */
export const PLAN_FIELDS: readonly { key: keyof LabPlan; label: string; hint: string }[] = [
  { key: 'endState', label: 'End state', hint: 'One sentence: what is true when you are done.' },
  { key: 'checkpoints', label: 'Checkpoints', hint: 'Three to five, one per line, each one you can check.' },
  { key: 'invariant', label: 'The invariant', hint: 'What must stay true the whole time, e.g. "the visible tests keep passing".' },
  { key: 'byHand', label: 'What you will do by hand', hint: 'What you will not delegate to the assistant, and why.' },
];

/** One suggestion on a lab's answer sheet. */
export interface SheetSuggestion {
  id: string;
  /** The scripted version the candidate chose; null while undecided. */
  choice: LabState | null;
  /** The region's text when the candidate edited it by hand and it matches no scripted version. */
  hand?: string;
  /** Why. Required for reject and revise. */
  reason: string;
}

/** A lab's answer sheet. */
export interface LabAnswerSheet extends SheetTarget {
  schemaVersion: number;
  kind: typeof LAB_SHEET_KIND;
  /** When it was exported, ISO 8601. */
  date: string;
  /** Who answered, as typed (optional). */
  candidate?: string;
  plan: LabPlan;
  suggestions: SheetSuggestion[];
}

/** One diff on a drill's answer sheet. */
export interface SheetDiff {
  id: string;
  /** Null while undecided. */
  verdict: DrillVerdict | null;
  /** Why. */
  reason: string;
  /** For accept-with-change: the change the candidate asks for. */
  change?: string;
}

/** A drill's answer sheet. */
export interface DrillAnswerSheet extends SheetTarget {
  schemaVersion: number;
  kind: typeof DRILL_SHEET_KIND;
  date: string;
  candidate?: string;
  diffs: SheetDiff[];
}

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

/** The file name of an exported sheet: `<id>-<version>-answers[-<candidate>].json`. */
export function sheetFileName(sheet: SheetTarget & { candidate?: string }): string {
  const who = (sheet.candidate ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40);
  return `${sheet.id}-${sheet.version}-answers${who ? `-${who}` : ''}.json`;
}

/** A read that either gives the value or says, in a sentence, why not. */
export type ReadResult<T> = { ok: true; value: T } | { ok: false; message: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** Parse JSON and check the kind, version, id and digest against the page's. */
function envelope(json: string, kind: string, what: string, target: SheetTarget, version = SHEET_SCHEMA_VERSION): ReadResult<Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { ok: false, message: `This file is not JSON, so it is not ${what}. Nothing was changed.` };
  }
  if (!isRecord(value) || value.kind !== kind) return { ok: false, message: `This file is not ${what} (its "kind" is not "${kind}"). Nothing was changed.` };
  if (value.schemaVersion !== version) return { ok: false, message: `This file has format version ${String(value.schemaVersion)}; this page reads version ${version}. Nothing was changed.` };
  if (value.id !== target.id) return { ok: false, message: `This file is for "${String(value.id)}", not "${target.id}". Nothing was changed.` };
  if (value.digest !== target.digest) {
    const version = typeof value.version === 'string' ? `version ${value.version}, ` : '';
    return {
      ok: false,
      message: `This file belongs to another version of "${target.id}" (${version}digest ${String(value.digest).slice(0, 12)}); this page is version ${target.version}, digest ${target.digest.slice(0, 12)}. Nothing was changed.`,
    };
  }
  return { ok: true, value };
}

/** Read a lab's answer sheet for the lab with these suggestions. */
export function readLabSheet(json: string, target: SheetTarget & { suggestions: readonly string[] }): ReadResult<LabAnswerSheet> {
  const env = envelope(json, LAB_SHEET_KIND, 'a lab answer sheet', target);
  if (!env.ok) return env;
  const v = env.value;
  const plan = isRecord(v.plan) ? v.plan : {};
  const list = Array.isArray(v.suggestions) ? v.suggestions : [];
  const suggestions: SheetSuggestion[] = [];
  for (const id of target.suggestions) {
    const s = list.find((x): x is Record<string, unknown> => isRecord(x) && x.id === id);
    if (!s) return { ok: false, message: `The sheet has no answer for the suggestion "${id}". Nothing was changed.` };
    const choice = s.choice === null || s.choice === undefined ? null : s.choice;
    if (choice !== null && !LAB_STATES.includes(choice as LabState)) return { ok: false, message: `The choice on "${id}" is ${JSON.stringify(choice)}; it must be accept, revise or reject. Nothing was changed.` };
    suggestions.push({ id, choice: choice as LabState | null, ...(typeof s.hand === 'string' ? { hand: s.hand } : {}), reason: text(s.reason) });
  }
  return {
    ok: true,
    value: {
      schemaVersion: SHEET_SCHEMA_VERSION,
      kind: LAB_SHEET_KIND,
      id: target.id,
      version: text(v.version) || target.version,
      digest: target.digest,
      date: text(v.date),
      ...(text(v.candidate) ? { candidate: text(v.candidate) } : {}),
      plan: { endState: text(plan.endState), checkpoints: text(plan.checkpoints), invariant: text(plan.invariant), byHand: text(plan.byHand) },
      suggestions,
    },
  };
}

/** Read a drill's answer sheet for the drill with these diffs. */
export function readDrillSheet(json: string, target: SheetTarget & { diffs: readonly string[] }): ReadResult<DrillAnswerSheet> {
  const env = envelope(json, DRILL_SHEET_KIND, 'a drill answer sheet', target);
  if (!env.ok) return env;
  const v = env.value;
  const list = Array.isArray(v.diffs) ? v.diffs : [];
  const diffs: SheetDiff[] = [];
  for (const id of target.diffs) {
    const d = list.find((x): x is Record<string, unknown> => isRecord(x) && x.id === id);
    if (!d) return { ok: false, message: `The sheet has no answer for the diff "${id}". Nothing was changed.` };
    const verdict = d.verdict === null || d.verdict === undefined ? null : d.verdict;
    if (verdict !== null && !DRILL_VERDICTS.includes(verdict as DrillVerdict)) return { ok: false, message: `The verdict on "${id}" is ${JSON.stringify(verdict)}; it must be accept, accept-with-change or reject. Nothing was changed.` };
    diffs.push({ id, verdict: verdict as DrillVerdict | null, reason: text(d.reason), ...(text(d.change) ? { change: text(d.change) } : {}) });
  }
  return {
    ok: true,
    value: { schemaVersion: SHEET_SCHEMA_VERSION, kind: DRILL_SHEET_KIND, id: target.id, version: text(v.version) || target.version, digest: target.digest, date: text(v.date), ...(text(v.candidate) ? { candidate: text(v.candidate) } : {}), diffs },
  };
}

/** Read a lab's key (LAB-KEY.json) for this lab. */
export function readLabKey(json: string, target: SheetTarget & { suggestions: readonly string[] }): ReadResult<ReviewerKey> {
  const env = envelope(json, LAB_KEY_KIND, "a lab's key", target, LAB_TABLE_VERSION);
  if (!env.ok) return env;
  const v = env.value as unknown as ReviewerKey;
  if (!Array.isArray(v.key) || !Array.isArray(v.combinations) || !Array.isArray(v.tests) || typeof v.visibleCount !== 'number') return { ok: false, message: 'This key file is incomplete (it needs "key", "tests", "visibleCount" and "combinations"). Nothing was changed.' };
  if (v.suggestions.join() !== target.suggestions.join() || v.combinations.length !== 3 ** target.suggestions.length) return { ok: false, message: "This key's suggestions are not this lab's. Nothing was changed." };
  return { ok: true, value: v };
}

/** Read a drill's key (DRILL-KEY.json) for this drill. */
export function readDrillKey(json: string, target: SheetTarget & { diffs: readonly string[] }): ReadResult<DrillKeyFile> {
  const env = envelope(json, DRILL_KEY_KIND, "a drill's key", target);
  if (!env.ok) return env;
  const v = env.value as unknown as DrillKeyFile;
  if (!Array.isArray(v.key) || v.key.map((k) => k.id).join() !== target.diffs.join()) return { ok: false, message: "This key's diffs are not this drill's. Nothing was changed." };
  return { ok: true, value: v };
}
