import { decide, type Decision, type RowScores } from '../judge/score.ts';
import { SCORECARD_KIND, SCORECARD_SCHEMA_VERSION, SCORED_SHEET_KIND, SCORED_SHEET_SCHEMA_VERSION } from '../judge/scorecard-format.ts';
import type { RubricFrontmatter } from '../packets/schema/rubric.ts';

/**
 * The scored sheet the rubric page exports and imports: one card, scored by a person, pinned to
 * exactly one packet version by its digest. Pure; the page's client script does the I/O.
 */

export { SCORED_SHEET_KIND, SCORED_SHEET_SCHEMA_VERSION } from '../judge/scorecard-format.ts';

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

/** The card of a packet as a content collection holds it (a take-home, a lab or a drill). */
export function scoringCardOf(packet: { id: string; digest: string; prompt: { version: string }; rubric: ScoringCard['rubric'] }): ScoringCard {
  const { rows, hireBar, vetoes } = packet.rubric;
  return { id: packet.id, version: packet.prompt.version, digest: packet.digest, rubric: { rows, hireBar, vetoes } };
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
  /**
   * The submission graded, when the card started from its `scorecard.json` (`packet grade`): its
   * name and sha256, so the sheet names both the packet version (`digest`) and the work scored.
   */
  submission?: SheetSubmission;
  /** The evidence behind each automatic row's score, by row id, as the scorecard quoted it. */
  evidence?: Record<string, string>;
  /** The caps matched failure modes put on rows, by row id, as the scorecard found them. */
  caps?: Record<string, { mode: string; max: number }>;
  /** When the sheet was exported (or saved in the browser), ISO 8601. */
  date: string;
}

/** The graded submission a sheet scores. */
export interface SheetSubmission {
  name: string;
  /** sha256 of the archive (of its sorted files, for a folder); null when it could not be read. */
  sha256: string | null;
}

/** What a person typed on the card besides the scores. */
export interface SheetExtras {
  submission?: SheetSubmission;
  evidence?: Readonly<Record<string, string>>;
  caps?: Readonly<Record<string, { mode: string; max: number }>>;
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
    ...(extra.submission ? { submission: { name: extra.submission.name, sha256: extra.submission.sha256 } } : {}),
    ...(extra.evidence && Object.keys(extra.evidence).length ? { evidence: { ...extra.evidence } } : {}),
    ...(extra.caps && Object.keys(extra.caps).length ? { caps: { ...extra.caps } } : {}),
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
  | {
      ok: true;
      scores: Record<string, number>;
      candidate: string;
      reviewer: string;
      scoredOn: string;
      notes: Record<string, string>;
      date: string;
      /** The graded submission, when the card came from (or started as) a scorecard. */
      submission?: SheetSubmission;
      /** The automatic rows' evidence, by row id. */
      evidence: Record<string, string>;
      /** The caps that matched failure modes put on rows, by row id (from a scorecard). */
      caps: Record<string, { mode: string; max: number }>;
      /** True when this was a `scorecard.json`: only its automatic rows are scored. */
      fromScorecard: boolean;
    }
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
  const submission = json.submission === undefined ? undefined : submissionOf(json.submission);
  if (submission === null) return { ok: false, message: 'This sheet\'s "submission" is not a name and a sha256. Nothing was changed.' };
  const evidence: Record<string, string> = {};
  if (json.evidence !== undefined) {
    if (!isRecord(json.evidence)) return { ok: false, message: 'This sheet\'s "evidence" is not a map of row ids to text. Nothing was changed.' };
    for (const [rowId, value] of Object.entries(json.evidence)) {
      if (!card.rubric.rows.some((r) => r.id === rowId && r.auto) || typeof value !== 'string') {
        return { ok: false, message: `This sheet has evidence for "${rowId}", which is not an automatic row of this rubric. Nothing was changed.` };
      }
      evidence[rowId] = value;
    }
  }
  const caps: Record<string, { mode: string; max: number }> = {};
  if (json.caps !== undefined) {
    if (!isRecord(json.caps)) return { ok: false, message: 'This sheet\'s "caps" is not a map of row ids to caps. Nothing was changed.' };
    for (const [rowId, value] of Object.entries(json.caps)) {
      const row = card.rubric.rows.find((r) => r.id === rowId);
      if (!row || !isRecord(value) || typeof value.mode !== 'string' || !Number.isInteger(value.max)) {
        return { ok: false, message: `This sheet has a cap on "${rowId}" that is not a row of this rubric with a mode and a whole maximum. Nothing was changed.` };
      }
      caps[rowId] = { mode: value.mode, max: value.max as number };
    }
  }
  const asText = (v: unknown) => (typeof v === 'string' ? v : '');
  const scoredOn = asText(json.scoredOn);
  return {
    ok: true,
    scores,
    candidate: asText(json.candidate),
    reviewer: asText(json.reviewer),
    scoredOn: ISO_DAY.test(scoredOn) ? scoredOn : '',
    notes,
    date: asText(json.date),
    ...(submission ? { submission } : {}),
    evidence,
    caps,
    fromScorecard: false,
  };
}

/** A submission's name and sha256, or null when the value is not one. */
function submissionOf(v: unknown): SheetSubmission | null {
  if (!isRecord(v) || typeof v.name !== 'string' || !v.name || (v.sha256 !== null && (typeof v.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(v.sha256)))) return null;
  return { name: v.name, sha256: v.sha256 as string | null };
}

/**
 * Read a `scorecard.json` of `packet grade` onto a card: the automatic rows get their scores and
 * the evidence quoted for them, the caps of matched failure modes are kept, and the judgement
 * rows stay open for the reviewer. It must be a scorecard of this packet id and exact digest (a
 * submission graded against another version is refused, as a sheet would be), graded (not
 * refused at intake), with scores in range on automatic rows of this rubric only.
 */
export function readScorecard(json: Record<string, unknown>, card: ScoringCard): ReadSheetResult {
  if (json.schemaVersion !== SCORECARD_SCHEMA_VERSION) {
    return { ok: false, message: `This scorecard has format version ${String(json.schemaVersion)}; this page reads version ${SCORECARD_SCHEMA_VERSION}. Nothing was changed.` };
  }
  const packet = isRecord(json.packet) ? json.packet : {};
  if (packet.id !== card.id) {
    return { ok: false, message: `This scorecard grades the packet "${String(packet.id)}", not "${card.id}". Open that packet's rubric to read it. Nothing was changed.` };
  }
  if (packet.digest !== card.digest) {
    const version = typeof packet.version === 'string' ? `version ${packet.version}, ` : '';
    const digest = typeof packet.digest === 'string' ? packet.digest.slice(0, 12) : '?';
    return {
      ok: false,
      message: `This scorecard was graded against another version of "${card.id}" (${version}digest ${digest}); this page is version ${card.version}, digest ${card.digest.slice(0, 12)}. Grade it again with the current packet. Nothing was changed.`,
    };
  }
  const submission = submissionOf(json.submission);
  if (!submission) return { ok: false, message: 'This scorecard names no submission (a name and a sha256). Nothing was changed.' };
  if (json.graded !== true) return { ok: false, message: `The submission "${submission.name}" was refused when it was read, so it has no scores to import. Its scorecard.md says why. Nothing was changed.` };
  if (!Array.isArray(json.rows)) return { ok: false, message: 'This scorecard has no rubric rows. Nothing was changed.' };
  const scores: Record<string, number> = {};
  const evidence: Record<string, string> = {};
  const caps: Record<string, { mode: string; max: number }> = {};
  for (const raw of json.rows as unknown[]) {
    if (!isRecord(raw) || typeof raw.id !== 'string') return { ok: false, message: 'This scorecard has a row without an id. Nothing was changed.' };
    const row = card.rubric.rows.find((r) => r.id === raw.id);
    if (!row) return { ok: false, message: `This scorecard scores a row "${raw.id}" that this rubric does not have. Nothing was changed.` };
    if (isRecord(raw.cap) && typeof raw.cap.mode === 'string' && Number.isInteger(raw.cap.max)) caps[row.id] = { mode: raw.cap.mode, max: raw.cap.max as number };
    if (raw.score === null || raw.score === undefined) continue;
    if (!row.auto) return { ok: false, message: `This scorecard scores the judgement row "${row.id}"; only automatic rows come from a scorecard. Nothing was changed.` };
    if (typeof raw.score !== 'number' || !Number.isInteger(raw.score) || raw.score < 0 || raw.score > row.max) {
      return { ok: false, message: `The score of row "${row.id}" is ${JSON.stringify(raw.score)}; it must be a whole number from 0 to ${row.max}. Nothing was changed.` };
    }
    scores[row.id] = raw.score;
    if (typeof raw.evidence === 'string') evidence[row.id] = raw.evidence;
  }
  return { ok: true, scores, candidate: submission.name, reviewer: '', scoredOn: '', notes: {}, date: typeof json.date === 'string' ? json.date : '', submission, evidence, caps, fromScorecard: true };
}

/** Read what a reviewer imports: a scored sheet of this page, or a `scorecard.json` of `packet grade`. */
export function readImport(text: string, card: ScoringCard): ReadSheetResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, message: 'This file is not JSON, so it is neither a scored sheet nor a scorecard. Nothing was changed.' };
  }
  if (isRecord(json) && json.kind === SCORECARD_KIND) return readScorecard(json, card);
  return readScoredSheet(text, card);
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
