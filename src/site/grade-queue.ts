import { GRADE_SUMMARY_KIND } from '../judge/scorecard-format.ts';
import { readScorecard, type ReadSheetResult, type ScoringCard } from './scored-sheet.ts';

/**
 * A batch of `packet grade` (its summary.json) as a queue on the rubric page: one item per
 * submission, in the summary's order, each with the scorecard it imports from. Pure.
 */

/** One submission of the batch. */
export interface QueueItem {
  name: string;
  sha256: string | null;
  verdict: string;
  /** The decision so far, the summary's word. */
  decision: string;
  /** The finding codes of its scorecard. */
  codes: string[];
  /** The scorecard read onto this card, or why it cannot be (refused at intake, not written). */
  card: ReadSheetResult;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** True when the JSON is a summary.json of `packet grade`. */
export function isGradeSummary(json: unknown): json is Record<string, unknown> {
  return isRecord(json) && json.kind === GRADE_SUMMARY_KIND;
}

/**
 * Read a summary.json onto a card: it must be of this packet id and digest, with a row per
 * submission; each row's scorecard is read as a scorecard.json would be (a row without one stays
 * in the list, marked, and cannot be opened).
 */
export function readGradeSummary(json: Record<string, unknown>, card: ScoringCard): { ok: true; items: QueueItem[] } | { ok: false; message: string } {
  const packet = isRecord(json.packet) ? json.packet : {};
  if (packet.id !== card.id) return { ok: false, message: `This summary.json grades the packet "${String(packet.id)}", not "${card.id}". Open that packet's rubric to read it. Nothing was changed.` };
  if (packet.digest !== card.digest) {
    const version = typeof packet.version === 'string' ? `version ${packet.version}, ` : '';
    const digest = typeof packet.digest === 'string' ? packet.digest.slice(0, 12) : '?';
    return { ok: false, message: `This summary.json was graded against another version of "${card.id}" (${version}digest ${digest}); this page is version ${card.version}, digest ${card.digest.slice(0, 12)}. Grade the batch again with the current packet. Nothing was changed.` };
  }
  if (!Array.isArray(json.rows) || json.rows.length === 0) return { ok: false, message: 'This summary.json has no submissions ("rows"). Nothing was changed.' };
  const items: QueueItem[] = [];
  for (const [i, row] of (json.rows as unknown[]).entries()) {
    if (!isRecord(row) || typeof row.name !== 'string') return { ok: false, message: `Row ${i + 1} of this summary.json has no submission name. Nothing was changed.` };
    const text = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);
    const cardResult: ReadSheetResult = isRecord(row.scorecard)
      ? readScorecard(row.scorecard, card)
      : { ok: false, message: `The scorecard of "${row.name}" is not in this summary.json${typeof row.cardError === 'string' ? ` (${row.cardError})` : ''}; grade it again to score it here.` };
    items.push({
      name: row.name,
      sha256: typeof row.sha256 === 'string' && /^[0-9a-f]{64}$/.test(row.sha256) ? row.sha256 : null,
      verdict: text(row.verdict, '?'),
      decision: text(row.decision, '?'),
      codes: Array.isArray(row.codes) ? row.codes.filter((c): c is string => typeof c === 'string') : [],
      card: cardResult,
    });
  }
  return { ok: true, items };
}
