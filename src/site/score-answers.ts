/**
 * A `scorecard.json` of `packet grade` graded from a lab's or a drill's answer sheet, read onto
 * the kind's scoring page, and a batch's `summary.json` as a queue of them. The rows, findings,
 * verdict and decision are read as the rubric page reads them (`readScorecard`); the answers
 * beside the key (`answers`, {@link SheetAnswers}) are read here, field by field: the file has
 * been in other hands, so every field is type-checked, every list and text is capped, and a
 * scorecard of another packet, version or kind is refused with a sentence. Pure.
 */
import { DRILL_SHEET_SUBMISSION, GRADE_SUMMARY_KIND, LAB_SHEET_SUBMISSION, SCORECARD_KIND, type SheetAnswers } from '../judge/scorecard-format.ts';
import { choicesScore } from '../labs/score.ts';
import { TIMELINE_LIMIT } from '../labs/sheet-read.ts';
import { readGradeSummary } from './grade-queue.ts';
import { readScorecard, type ReadSheetResult, type ScoringCard } from './scored-sheet.ts';

/** The scoring page a scorecard is read onto. */
export interface ScorePageTarget {
  kind: 'lab' | 'drill';
  card: ScoringCard;
  /** The suggestion (lab) or diff (drill) ids, in the packet's order. */
  items: readonly string[];
}

/** A scorecard read onto a scoring page: the card's rows and the grader's evidence, and the answers. */
export interface SheetScorecard {
  card: Extract<ReadSheetResult, { ok: true }>;
  answers: SheetAnswers;
  /** A lab with variants: the card's `variant.id` as packet grade wrote it (candidate-reachable text: shown as text, cut). */
  variant?: string;
}

export type ReadSheetScorecardResult = { ok: true; value: SheetScorecard } | { ok: false; message: string };

/** One submission of a batch on a scoring page. */
export interface SheetQueueItem {
  name: string;
  verdict: string;
  decision: string;
  codes: string[];
  card: ReadSheetScorecardResult;
  /** The row's variant: its scorecard's `variant.id` when it has one, else the row's `variant`; absent when neither is text. */
  variant?: string;
}

/** Longest text kept of a reason, a title or a message; longer is cut with "…". */
export const TEXT_LIMIT = 4000;
/** Longest hand edit or reference region kept. */
export const REGION_LIMIT = 100_000;
/** Most tests a scorecard's answers may list. */
export const TESTS_LIMIT = 2000;

/** Largest key or answer sheet the page reads, in bytes. */
export const SHEET_FILE_LIMIT = 8 * 1024 * 1024;
/** Largest scorecard.json or summary.json the page reads, in bytes. */
export const CARD_FILE_LIMIT = 32 * 1024 * 1024;

/** The refusal of a file over its limit, before it is read, or null when it fits. */
export function tooLarge(name: string, size: number, limit: number): string | null {
  if (size <= limit) return null;
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${name} is ${mb(size)}, more than the ${mb(limit)} this page reads: it is not a file packet-kit wrote. Nothing was changed.`;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const cut = (s: string, limit: number) => (s.length > limit ? `${s.slice(0, limit)}…` : s);

class Refusal extends Error {}

const SUBMISSION_OF: Record<ScorePageTarget['kind'], string> = { lab: LAB_SHEET_SUBMISSION, drill: DRILL_SHEET_SUBMISSION };

/** The page that reads a scorecard of this submission kind, in words. */
function pageFor(submissionKind: string, id: string): string {
  if (submissionKind === LAB_SHEET_SUBMISSION) return `the lab's scoring page (/labs/${id}/score/)`;
  if (submissionKind === DRILL_SHEET_SUBMISSION) return `the drill's scoring page (/drills/${id}/score/)`;
  return `the packet's rubric page (/packets/${id}/rubric/)`;
}

/** Read the `answers` of a scorecard by hand; throws a {@link Refusal} naming the field. */
function readAnswers(v: unknown, target: ScorePageTarget): SheetAnswers {
  const no = (field: string, what: string): never => {
    throw new Refusal(`This scorecard's "answers.${field}" ${what}; grade the sheet again with packet grade. Nothing was changed.`);
  };
  if (!isRecord(v)) {
    throw new Refusal('This scorecard has no "answers" (a scorecard graded from an answer sheet carries them beside the key); grade the sheet again with packet grade. Nothing was changed.');
  }
  const str = (o: Record<string, unknown>, key: string, field: string, limit = TEXT_LIMIT): string => (typeof o[key] === 'string' ? cut(o[key] as string, limit) : no(field, 'is not a text'));
  // An optional text written as null is read as absent.
  const optStr = (o: Record<string, unknown>, key: string, field: string, limit = TEXT_LIMIT): string | undefined => (o[key] === undefined || o[key] === null ? undefined : str(o, key, field, limit));
  if (v.kind !== target.kind) no('kind', `is ${JSON.stringify(v.kind)}, not "${target.kind}"`);
  if (v.candidate !== null && typeof v.candidate !== 'string') no('candidate', 'is neither a name nor null');
  const candidate = typeof v.candidate === 'string' ? cut(v.candidate, 200) : null;
  const exported = str(v, 'exported', 'exported', 100);
  if (!Array.isArray(v.items)) no('items', 'is not a list');
  const items = (v.items as unknown[]).map((raw, i): SheetAnswers['items'][number] => {
    const f = `items[${i}]`;
    if (!isRecord(raw)) return no(f, 'is not an object');
    if (raw.answer !== null && typeof raw.answer !== 'string') no(`${f}.answer`, 'is neither a text nor null');
    if (typeof raw.matches !== 'boolean') no(`${f}.matches`, 'is not true or false');
    const hand = optStr(raw, 'hand', `${f}.hand`, REGION_LIMIT);
    const reference = optStr(raw, 'reference', `${f}.reference`, REGION_LIMIT);
    const change = optStr(raw, 'change', `${f}.change`);
    return {
      id: str(raw, 'id', `${f}.id`, 200),
      title: str(raw, 'title', `${f}.title`),
      answer: typeof raw.answer === 'string' ? cut(raw.answer, 200) : null,
      key: str(raw, 'key', `${f}.key`, 200),
      matches: raw.matches as boolean,
      reason: str(raw, 'reason', `${f}.reason`),
      keyReason: str(raw, 'keyReason', `${f}.keyReason`),
      ...(hand !== undefined ? { hand } : {}),
      ...(reference !== undefined ? { reference } : {}),
      ...(change !== undefined ? { change } : {}),
    };
  });
  const ids = items.map((i) => i.id);
  if (ids.length !== target.items.length || ids.some((id, i) => id !== target.items[i])) {
    no('items', `names ${ids.length ? ids.join(', ') : 'nothing'}; this ${target.kind} has ${target.items.join(', ')}, in that order`);
  }
  let plan: SheetAnswers['plan'];
  if (v.plan !== undefined) {
    if (!isRecord(v.plan)) no('plan', 'is not an object');
    const p = v.plan as Record<string, unknown>;
    plan = { endState: str(p, 'endState', 'plan.endState'), checkpoints: str(p, 'checkpoints', 'plan.checkpoints'), invariant: str(p, 'invariant', 'plan.invariant'), byHand: str(p, 'byHand', 'plan.byHand') };
  }
  if (!Array.isArray(v.tests)) no('tests', 'is not a list');
  if ((v.tests as unknown[]).length > TESTS_LIMIT) no('tests', `lists ${(v.tests as unknown[]).length} tests, more than ${TESTS_LIMIT}`);
  const tests = (v.tests as unknown[]).map((raw, i): SheetAnswers['tests'][number] => {
    const f = `tests[${i}]`;
    if (!isRecord(raw)) return no(f, 'is not an object');
    if (typeof raw.hidden !== 'boolean') no(`${f}.hidden`, 'is not true or false');
    const message = optStr(raw, 'message', `${f}.message`);
    return { id: str(raw, 'id', `${f}.id`, 400), hidden: raw.hidden as boolean, outcome: str(raw, 'outcome', `${f}.outcome`, 40), ...(message !== undefined ? { message } : {}) };
  });
  if (!Array.isArray(v.timeline)) no('timeline', 'is not a list (an empty list when the sheet kept none)');
  if ((v.timeline as unknown[]).length > TIMELINE_LIMIT) no('timeline', `has ${(v.timeline as unknown[]).length} steps, more than ${TIMELINE_LIMIT}`);
  // The steps are read by the timeline's own display, one by one (an odd step is shown as such).
  const timeline = v.timeline as SheetAnswers['timeline'];
  return { kind: target.kind, candidate, exported, items, ...(plan ? { plan } : {}), tests, timeline };
}

/** The tests an automatic test row is scored from. */
const TEST_ROWS: Record<string, (t: SheetAnswers['tests'][number]) => boolean> = { tests: () => true, 'visible-tests': (t) => !t.hidden, 'hidden-tests': (t) => t.hidden };

/**
 * The answers must bear out the rows the page ticks: a match is an answer that is the key's (an
 * open answer or a hand edit never is), the `choices` row scores no more than its matches (every
 * hand edit counted right) give, and a test row scores only when the tests it is scored from are
 * listed and every one passed. A file edited to tick more than its answers earn is refused.
 */
function agrees(answers: SheetAnswers, scores: Readonly<Record<string, number>>, target: ScorePageTarget): void {
  const no = (field: string, what: string): never => {
    throw new Refusal(`This scorecard's "${field}" ${what}, which its answers do not bear out; grade the sheet again with packet grade. Nothing was changed.`);
  };
  // Only a lab's region can be edited by hand; a drill's answer is a verdict.
  const hand = (i: SheetAnswers['items'][number]) => target.kind === 'lab' && (i.hand !== undefined || i.answer === 'hand edit');
  answers.items.forEach((i, n) => {
    const matches = !hand(i) && i.answer !== null && i.answer === i.key;
    if (i.matches !== matches) no(`answers.items[${n}].matches`, `is ${i.matches} for the answer ${JSON.stringify(i.answer)} against the key ${JSON.stringify(i.key)}`);
  });
  const total = answers.items.length;
  const best = answers.items.filter((i) => i.matches || hand(i)).length;
  for (const row of target.card.rubric.rows) {
    const score = scores[row.id];
    if (score === undefined || !row.auto) continue;
    if (row.auto === 'choices' && score > choicesScore(row.max, best, total)) no(`rows.${row.id}.score`, `is ${score}, yet ${best} of ${total} answers match the key or are edited by hand, worth at most ${choicesScore(row.max, best, total)}`);
    const of = TEST_ROWS[row.auto];
    if (of && score > 0) {
      const tests = answers.tests.filter(of);
      const bad = tests.find((t) => t.outcome !== 'pass');
      if (!tests.length) no(`rows.${row.id}.score`, `is ${score}, yet the answers list no test it is scored from`);
      if (bad) no(`rows.${row.id}.score`, `is ${score}, yet the answers list the test ${cut(bad.id, 200)} as ${cut(bad.outcome, 40)}`);
    }
  }
}

/**
 * Read a scorecard.json (parsed) onto a lab's or drill's scoring page. Refused: not a scorecard;
 * a scorecard of another packet or another version (the sentence names both versions); one of a
 * take-home or of the other kind (the sentence names the page that reads it); rows this rubric
 * does not have; answers that are missing or malformed.
 */
export function readSheetScorecard(json: unknown, target: ScorePageTarget): ReadSheetScorecardResult {
  const { card } = target;
  if (!isRecord(json) || json.kind !== SCORECARD_KIND) return { ok: false, message: `This file is not a scorecard.json of packet grade (its "kind" is not "${SCORECARD_KIND}"). Nothing was changed.` };
  const packet = isRecord(json.packet) ? json.packet : {};
  if (packet.id === card.id && (packet.digest !== card.digest || packet.version !== card.version)) {
    const version = typeof packet.version === 'string' ? cut(packet.version, 40) : 'an unnamed version';
    const digest = typeof packet.digest === 'string' ? packet.digest.slice(0, 12) : '?';
    return {
      ok: false,
      message: `This scorecard was graded against version ${version} (digest ${digest}) of "${card.id}"; this page is version ${card.version} (digest ${card.digest.slice(0, 12)}). Open the scoring page of version ${version}, or grade the sheet again with this version. Nothing was changed.`,
    };
  }
  const submission = isRecord(json.submission) ? json.submission : {};
  const kind = typeof submission.kind === 'string' ? submission.kind : '';
  if (kind !== SUBMISSION_OF[target.kind]) {
    const what = kind === LAB_SHEET_SUBMISSION ? "a lab's answer sheet" : kind === DRILL_SHEET_SUBMISSION ? "a drill's answer sheet" : 'a take-home submission';
    const id = typeof packet.id === 'string' ? cut(packet.id, 80) : card.id;
    return { ok: false, message: `This scorecard grades ${what}, not a ${target.kind}'s answer sheet: ${pageFor(kind, id)} reads it. Nothing was changed.` };
  }
  const read = readScorecard(json, card);
  if (!read.ok) return read;
  try {
    const answers = readAnswers(json.answers, target);
    agrees(answers, read.scores, target);
    const candidate = answers.candidate?.trim() || read.candidate;
    const variant = variantIdOf(json.variant);
    return { ok: true, value: { card: { ...read, candidate }, answers, ...(variant !== undefined ? { variant } : {}) } };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, message: e.message };
    throw e;
  }
}

/** A scorecard's `variant` (`{ id, ... }`) or a summary row's (`"v2"` or `{ id }`) as text, cut to 40 characters; undefined when it names none. */
export function variantIdOf(v: unknown): string | undefined {
  const id = isRecord(v) ? v.id : v;
  return typeof id === 'string' && id !== '' ? cut(id, 40) : undefined;
}

/** True when the JSON is a summary.json of `packet grade`. */
export const isSummary = (json: unknown): boolean => isRecord(json) && json.kind === GRADE_SUMMARY_KIND;

/**
 * Read a batch's summary.json onto the page: refused as the rubric page refuses it (another
 * packet or version, no rows); each row's scorecard is read by {@link readSheetScorecard} (a row
 * whose scorecard cannot be read stays in the list, with the reason).
 */
export function readSheetSummary(json: Record<string, unknown>, target: ScorePageTarget): { ok: true; items: SheetQueueItem[] } | { ok: false; message: string } {
  const read = readGradeSummary(json, target.card);
  if (!read.ok) return read;
  const rows = json.rows as unknown[];
  return {
    ok: true,
    items: read.items.map((item, i) => {
      const row = rows[i] as Record<string, unknown>;
      const card: ReadSheetScorecardResult = isRecord(row.scorecard) ? readSheetScorecard(row.scorecard, target) : { ok: false, message: item.card.ok ? 'no scorecard' : item.card.message };
      // A row's words are the scorecard's when it carries one: a summary edited to say PASS or hire beside a card that does not is not believed.
      const grader = card.ok ? card.value.card.graderEvidence : undefined;
      const verdict = grader ? grader.verdict : item.verdict;
      const decision = grader ? grader.decision.state : item.decision;
      // The variant is the scorecard's too, when it carries one.
      const variant = card.ok ? card.value.variant : variantIdOf(row.variant);
      return { name: cut(item.name, 200), verdict: cut(verdict, 40), decision: cut(decision, 200), codes: item.codes.slice(0, 50).map((c) => cut(c, 20)), card, ...(variant !== undefined ? { variant } : {}) };
    }),
  };
}
