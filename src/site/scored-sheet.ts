import { decide, type Decision, type RowScores } from '../grade/score.ts';
import type { RubricFrontmatter } from '../packets/schema/rubric.ts';

/**
 * The scored sheet the rubric page exports and imports: one card, scored by a person, pinned to
 * exactly one packet version by its digest. Pure; the page's client script does the I/O.
 */

/** The sheet format; bump it on an incompatible change. */
export const SCORED_SHEET_SCHEMA_VERSION = 1;

/** What names the sheet's kind inside the JSON, so a stray file is not read as a sheet. */
export const SCORED_SHEET_KIND = 'packet-kit/scored-sheet';

/** The card being scored: which packet version, and its rubric. */
export interface ScoringCard {
  /** The packet id. */
  id: string;
  /** The packet version. */
  version: string;
  /** The packet's content digest. */
  digest: string;
  /** The rubric's rows, hire bar and vetoes. */
  rubric: Pick<RubricFrontmatter, 'rows' | 'hireBar' | 'vetoes'>;
}

/** A scored sheet, as exported. */
export interface ScoredSheet {
  /** The format version, {@link SCORED_SHEET_SCHEMA_VERSION}. */
  schemaVersion: number;
  /** Always {@link SCORED_SHEET_KIND}. */
  kind: string;
  /** The packet id. */
  id: string;
  /** The packet version. */
  version: string;
  /** The digest of the packet version scored: the sheet belongs to it and to no other. */
  digest: string;
  /** Points per rubric row id. */
  scores: Record<string, number>;
  /** The decision the scores reach (see `decide`). */
  decision: Decision;
  /** Who was scored, as typed on the card (optional). */
  candidate?: string;
  /** Who scored, as typed on the card (optional). */
  reviewer?: string;
  /** The day the card was scored, `YYYY-MM-DD`, as the reviewer set it on the card (optional). */
  scoredOn?: string;
  /** The reviewer's notes per rubric row id, rows without notes left out (optional). */
  notes?: Record<string, string>;
  /** When the sheet was exported (or saved in the browser), ISO 8601. */
  date: string;
}

/** What a person typed on the card besides the scores. */
export interface SheetExtras {
  candidate?: string;
  reviewer?: string;
  /** `YYYY-MM-DD`. */
  scoredOn?: string;
  /** Notes per row id. */
  notes?: Readonly<Record<string, string | undefined>>;
}

/** Scores with every row scored, or `undefined` while some row is still open. */
export function completeScores(card: ScoringCard, scores: Readonly<Record<string, number | undefined>>): RowScores | undefined {
  const out: Record<string, number> = {};
  for (const row of card.rubric.rows) {
    const score = scores[row.id];
    if (score === undefined) return undefined;
    out[row.id] = score;
  }
  return out;
}

/** Make the sheet for a card and its scores, with rows in the rubric's order. */
export function scoredSheet(card: ScoringCard, scores: Readonly<Record<string, number | undefined>>, extra: SheetExtras & { date: Date }): ScoredSheet {
  const ordered: Record<string, number> = {};
  const notes: Record<string, string> = {};
  for (const row of card.rubric.rows) {
    const score = scores[row.id];
    if (score !== undefined) ordered[row.id] = score;
    const note = extra.notes?.[row.id]?.trim();
    if (note) notes[row.id] = note;
  }
  return {
    schemaVersion: SCORED_SHEET_SCHEMA_VERSION,
    kind: SCORED_SHEET_KIND,
    id: card.id,
    version: card.version,
    digest: card.digest,
    scores: ordered,
    decision: decide(card.rubric, ordered),
    ...(extra.candidate?.trim() ? { candidate: extra.candidate.trim() } : {}),
    ...(extra.reviewer?.trim() ? { reviewer: extra.reviewer.trim() } : {}),
    ...(extra.scoredOn && ISO_DAY.test(extra.scoredOn) ? { scoredOn: extra.scoredOn } : {}),
    ...(Object.keys(notes).length ? { notes } : {}),
    date: extra.date.toISOString(),
  };
}

/** The file name an exported sheet gets: `red-log-gate-1.0.0-scored.json`, with the candidate when given. */
export function scoredSheetFileName(sheet: Pick<ScoredSheet, 'id' | 'version' | 'candidate'>): string {
  const who = (sheet.candidate ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40);
  return `${sheet.id}-${sheet.version}-scored${who ? `-${who}` : ''}.json`;
}

/** A day as `YYYY-MM-DD`. */
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The outcome of reading a sheet back. */
export type ReadSheetResult =
  | { ok: true; scores: Record<string, number>; candidate: string; reviewer: string; scoredOn: string; notes: Record<string, string>; date: string }
  | { ok: false; message: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Read an exported sheet back onto a card. It must be a sheet for this packet id and this exact
 * digest, with a whole number in range for rows of this rubric; anything else is refused with a
 * sentence saying why, and nothing is applied.
 */
export function readScoredSheet(text: string, card: ScoringCard): ReadSheetResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, message: 'This file is not JSON, so it is not a scored sheet. Nothing was changed.' };
  }
  if (!isRecord(json) || json.kind !== SCORED_SHEET_KIND || typeof json.digest !== 'string' || !isRecord(json.scores)) {
    return { ok: false, message: 'This file is not a packet-kit scored sheet (it needs "kind", "digest" and "scores"). Nothing was changed.' };
  }
  if (json.schemaVersion !== SCORED_SHEET_SCHEMA_VERSION) {
    return { ok: false, message: `This sheet has format version ${String(json.schemaVersion)}; this page reads version ${SCORED_SHEET_SCHEMA_VERSION}. Nothing was changed.` };
  }
  if (json.id !== card.id) {
    return { ok: false, message: `This sheet scores the packet "${String(json.id)}", not "${card.id}". Open that packet's rubric to read it. Nothing was changed.` };
  }
  if (json.digest !== card.digest) {
    const version = typeof json.version === 'string' ? `version ${json.version}, ` : '';
    return {
      ok: false,
      message: `This sheet was scored on another version of "${card.id}" (${version}digest ${json.digest.slice(0, 12)}); this page is version ${card.version}, digest ${card.digest.slice(0, 12)}. A sheet belongs to one version only, so nothing was changed.`,
    };
  }
  const scores: Record<string, number> = {};
  for (const [rowId, value] of Object.entries(json.scores)) {
    const row = card.rubric.rows.find((r) => r.id === rowId);
    if (!row) return { ok: false, message: `This sheet scores a row "${rowId}" that this rubric does not have. Nothing was changed.` };
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > row.max) {
      return { ok: false, message: `The score of row "${rowId}" is ${JSON.stringify(value)}; it must be a whole number from 0 to ${row.max}. Nothing was changed.` };
    }
    scores[rowId] = value;
  }
  const notes: Record<string, string> = {};
  if (json.notes !== undefined) {
    if (!isRecord(json.notes)) return { ok: false, message: 'This sheet\'s "notes" is not a map of row ids to text. Nothing was changed.' };
    for (const [rowId, value] of Object.entries(json.notes)) {
      if (!card.rubric.rows.some((r) => r.id === rowId)) return { ok: false, message: `This sheet has notes on a row "${rowId}" that this rubric does not have. Nothing was changed.` };
      if (typeof value !== 'string') return { ok: false, message: `The notes on row "${rowId}" are not text. Nothing was changed.` };
      notes[rowId] = value;
    }
  }
  const asText = (v: unknown) => (typeof v === 'string' ? v : '');
  const scoredOn = asText(json.scoredOn);
  return { ok: true, scores, candidate: asText(json.candidate), reviewer: asText(json.reviewer), scoredOn: ISO_DAY.test(scoredOn) ? scoredOn : '', notes, date: asText(json.date) };
}

/** Where the browser keeps the card being scored, so a reload does not lose it: one draft per packet version. */
export function draftKey(card: Pick<ScoringCard, 'id' | 'digest'>): string {
  return `packet-kit:scoring:${card.id}:${card.digest}`;
}

/** True when a sheet holds nothing a person typed: no score, no note, no name. */
export function isBlankSheet(sheet: Pick<ScoredSheet, 'scores' | 'notes' | 'candidate' | 'reviewer'>): boolean {
  return !Object.keys(sheet.scores).length && !Object.keys(sheet.notes ?? {}).length && !sheet.candidate && !sheet.reviewer;
}

/**
 * The words the card shows for a score. A score without words of its own (2 on a row that
 * describes 0, 1 and 3) lies between the nearest scores that have them: "Between 1 and 3".
 */
export function levelWords(levels: Readonly<Record<string, string>>, points: number): { words: string; own: boolean } {
  const own = levels[String(points)];
  if (own !== undefined) return { words: own, own: true };
  const described = Object.keys(levels).map(Number).filter(Number.isInteger).sort((a, b) => a - b);
  const below = described.filter((p) => p < points).at(-1);
  const above = described.find((p) => p > points);
  if (below !== undefined && above !== undefined) return { words: `Between ${below} and ${above}.`, own: false };
  if (below !== undefined) return { words: `More than ${below}.`, own: false };
  if (above !== undefined) return { words: `Less than ${above}.`, own: false };
  return { words: '', own: false };
}
