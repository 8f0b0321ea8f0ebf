/**
 * The timeline of a round on a scoring page: each step the candidate took, with its time after
 * the first step ("+4:10") and on the clock (UTC), the action, the suggestion or diff it was on,
 * and its detail. The entries come from a candidate's answer sheet (or a scorecard's copy of
 * it), so every one is read by hand: a time that is not a date is shown as unknown, an action
 * the kit does not name is shown as its text, and every text is cut to its limit. Pure.
 */
import { TIMELINE_ACTIONS, TIMELINE_DETAIL_LIMIT, TIMELINE_LIMIT } from '../labs/sheet-read.ts';

/** One step as the page shows it: every field is text for `textContent`. */
export interface TimelineRow {
  /** Time after the first dated step: "+0:00", "+4:10", "+1:02:03"; "?" when the step has no readable time. */
  after: string;
  /** The clock time, UTC: "10:04:10 UTC"; "(no time)" when unreadable. */
  clock: string;
  /** The action, in words when the kit names it, else the text as written. */
  action: string;
  /** The suggestion or diff it was on, or "". */
  id: string;
  /** What the step recorded, or "". */
  detail: string;
}

/** The page's sentence for a sheet that kept no timeline. */
export const NO_TIMELINE = 'This sheet kept no timeline (exported before timelines were kept).';

const ACTION_WORDS: Record<(typeof TIMELINE_ACTIONS)[number], string> = {
  start: 'started',
  accept: 'accepted',
  revise: 'revised',
  reject: 'rejected',
  clear: 'cleared the choice',
  'hand-edit': 'edited by hand',
  'test-run': 'ran the tests',
  verdict: 'gave a verdict',
  'start-over': 'started over',
  'undo-start-over': 'undid the start over',
  restore: 'restored a sheet',
  done: 'handed in',
};

/** Longest id shown (a suggestion or diff id is short; anything longer is cut). */
const ID_LIMIT = 80;
/** Longest action text shown, for an action the kit does not name. */
const ACTION_LIMIT = 40;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const cut = (s: string, limit: number) => (s.length > limit ? `${s.slice(0, limit)}…` : s);

/** A span of milliseconds as "+m:ss", or "+h:mm:ss" from an hour on. */
export function formatAfter(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `+${h}:${String(m).padStart(2, '0')}:${s}` : `+${m}:${s}`;
}

/** A time as "HH:MM:SS UTC". */
export function formatClock(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} UTC`;
}

/** The time of a step, or null when `at` is not a readable date. */
function timeOf(at: unknown): number | null {
  if (typeof at !== 'string' || at.length > 40) return null;
  const ms = Date.parse(at);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * The rows of a timeline, or the sentence to show instead: for no timeline (absent, not a list,
 * or empty) {@link NO_TIMELINE}. At most {@link TIMELINE_LIMIT} steps are shown; a longer list
 * says how many were left out. A step that is not an object is shown as unreadable, never dropped.
 */
export function timelineRows(timeline: unknown): { rows: TimelineRow[]; note: string } {
  if (!Array.isArray(timeline) || timeline.length === 0) return { rows: [], note: NO_TIMELINE };
  const entries = (timeline as unknown[]).slice(0, TIMELINE_LIMIT);
  const first = entries.map((e) => (isRecord(e) ? timeOf(e.at) : null)).find((t): t is number => t !== null);
  const rows = entries.map((e): TimelineRow => {
    if (!isRecord(e)) return { after: '?', clock: '(no time)', action: '(an unreadable step)', id: '', detail: '' };
    const t = timeOf(e.at);
    const action = typeof e.action === 'string' ? e.action : '';
    const known = (TIMELINE_ACTIONS as readonly string[]).includes(action);
    return {
      after: t !== null && first !== undefined ? formatAfter(t - first) : '?',
      clock: t !== null ? formatClock(t) : '(no time)',
      action: known ? ACTION_WORDS[action as (typeof TIMELINE_ACTIONS)[number]] : action ? cut(action, ACTION_LIMIT) : '(no action)',
      id: typeof e.id === 'string' ? cut(e.id, ID_LIMIT) : '',
      detail: typeof e.detail === 'string' ? cut(e.detail, TIMELINE_DETAIL_LIMIT) : '',
    };
  });
  const left = timeline.length - entries.length;
  const span = rows.length > 1 ? rows[rows.length - 1]!.after : '';
  const note = `${rows.length} step${rows.length === 1 ? '' : 's'}${span && span !== '?' ? `, over ${span.slice(1)}` : ''}${left > 0 ? `; ${left} more left out (a sheet keeps at most ${TIMELINE_LIMIT})` : ''}.`;
  return { rows, note };
}
