import { diagnose } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { GradeErrors } from '../errors/grade-catalog.ts';
import { SCORED_SHEET_KIND, SCORED_SHEET_SCHEMA_VERSION } from '../judge/scorecard-format.ts';
import type { RubricFrontmatter } from '../packets/schema/rubric.ts';

/**
 * One exported scored sheet (the rubric page's export) read for `packet agreement`: who scored
 * (`reviewer`), which submission (its sha256, or for a blank card the candidate's name), and the
 * points per row, checked against the rubric. Hostile input: every bad field is a diagnostic
 * naming the file, the field and the fix, and nothing of a bad sheet is used. Pure.
 */

/** A sheet as `packet agreement` uses it. */
export interface ReviewSheet {
  /** The file it came from, as named to the command. */
  file: string;
  /** Who scored, trimmed. */
  reviewer: string;
  /** What the sheets of one submission share: `sha256:<hex>`, or `candidate:<name>` for a blank card. */
  submission: string;
  /** The submission as people name it: the submission's name, else the candidate's. */
  label: string;
  /** The submission's sha256, when the card started from its scorecard. */
  sha256: string | null;
  /** Points per row id, rows not scored left out. */
  scores: Record<string, number>;
  /** True when every rubric row has a score. */
  complete: boolean;
  /** Scored in blind mode. */
  blind: boolean;
  /** Automatic rows the reviewer overrode. */
  overrides: number;
}

/** The packet a sheet names, read before the rubric is known. */
export interface SheetHead {
  id: string;
  version: string;
  digest: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/**
 * Who a reviewer is, for telling reviewers apart: the name in Unicode compatibility form
 * (a full-width letter is its ASCII one), spacing collapsed, case aside. "Ann  Lee" and
 * "ann lee" are one reviewer; a sheet shows the name as it was typed.
 */
export function reviewerIdentity(name: string): string {
  return name.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Parse a file's text as a scored sheet's head (kind, version, packet); a diagnostic when it is none. */
export function sheetHead(file: string, source: string): { head: SheetHead; json: Record<string, unknown> } | { diagnostic: Diagnostic; notSheet: boolean } {
  let json: unknown;
  try {
    json = JSON.parse(source);
  } catch (err) {
    return { diagnostic: diagnose(GradeErrors.SheetUnreadable, { file }, { reason: `it is not JSON (${(err as Error).message})` }), notSheet: false };
  }
  const bad = (field: string, problem: string, fix: string, notSheet = false) => ({ diagnostic: diagnose(GradeErrors.SheetInvalid, { file }, { field, problem, fix }), notSheet });
  if (!isRecord(json) || json.kind !== SCORED_SHEET_KIND) return bad('kind', `is ${isRecord(json) ? JSON.stringify(json.kind ?? null) : 'missing (the file is not an object)'}, not "${SCORED_SHEET_KIND}"`, 'pass the sheets the rubric page exported, not scorecards or summaries', true);
  if (json.schemaVersion !== SCORED_SHEET_SCHEMA_VERSION) return bad('schemaVersion', `is ${JSON.stringify(json.schemaVersion ?? null)}; this kit reads version ${SCORED_SHEET_SCHEMA_VERSION}`, 'export the card again from the rubric page of this kit');
  if (typeof json.id !== 'string' || !json.id) return bad('id', 'is not a packet id', 'export the card again');
  if (typeof json.digest !== 'string' || !/^[0-9a-f]{64}$/.test(json.digest)) return bad('digest', 'is not the 64 hex digits of a packet version', 'export the card again');
  return { head: { id: json.id, version: typeof json.version === 'string' ? json.version : '?', digest: json.digest }, json };
}

/** Read a sheet whose head is known against the rubric of its packet version. */
export function reviewSheet(file: string, json: Record<string, unknown>, rubric: Pick<RubricFrontmatter, 'rows'>): ReviewSheet | Diagnostic {
  const bad = (field: string, problem: string, fix: string) => diagnose(GradeErrors.SheetInvalid, { file }, { field, problem, fix });
  const reviewer = text(json.reviewer);
  if (!reviewer) return bad('reviewer', 'is missing or empty, so the sheet belongs to no reviewer', 'type the reviewer\'s name on the card and export it again');
  if (!isRecord(json.scores)) return bad('scores', 'is not a map of row ids to points', 'export the card again');
  const scores: Record<string, number> = {};
  for (const [rowId, value] of Object.entries(json.scores)) {
    const row = rubric.rows.find((r) => r.id === rowId);
    if (!row) return bad(`scores.${rowId}`, 'names a row this rubric does not have', `score the rows of this rubric (${rubric.rows.map((r) => r.id).join(', ')})`);
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > row.max) return bad(`scores.${rowId}`, `is ${JSON.stringify(value)}, not a whole number from 0 to ${row.max}`, `score row "${rowId}" from 0 to ${row.max}`);
    scores[rowId] = value;
  }
  if (json.caps !== undefined && !isRecord(json.caps)) return bad('caps', 'is not a map of row ids to caps', 'export the card again');
  for (const [rowId, cap] of Object.entries(json.caps ?? {})) {
    const max = isRecord(cap) ? cap.max : undefined;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 0) return bad(`caps.${rowId}`, 'is not a cap with a whole number `max`', 'export the card again');
    const score = scores[rowId];
    if (score !== undefined && score > max) return bad(`scores.${rowId}`, `is ${score}, above the cap of ${max} the failure mode "${String((cap as Record<string, unknown>).mode)}" put on it`, `score row "${rowId}" from 0 to ${max}, as the rubric page allows`);
  }
  let sha256: string | null = null;
  let name = '';
  if (json.submission !== undefined) {
    const s = json.submission;
    if (!isRecord(s) || typeof s.name !== 'string' || !s.name.trim() || (s.sha256 !== null && (typeof s.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(s.sha256)))) {
      return bad('submission', 'is not a name and a sha256 (64 hex digits, or null)', 'start the card from the submission\'s scorecard.json and export it again');
    }
    sha256 = s.sha256 as string | null;
    name = s.name.trim();
  }
  const candidate = text(json.candidate);
  if (!sha256 && !candidate) return bad('candidate', 'is empty and the sheet names no submission sha256, so it cannot be matched with other reviewers\' sheets of the same work', 'start the card from the submission\'s scorecard.json, or type the candidate\'s name, and export it again');
  if (json.blind !== undefined && typeof json.blind !== 'boolean') return bad('blind', 'is not true or false', 'export the card again');
  if (json.overrides !== undefined && !Array.isArray(json.overrides)) return bad('overrides', 'is not a list of overrides', 'export the card again');
  return {
    file,
    reviewer,
    submission: sha256 ? `sha256:${sha256}` : `candidate:${candidate}`,
    label: name || candidate,
    sha256,
    scores,
    complete: rubric.rows.every((r) => r.id in scores),
    blind: json.blind === true,
    overrides: Array.isArray(json.overrides) ? json.overrides.length : 0,
  };
}
