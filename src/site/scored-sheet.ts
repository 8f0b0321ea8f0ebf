import { decide, type Decision, type RowScores } from '../judge/score.ts';
import { DRILL_SHEET_SUBMISSION, GRADE_SUMMARY_KIND, LAB_SHEET_SUBMISSION, SCORECARD_KIND, SCORECARD_SCHEMA_VERSION, SCORED_SHEET_KIND, SCORED_SHEET_SCHEMA_VERSION } from '../judge/scorecard-format.ts';
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
  /** The rubric's rows, hire bar and vetoes, and how several reviewers' sheets combine. */
  rubric: Pick<RubricFrontmatter, 'rows' | 'hireBar' | 'vetoes'> & { combine?: RubricFrontmatter['combine'] };
}

/** The card of a packet as a content collection holds it (a take-home, a lab or a drill). */
export function scoringCardOf(packet: { id: string; digest: string; prompt: { version: string }; rubric: ScoringCard['rubric'] }): ScoringCard {
  const { rows, hireBar, vetoes, combine } = packet.rubric;
  return { id: packet.id, version: packet.prompt.version, digest: packet.digest, rubric: { rows, hireBar, vetoes, ...(combine ? { combine } : {}) } };
}

/** An automatic row's score changed by the reviewer from what the scorecard gave it. */
export interface SheetOverride {
  /** The row id. */
  row: string;
  /** The scorecard's score. */
  from: number;
  /** The reviewer's. */
  to: number;
  /** Why, in the reviewer's words. */
  reason: string;
  /** Who changed it (the card's reviewer). */
  reviewer: string;
  /** When, ISO 8601. */
  at: string;
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
  /** Automatic rows the reviewer scored otherwise than the scorecard, each with its reason (their evidence then reads "overridden ..."). */
  overrides?: SheetOverride[];
  /** True when the card was scored in blind mode (the candidate's name and other reviewers' scores hidden until it was exported). */
  blind?: boolean;
  /** The scorecard's verdict (`PASS`, `CAUGHT`, ...), when the card started from one. */
  verdict?: string;
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
  overrides?: readonly SheetOverride[];
  blind?: boolean;
  verdict?: string;
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
  const overrides = card.rubric.rows.flatMap((row) => (extra.overrides ?? []).filter((o) => o.row === row.id && o.to === scores[row.id] && o.from !== o.to).slice(-1).map((o) => ({ ...o })));
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
    ...(extra.evidence && Object.keys(extra.evidence).length ? { evidence: evidenceWithOverrides(extra.evidence, overrides) } : {}),
    ...(extra.caps && Object.keys(extra.caps).length ? { caps: { ...extra.caps } } : {}),
    ...(overrides.length ? { overrides } : {}),
    ...(extra.blind ? { blind: true } : {}),
    ...(extra.verdict ? { verdict: extra.verdict } : {}),
    date: extra.date.toISOString(),
  };
}

/** How an overridden row's evidence reads in a sheet: it says so first, then quotes what the scorecard said. */
const OVERRIDDEN = 'overridden from ';
const SCORECARD_SAID = '; the scorecard said: ';

function evidenceWithOverrides(evidence: Readonly<Record<string, string>>, overrides: readonly SheetOverride[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [row, text] of Object.entries(evidence)) {
    const o = overrides.find((x) => x.row === row);
    out[row] = o ? `${OVERRIDDEN}${o.from} to ${o.to} by ${o.reviewer || 'the reviewer'} (${o.reason})${SCORECARD_SAID}${text}` : text;
  }
  return out;
}

/** The scorecard's own evidence of a row, from a sheet's (which says "overridden ..." first for an overridden row). */
export function scorecardEvidence(text: string): string {
  if (!text.startsWith(OVERRIDDEN)) return text;
  const at = text.indexOf(SCORECARD_SAID);
  return at === -1 ? text : text.slice(at + SCORECARD_SAID.length);
}

/**
 * The file name of an exported sheet: the packet version, the candidate (else the submission's
 * name) and the reviewer, so the sheets of a batch, and the sheets of several reviewers of one
 * submission gathered in one folder, never share a name and never replace one another.
 */
export function scoredSheetFileName(sheet: Pick<ScoredSheet, 'id' | 'version' | 'candidate' | 'reviewer'> & { submission?: Pick<SheetSubmission, 'name'> | undefined }): string {
  const slug = (text: string | undefined) => (text ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40);
  const who = slug(sheet.candidate) || slug(sheet.submission?.name);
  const by = slug(sheet.reviewer);
  return `${sheet.id}-${sheet.version}-scored${who ? `-${who}` : ''}${by ? `-by-${by}` : ''}.json`;
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
      /** The automatic rows' overrides the sheet records. */
      overrides: SheetOverride[];
      /** The sheet was scored blind. */
      blind: boolean;
      /** The scorecard's verdict, when there was one. */
      verdict: string;
      /** What the grader found, when this was a scorecard (a sheet does not carry it). */
      graderEvidence?: GraderEvidence;
    }
  | { ok: false; message: string };

/** A grader's finding as the page shows it. */
export interface CardFinding {
  code: string;
  severity: 'error' | 'warning';
  message: string;
  hint: string;
  file?: string;
  line?: number;
}

/** What a scorecard of `packet grade` says beyond the scores: the verdict, the decision so far, the findings and the rows they bear on. */
export interface GraderEvidence {
  verdict: string;
  /** The decision so far, as scorecard.md states it. */
  decision: { state: string; reason: string };
  findings: CardFinding[];
  /** Indexes into `findings` per row id (`rows[i].findings`); findings on no row are the card's own. */
  rowFindings: Record<string, number[]>;
}

/** The scorecard's headline, word for word as scorecard.md opens (without its bold). */
export function decisionHeadline(e: Pick<GraderEvidence, 'verdict' | 'decision'>): string {
  return `${e.verdict}, decision so far: ${e.decision.state} (${e.decision.reason}).`;
}

/** Indexes of the findings no row claims: the card's own. */
export function cardOwnFindings(e: Pick<GraderEvidence, 'findings' | 'rowFindings'>): number[] {
  const claimed = new Set(Object.values(e.rowFindings).flat());
  return e.findings.map((_, i) => i).filter((i) => !claimed.has(i));
}

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
  const overrides: SheetOverride[] = [];
  if (json.overrides !== undefined) {
    if (!Array.isArray(json.overrides)) return { ok: false, message: 'This sheet\'s "overrides" is not a list. Nothing was changed.' };
    for (const o of json.overrides as unknown[]) {
      const row = isRecord(o) ? card.rubric.rows.find((r) => r.id === o.row && r.auto) : undefined;
      const whole = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= (row?.max ?? -1);
      if (!isRecord(o) || !row || !whole(o.from) || !whole(o.to) || typeof o.reason !== 'string' || typeof o.reviewer !== 'string' || typeof o.at !== 'string') {
        return { ok: false, message: 'This sheet has an override that is not an automatic row of this rubric with "from", "to" (whole scores in range), "reason", "reviewer" and "at". Nothing was changed.' };
      }
      overrides.push({ row: row.id, from: o.from as number, to: o.to as number, reason: o.reason, reviewer: o.reviewer, at: o.at });
    }
  }
  for (const o of overrides) if (evidence[o.row] !== undefined) evidence[o.row] = scorecardEvidence(evidence[o.row]!);
  const asText = (v: unknown) => (typeof v === 'string' ? v : '');
  const scoredOn = asText(json.scoredOn);
  return {
    ok: true,
    overrides,
    blind: json.blind === true,
    verdict: asText(json.verdict),
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
  const findings: CardFinding[] = (Array.isArray(json.findings) ? (json.findings as unknown[]) : []).filter(isRecord).map((f) => ({
    code: typeof f.code === 'string' ? f.code : '?',
    severity: f.severity === 'warning' ? 'warning' : 'error',
    message: typeof f.message === 'string' ? f.message : '',
    hint: typeof f.hint === 'string' ? f.hint : '',
    ...(typeof f.file === 'string' ? { file: f.file } : {}),
    ...(Number.isInteger(f.line) ? { line: f.line as number } : {}),
  }));
  const rowFindings: Record<string, number[]> = {};
  for (const raw of json.rows as unknown[]) {
    if (isRecord(raw) && typeof raw.id === 'string' && Array.isArray(raw.findings)) {
      rowFindings[raw.id] = (raw.findings as unknown[]).filter((i): i is number => Number.isInteger(i) && (i as number) >= 0 && (i as number) < findings.length);
    }
  }
  const decision = isRecord(json.decision) && typeof json.decision.state === 'string' && typeof json.decision.reason === 'string' ? { state: json.decision.state, reason: json.decision.reason } : { state: 'pending', reason: 'the scorecard states no decision' };
  const verdict = typeof json.verdict === 'string' ? json.verdict : '';
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
  return {
    ok: true,
    scores,
    candidate: submission.name,
    reviewer: '',
    scoredOn: '',
    notes: {},
    date: typeof json.date === 'string' ? json.date : '',
    submission,
    evidence,
    caps,
    fromScorecard: true,
    overrides: [],
    blind: false,
    verdict,
    graderEvidence: { verdict, decision, findings, rowFindings },
  };
}

/** An answer sheet graded by `packet grade`: the kind of round, the packet id, and whether it is a batch. */
export interface SheetGraded {
  kind: 'lab' | 'drill';
  id: string;
  batch: boolean;
}

/** The round a scorecard's `submission.kind` names, when it was graded from an answer sheet. */
const sheetKindOf = (v: unknown): 'lab' | 'drill' | null => {
  const kind = isRecord(v) && isRecord(v.submission) ? v.submission.kind : undefined;
  return kind === LAB_SHEET_SUBMISSION ? 'lab' : kind === DRILL_SHEET_SUBMISSION ? 'drill' : null;
};

/**
 * Whether a file is a `scorecard.json`, or a batch's `summary.json`, of answer sheets (a lab's or a
 * drill's, by `submission.kind`): its answers are shown only on the kind's scoring page, so the
 * rubric form alone must not take it.
 */
export function sheetGraded(json: unknown): SheetGraded | null {
  if (!isRecord(json)) return null;
  const id = isRecord(json.packet) && typeof json.packet.id === 'string' ? json.packet.id.slice(0, 100) : '';
  if (json.kind === SCORECARD_KIND) {
    const kind = sheetKindOf(json);
    return kind ? { kind, id, batch: false } : null;
  }
  if (json.kind === GRADE_SUMMARY_KIND && Array.isArray(json.rows)) {
    for (const row of json.rows as unknown[]) {
      const kind = isRecord(row) ? sheetKindOf(row.scorecard) : null;
      if (kind) return { kind, id, batch: true };
    }
  }
  return null;
}

/** The path of the scoring page of a lab's or a drill's answer sheets. */
export function sheetScoringPath(graded: Pick<SheetGraded, 'kind' | 'id'>): string {
  return `/${graded.kind}s/${encodeURIComponent(graded.id)}/score/`;
}

/** The refusal of the take-home rubric page for a scorecard or a batch of answer sheets: it names the page that shows their answers. */
export function sheetGradedRefusal(graded: SheetGraded): string {
  const what = graded.batch ? "This summary.json is a batch of answer sheets" : 'This scorecard.json grades an answer sheet';
  return `${what} of the ${graded.kind} "${graded.id}": this page cannot show its answers beside the key. Import it on the ${graded.kind}'s scoring page, ${sheetScoringPath(graded)}, which shows every answer, the key and the timeline. Nothing was changed.`;
}

/** Read what a reviewer imports: a scored sheet of this page, or a `scorecard.json` of `packet grade`. */
export function readImport(text: string, card: ScoringCard): ReadSheetResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, message: 'This file is not JSON, so it is neither a scored sheet nor a scorecard. Nothing was changed.' };
  }
  const graded = sheetGraded(json);
  if (graded) return { ok: false, message: sheetGradedRefusal(graded) };
  if (isRecord(json) && json.kind === SCORECARD_KIND) return readScorecard(json, card);
  return readScoredSheet(text, card);
}

/** Where the browser kept the card being scored before drafts were per submission: one per packet version (read once, then moved). */
export function draftKey(card: Pick<ScoringCard, 'id' | 'digest'>): string {
  return `packet-kit:scoring:${card.id}:${card.digest}`;
}

/**
 * The draft a card belongs to: the submission's sha256, or for a card of no graded submission the
 * candidate's name as typed (case and spaces aside); `null` while it names neither.
 */
export function draftIdOf(sheet: { submission?: SheetSubmission | undefined; candidate?: string | undefined }): string | null {
  if (sheet.submission?.sha256) return `sha256:${sheet.submission.sha256}`;
  const name = (sheet.candidate ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
  return name ? `candidate:${name}` : null;
}

/** The label blind mode shows instead of a candidate's name: from the sha256, which says nothing of who sent it. */
export function blindLabel(sha256: string | null | undefined): string {
  return sha256 ? `Submission ${sha256.slice(0, 8)}` : 'A submission';
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
