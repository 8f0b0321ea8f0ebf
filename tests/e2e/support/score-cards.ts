import type { Page } from '@playwright/test';
import { DRILL_SHEET_SUBMISSION, GRADE_SUMMARY_KIND, LAB_SHEET_SUBMISSION, SCORECARD_KIND, SCORECARD_SCHEMA_VERSION, type SheetAnswers } from '../../../src/judge/scorecard-format.ts';
import type { Scorecard } from '../../../src/judge/scorecard.ts';
import type { ScoringCard } from '../../../src/site/scored-sheet.ts';

/**
 * Scorecards of `packet grade` graded from an answer sheet, as the lab and drill scoring pages
 * import them: the usual scorecard.json with `answers` (the SheetAnswers contract of
 * src/judge/scorecard-format.ts). The packet's id, version, digest, rubric rows and items are read
 * from the built page under test, so the fixture is of the site as it was built.
 */

/** What a scoring page was built with: its rubric card and its items (suggestions or diffs). */
export interface BuiltScorePage {
  kind: 'lab' | 'drill';
  card: ScoringCard;
  items: { id: string; title: string; original?: string; offered?: string; revised?: string }[];
}

/** Read the built page's data (the page must be open). */
export async function builtScorePage(page: Page, kind: 'lab' | 'drill'): Promise<BuiltScorePage> {
  const card = JSON.parse((await page.locator('[data-scoring-card]').getAttribute('data-scoring-card'))!) as ScoringCard;
  const data = JSON.parse((await page.locator(`[data-${kind}-scoring]`).getAttribute(`data-${kind}-scoring`))!) as {
    suggestions?: { id: string; ask: string; original: string; offered: string; revised: string }[];
    diffs?: { id: string; title: string }[];
  };
  const items = kind === 'lab' ? data.suggestions!.map((s) => ({ id: s.id, title: s.ask, original: s.original, offered: s.offered, revised: s.revised })) : data.diffs!;
  return { kind, card, items };
}

/** A scorecard graded from a sheet, as packet grade writes it. */
export type SheetScorecardFile = Omit<Scorecard, 'decision' | 'findings' | 'rows'> & {
  findings: { code: string; name: string; kind: string; severity: 'error' | 'warning'; message: string; hint: string }[];
  rows: Scorecard['rows'];
  decision: { state: 'hire' | 'no-hire' | 'pending' | 'not-graded'; reason: string; autoPoints: number; range: { min: number; max: number }; hireBar: number };
  answers: SheetAnswers;
};

export interface CardOptions {
  name: string;
  /** The automatic rows' scores (a row left out has none). */
  scores: Record<string, number>;
  answers: SheetAnswers;
  findings?: SheetScorecardFile['findings'];
  verdict?: Scorecard['verdict'];
  decision?: { state: 'hire' | 'no-hire' | 'pending'; reason: string };
  /** Another packet version than the page's. */
  packet?: { version: string; digest: string };
  /** Another submission kind than the page's. */
  submissionKind?: string;
}

/** A sha256 made of the name, for a fixture only. */
const fakeSha = (name: string) => Buffer.from(name.padEnd(32, '.')).toString('hex').slice(0, 64);

export function sheetScorecard(built: BuiltScorePage, o: CardOptions): SheetScorecardFile {
  const { card } = built;
  const findings = o.findings ?? [];
  return {
    schemaVersion: SCORECARD_SCHEMA_VERSION,
    kind: SCORECARD_KIND,
    kit: { version: '0.0.0-test' },
    packet: { id: card.id, version: o.packet?.version ?? card.version, digest: o.packet?.digest ?? card.digest },
    submission: {
      name: o.name,
      source: `sheets/${o.name}.json`,
      kind: o.submissionKind ?? (built.kind === 'lab' ? LAB_SHEET_SUBMISSION : DRILL_SHEET_SUBMISSION),
      sha256: fakeSha(o.name),
      stripped: null,
      dropped: [],
      stated: { version: card.version, digest: card.digest },
    },
    date: '2026-12-02T01:00:00.000Z',
    sandbox: built.kind === 'lab' ? 'bubblewrap' : null,
    graded: true,
    verdict: o.verdict ?? 'PASS',
    tests: null,
    findings,
    rows: card.rubric.rows.map((r) => ({
      id: r.id,
      criterion: r.id,
      max: r.max,
      auto: r.auto ?? null,
      score: r.auto && o.scores[r.id] !== undefined ? o.scores[r.id]! : null,
      evidence: r.auto && o.scores[r.id] !== undefined ? `From the key: row ${r.id}.` : null,
      cap: null,
      findings: [],
    })),
    decision: { ...(o.decision ?? { state: 'pending', reason: 'the judgement rows are open' }), autoPoints: 0, range: { min: 0, max: 10 }, hireBar: 7 },
    answers: o.answers,
  };
}

/** A batch's summary.json of these scorecards (a row may have none: refused at intake). */
export function gradeSummary(built: BuiltScorePage, rows: { name: string; scorecard?: SheetScorecardFile; verdict: string; decision: string; codes: string[] }[]) {
  return {
    kind: GRADE_SUMMARY_KIND,
    schemaVersion: 1,
    packet: { id: built.card.id, version: built.card.version, digest: built.card.digest },
    rows: rows.map((r) => ({ name: r.name, sha256: r.scorecard ? r.scorecard.submission.sha256 : null, verdict: r.verdict, decision: r.decision, codes: r.codes, ...(r.scorecard ? { scorecard: r.scorecard } : { cardError: 'refused at intake' }) })),
  };
}

/** A file to set on an input. */
export const jsonFile = (name: string, value: unknown) => ({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(value)) });

/** A timeline of a round: start, two choices, a test run, a hand edit, done; times minutes apart. */
export function roundTimeline(ids: readonly string[]): SheetAnswers['timeline'] {
  return [
    { at: '2026-12-01T10:00:00.000Z', action: 'start' },
    { at: '2026-12-01T10:04:10.000Z', action: 'accept', id: ids[0]! },
    { at: '2026-12-01T10:06:00.000Z', action: 'revise', id: ids[1]!, detail: 'asked for the boundary case' },
    { at: '2026-12-01T10:09:30.000Z', action: 'test-run', detail: '3 of 4 visible tests pass' },
    { at: '2026-12-01T10:12:00.000Z', action: 'teleport', detail: 'an action the kit does not name' },
    { at: '2026-12-01T10:31:05.000Z', action: 'done' },
  ];
}

/** A lab's answers: the first suggestion edited by hand, the others as given. */
export function labAnswers(built: BuiltScorePage, who: string | null, extra: Partial<SheetAnswers> = {}): SheetAnswers {
  return {
    kind: 'lab',
    candidate: who,
    exported: '2026-12-01T10:31:05.000Z',
    items: built.items.map((s, i) => ({
      id: s.id,
      title: s.title,
      answer: i === 0 ? 'hand edit' : i === 1 ? 'reject' : 'accept',
      key: i === 1 ? 'revise' : 'accept',
      matches: i > 1,
      reason: `Reason of ${who ?? 'nobody'} for ${s.id}.`,
      keyReason: `The key's reason for ${s.id}.`,
      ...(i === 0 ? { hand: 'HAND-WRITTEN REGION\n  second line', reference: 'THE KEY REFERENCE REGION' } : {}),
    })),
    plan: { endState: 'Every rule holds.', checkpoints: 'one\ntwo\nthree', invariant: 'The visible tests keep passing.', byHand: 'The boundary case.' },
    tests: [
      { id: 'rejects an empty email', hidden: false, outcome: 'pass' },
      { id: 'keeps the min length', hidden: false, outcome: 'pass' },
      { id: 'held: trims the name', hidden: true, outcome: 'fail', message: 'expected "Ada" to be "Ada "' },
    ],
    timeline: roundTimeline(built.items.map((s) => s.id)),
    ...extra,
  };
}

export function drillAnswers(built: BuiltScorePage, who: string | null, extra: Partial<SheetAnswers> = {}): SheetAnswers {
  return {
    kind: 'drill',
    candidate: who,
    exported: '2026-12-01T10:20:00.000Z',
    items: built.items.map((d, i) => ({
      id: d.id,
      title: d.title,
      answer: i === 0 ? 'accept-with-change' : 'reject',
      key: 'reject',
      matches: i > 0,
      reason: `Why ${d.id}.`,
      keyReason: `What ${d.id} breaks.`,
      ...(i === 0 ? { change: 'cap the retries at five' } : {}),
    })),
    tests: [],
    timeline: [],
    ...extra,
  };
}

