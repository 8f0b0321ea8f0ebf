/**
 * The candidate's answer sheets, read back in the browser: the format's names, the sheets' shapes
 * and their readers, each field checked by hand, refused with a sentence saying why. Imports
 * nothing that carries a schema library, so the drill and lab pages ship only this (sheets.ts
 * re-exports it beside the reviewer's key files).
 */
import { LAB_STATES, type LabState } from '../packets/lab-compose.ts';
import type { DrillVerdict } from '../packets/schema/assistant.ts';

/** The sheets' format version. */
export const SHEET_SCHEMA_VERSION = 1;
/** The format name of a lab's answer sheet. */
export const LAB_SHEET_KIND = 'packet-kit/lab-answer-sheet';
/** The format name of a drill's answer sheet. */
export const DRILL_SHEET_KIND = 'packet-kit/drill-answer-sheet';
/** The verdicts a drill's sheet may hold: the drill schema's DRILL_VERDICTS, repeated here so the browser never loads the schema. */
export const SHEET_DRILL_VERDICTS: readonly DrillVerdict[] = ['accept', 'accept-with-change', 'reject'];

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

/** What a timeline entry records: a choice made, a hand edit, a test run, a drill verdict, or a step of the round. */
export const TIMELINE_ACTIONS = ['start', 'accept', 'revise', 'reject', 'clear', 'hand-edit', 'test-run', 'verdict', 'start-over', 'undo-start-over', 'restore', 'done'] as const;
/** One action of {@link TIMELINE_ACTIONS}. */
export type TimelineAction = (typeof TIMELINE_ACTIONS)[number];

/**
 * One step of the round as the page saw it, in the order it happened: when (ISO 8601), what, on
 * which suggestion or diff, and a short detail (a drill's verdict, a test run's summary). The
 * candidate's own record, so a reviewer reads how they worked; it proves nothing by itself.
 */
export interface TimelineEntry {
  at: string;
  action: TimelineAction;
  /** The suggestion or diff it concerns, if any. */
  id?: string;
  /** At most {@link TIMELINE_DETAIL_LIMIT} characters. */
  detail?: string;
}

/** The most entries a sheet's timeline keeps (the earliest beyond it are dropped, and the reader refuses more). */
export const TIMELINE_LIMIT = 2000;
/** The longest detail of an entry. */
export const TIMELINE_DETAIL_LIMIT = 200;

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
  /** The round's steps in order; absent on sheets exported before it was kept. */
  timeline?: TimelineEntry[];
  /**
   * A lab with variants: the variant the page shows (`v3`). The `digest` (the variant's) decides
   * the variant; this, when present, must name the same one. Absent for a lab without variants.
   */
  variant?: string;
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
  /** The round's steps in order; absent on sheets exported before it was kept. */
  timeline?: TimelineEntry[];
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
/** A value of the file in a sentence: never through its own toString, which a hostile file may have replaced. */
const shown = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : (JSON.stringify(v) ?? String(v)));

/** Parse JSON and check the kind, version, id and digest against the page's. */
export function readEnvelope(json: string, kind: string, what: string, target: SheetTarget, version = SHEET_SCHEMA_VERSION): ReadResult<Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { ok: false, message: `This file is not JSON, so it is not ${what}. Nothing was changed.` };
  }
  if (!isRecord(value) || value.kind !== kind) return { ok: false, message: `This file is not ${what} (its "kind" is not "${kind}"). Nothing was changed.` };
  if (value.schemaVersion !== version) return { ok: false, message: `This file has format version ${shown(value.schemaVersion)}; this page reads version ${version}. Nothing was changed.` };
  if (value.id !== target.id) return { ok: false, message: `This file is for "${shown(value.id)}", not "${target.id}". Nothing was changed.` };
  if (value.digest !== target.digest) {
    const version = typeof value.version === 'string' ? `version ${value.version}, ` : '';
    return {
      ok: false,
      message: `This file belongs to another version of "${target.id}" (${version}digest ${shown(value.digest).slice(0, 12)}); this page is version ${target.version}, digest ${target.digest.slice(0, 12)}. Nothing was changed.`,
    };
  }
  return { ok: true, value };
}

/**
 * Read a sheet's timeline by hand: absent is fine (sheets exported before it was kept); present,
 * it is an array of at most {@link TIMELINE_LIMIT} entries, each an object with a parseable `at`,
 * an `action` of {@link TIMELINE_ACTIONS} and an optional string `id` and `detail` (at most
 * {@link TIMELINE_DETAIL_LIMIT} characters). Anything else refuses the sheet, naming the entry and
 * the field. Only the format's fields are kept.
 */
export function readTimeline(value: unknown): ReadResult<TimelineEntry[] | undefined> {
  if (value === undefined) return { ok: true, value: undefined };
  const fix = 'Export the sheet again from the page, or remove its "timeline". Nothing was changed.';
  if (!Array.isArray(value)) return { ok: false, message: `The sheet's "timeline" is not a list of steps. ${fix}` };
  if (value.length > TIMELINE_LIMIT) return { ok: false, message: `The sheet's "timeline" has ${value.length} steps; a sheet keeps at most ${TIMELINE_LIMIT}. ${fix}` };
  const out: TimelineEntry[] = [];
  for (let i = 0; i < value.length; i++) {
    const e: unknown = value[i];
    const at = `Step ${i + 1} of the sheet's "timeline"`;
    if (!isRecord(e)) return { ok: false, message: `${at} is not an object with "at" and "action". ${fix}` };
    if (typeof e.at !== 'string' || e.at.length > 40 || !/^\d{4}-\d{2}-\d{2}T/.test(e.at) || Number.isNaN(Date.parse(e.at)))
      return { ok: false, message: `${at} has no readable time: its "at" must be an ISO 8601 time such as 2026-12-02T10:00:00.000Z. ${fix}` };
    if (typeof e.action !== 'string' || !(TIMELINE_ACTIONS as readonly string[]).includes(e.action))
      return { ok: false, message: `${at} has the action ${shown(e.action).slice(0, 40)}; it must be one of ${TIMELINE_ACTIONS.join(', ')}. ${fix}` };
    if (e.id !== undefined && (typeof e.id !== 'string' || e.id.length > TIMELINE_DETAIL_LIMIT)) return { ok: false, message: `${at} has an "id" that is not a short text. ${fix}` };
    if (e.detail !== undefined && (typeof e.detail !== 'string' || e.detail.length > TIMELINE_DETAIL_LIMIT))
      return { ok: false, message: `${at} has a "detail" that is not a text of at most ${TIMELINE_DETAIL_LIMIT} characters. ${fix}` };
    out.push({ at: e.at, action: e.action as TimelineAction, ...(e.id !== undefined ? { id: e.id } : {}), ...(e.detail !== undefined ? { detail: e.detail } : {}) });
  }
  return { ok: true, value: out };
}

/** Read a lab's answer sheet for the lab with these suggestions. */
export function readLabSheet(json: string, target: SheetTarget & { suggestions: readonly string[] }): ReadResult<LabAnswerSheet> {
  const env = readEnvelope(json, LAB_SHEET_KIND, 'a lab answer sheet', target);
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
  const timeline = readTimeline(v.timeline);
  if (!timeline.ok) return timeline;
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
      ...(timeline.value ? { timeline: timeline.value } : {}),
      ...(typeof v.variant === 'string' && v.variant ? { variant: v.variant } : {}),
    },
  };
}

/** Read a drill's answer sheet for the drill with these diffs. */
export function readDrillSheet(json: string, target: SheetTarget & { diffs: readonly string[] }): ReadResult<DrillAnswerSheet> {
  const env = readEnvelope(json, DRILL_SHEET_KIND, 'a drill answer sheet', target);
  if (!env.ok) return env;
  const v = env.value;
  const list = Array.isArray(v.diffs) ? v.diffs : [];
  const diffs: SheetDiff[] = [];
  for (const id of target.diffs) {
    const d = list.find((x): x is Record<string, unknown> => isRecord(x) && x.id === id);
    if (!d) return { ok: false, message: `The sheet has no answer for the diff "${id}". Nothing was changed.` };
    const verdict = d.verdict === null || d.verdict === undefined ? null : d.verdict;
    if (verdict !== null && !SHEET_DRILL_VERDICTS.includes(verdict as DrillVerdict)) return { ok: false, message: `The verdict on "${id}" is ${JSON.stringify(verdict)}; it must be accept, accept-with-change or reject. Nothing was changed.` };
    diffs.push({ id, verdict: verdict as DrillVerdict | null, reason: text(d.reason), ...(text(d.change) ? { change: text(d.change) } : {}) });
  }
  const timeline = readTimeline(v.timeline);
  if (!timeline.ok) return timeline;
  return {
    ok: true,
    value: {
      schemaVersion: SHEET_SCHEMA_VERSION,
      kind: DRILL_SHEET_KIND,
      id: target.id,
      version: text(v.version) || target.version,
      digest: target.digest,
      date: text(v.date),
      ...(text(v.candidate) ? { candidate: text(v.candidate) } : {}),
      diffs,
      ...(timeline.value ? { timeline: timeline.value } : {}),
    },
  };
}
