import { diagnose } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { GradeErrors } from '../errors/grade-catalog.ts';
import { CALIBRATION_KEY_KIND } from '../judge/scorecard-format.ts';
import type { RubricFrontmatter } from '../packets/schema/rubric.ts';

/**
 * The calibration key of `packet calibrate`: the anonymous submissions of a packet's sample and
 * mutants with the decision each should get, and the rows the key is sure of. Read for `packet
 * agreement --key FILE`, checked against the packet version the sheets score. Pure.
 */

/** One submission of the key. */
export interface KeySubmission {
  name: string;
  sha256: string;
  source: string;
  expected: { decision: 'hire' | 'no-hire'; reason: string; scores: Record<string, number> };
}

/** A key, as read. */
export interface CalibrationKey {
  packet: { id: string; version: string; digest: string };
  submissions: KeySubmission[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Read a key's text for this packet version and rubric. */
export function readCalibrationKey(file: string, source: string, packet: { id: string; digest: string }, rubric: Pick<RubricFrontmatter, 'rows'>): CalibrationKey | Diagnostic {
  const bad = (field: string, problem: string) => diagnose(GradeErrors.CalibrationKeyInvalid, { file }, { field, problem });
  let json: unknown;
  try {
    json = JSON.parse(source);
  } catch {
    return bad('(file)', 'is not JSON');
  }
  if (!isRecord(json) || json.kind !== CALIBRATION_KEY_KIND) return bad('kind', `is not "${CALIBRATION_KEY_KIND}"`);
  if (json.schemaVersion !== 1) return bad('schemaVersion', `is ${JSON.stringify(json.schemaVersion ?? null)}; this kit reads version 1`);
  const p = isRecord(json.packet) ? json.packet : {};
  if (p.id !== packet.id || p.digest !== packet.digest) return bad('packet', `names ${JSON.stringify(p.id ?? null)} at digest ${String(p.digest ?? '?').slice(0, 12)}, not the version the sheets score ("${packet.id}" at ${packet.digest.slice(0, 12)})`);
  if (!Array.isArray(json.submissions)) return bad('submissions', 'is not a list');
  const submissions: KeySubmission[] = [];
  for (const [i, s] of (json.submissions as unknown[]).entries()) {
    const at = `submissions[${i}]`;
    if (!isRecord(s) || typeof s.name !== 'string' || !s.name || typeof s.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(s.sha256)) return bad(at, 'has no name and sha256 (64 hex digits)');
    const e = isRecord(s.expected) ? s.expected : {};
    if (e.decision !== 'hire' && e.decision !== 'no-hire') return bad(`${at}.expected.decision`, 'is not "hire" or "no-hire"');
    const scores: Record<string, number> = {};
    for (const [rowId, v] of Object.entries(isRecord(e.scores) ? e.scores : {})) {
      const row = rubric.rows.find((r) => r.id === rowId);
      if (!row || typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > row.max) return bad(`${at}.expected.scores.${rowId}`, 'is not a row of this rubric with a whole score in range');
      scores[rowId] = v;
    }
    submissions.push({ name: s.name, sha256: s.sha256, source: typeof s.source === 'string' ? s.source : '', expected: { decision: e.decision, reason: typeof e.reason === 'string' ? e.reason : '', scores } });
  }
  return { packet: { id: packet.id, version: typeof p.version === 'string' ? p.version : '', digest: packet.digest }, submissions };
}
