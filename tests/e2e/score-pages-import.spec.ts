import type { Page } from '@playwright/test';
import { DRILL_SHEET_KIND, LAB_SHEET_KIND, SHEET_SCHEMA_VERSION } from '../../src/labs/sheets.ts';
import { expect, test } from './support/fixtures.ts';
import { reviewerFile } from './support/reviewer.ts';
import { builtScorePage, drillAnswers, gradeSummary, jsonFile, labAnswers, roundTimeline, sheetScorecard } from './support/score-cards.ts';

/**
 * `packet grade` output on the lab and drill scoring pages: a scorecard.json graded from an
 * answer sheet shows the answers beside the key, the hand edits beside the key's version, the
 * plan, the final tests (held out included), the grader's findings and words, and ticks the
 * automatic rows from the card's scores; a batch's summary.json is a queue; a scorecard of
 * another version, of a take-home or of the other kind is refused with a sentence; hostile text
 * stays text; the candidate's timeline is shown, or the sheet is said to have kept none.
 */
const LAB = 'lab-signup-form';
const DRILL = 'drill-retry-backoff';
const cardInput = (page: Page) => page.getByLabel("A scorecard.json or a batch's summary.json");
const status = (page: Page) => page.locator('[data-import-status]');
const candidate = (page: Page) => page.getByLabel('Candidate', { exact: true });
const ticked = (page: Page) => page.locator('[data-scoring-card] input[type="radio"]:checked');
const replaceDialog = (page: Page) => page.getByRole('dialog', { name: 'Replace the card you are scoring?' });

async function openLab(page: Page) {
  await page.goto(`/labs/${LAB}/score/`);
  return builtScorePage(page, 'lab');
}
async function openDrill(page: Page) {
  await page.goto(`/drills/${DRILL}/score/`);
  return builtScorePage(page, 'drill');
}

test('a lab: a scorecard shows the answers beside the key, the hand edit beside the reference, the plan, the final tests, the findings, and ticks the automatic rows', async ({ page }) => {
  const built = await openLab(page);
  const auto = built.card.rubric.rows.filter((r) => r.auto);
  expect(auto.length, 'the lab rubric has automatic rows').toBeGreaterThan(0);
  // As the answers bear them out: a held-out test fails, so the test rows are 0; the choices one below the max.
  const scores = Object.fromEntries(auto.map((r) => [r.id, r.auto === 'choices' ? r.max - 1 : 0]));
  const card = sheetScorecard(built, {
    name: 'kim-lab',
    scores,
    answers: labAnswers(built, 'Kim Lee'),
    verdict: 'CAUGHT',
    decision: { state: 'pending', reason: 'the judgement rows are open' },
    findings: [{ code: 'PK541', name: 'held-out-fails', kind: 'evidence', severity: 'error', message: 'A held-out test fails on the final code.', hint: 'Read the test.' }],
  });
  await cardInput(page).setInputFiles(jsonFile('scorecard.json', card));
  await expect(status(page)).toHaveText(/^Loaded the scorecard of Kim Lee/);
  const rows = page.locator('[data-compare-rows] tr');
  await expect(rows).toHaveCount(built.items.length);
  await expect(rows.nth(0)).toContainText('hand edit');
  await expect(rows.nth(1).locator('td').nth(1)).toHaveText('reject');
  await expect(rows.nth(1).locator('td').nth(2)).toHaveText('revise');
  await expect(rows.nth(1)).toContainText(`The key's reason for ${built.items[1]!.id}.`);
  await expect(rows.nth(1)).toContainText(`Reason of Kim Lee for ${built.items[1]!.id}.`);
  await expect(page.locator('[data-compare-summary]')).toHaveText(`${built.items.length - 2} of ${built.items.length} choices match the key; 1 edited by hand (${built.items[0]!.id}), for you to judge.`);
  const hand = page.locator(`[data-hand-edit="${built.items[0]!.id}"]`);
  await expect(hand.locator('pre').nth(0)).toHaveText('HAND-WRITTEN REGION\n  second line');
  await expect(hand.locator('pre').nth(1)).toHaveText('THE KEY REFERENCE REGION');
  await expect(page.locator('[data-plan-view]')).toContainText('The visible tests keep passing.');
  const tests = page.locator('[data-final-rows] tr');
  await expect(tests).toHaveCount(3);
  await expect(tests.nth(2)).toContainText('held: trims the name');
  await expect(tests.nth(2).locator('td').nth(1)).toHaveText('yes');
  await expect(tests.nth(2).locator('td').nth(2)).toHaveText('fail');
  await expect(page.locator('[data-final-summary]')).toHaveText("2 of 3 tests pass in the judge's run of the final code (1 of them held out).");
  await expect(page.locator('[data-graded-headline]')).toHaveText('CAUGHT, decision so far: pending (the judgement rows are open).');
  await expect(page.locator('[data-graded-findings] li')).toHaveText(['PK541 A held-out test fails on the final code.']);
  for (const r of auto) await expect(page.locator(`[data-row="${r.id}"] input[value="${scores[r.id]}"]`)).toBeChecked();
  await expect(ticked(page)).toHaveCount(auto.length);
  await expect(candidate(page)).toHaveValue('Kim Lee');
  // The timeline: relative and clock times, the action in words, an unknown action as its text.
  const steps = page.locator('[data-timeline-rows] tr');
  await expect(steps).toHaveCount(6);
  await expect(steps.nth(1).locator('td')).toHaveText(['+4:10', '10:04:10 UTC', 'accepted', built.items[0]!.id, '']);
  await expect(steps.nth(2).locator('td').nth(4)).toHaveText('asked for the boundary case');
  await expect(steps.nth(4).locator('td').nth(2)).toHaveText('teleport');
  await expect(steps.nth(5).locator('td').nth(0)).toHaveText('+31:05');
  await expect(page.locator('[data-timeline-note]')).toHaveText('6 steps, over 31:05.');
});

test('a drill: a scorecard shows the verdicts beside the key and ticks the automatic row; a sheet that kept no timeline says so', async ({ page }) => {
  const built = await openDrill(page);
  const auto = built.card.rubric.rows.filter((r) => r.auto);
  const scores = Object.fromEntries(auto.map((r) => [r.id, 1]));
  await cardInput(page).setInputFiles(jsonFile('scorecard.json', sheetScorecard(built, { name: 'hana-drill', scores, answers: drillAnswers(built, null), verdict: 'PASS' })));
  await expect(status(page)).toHaveText(/^Loaded the scorecard of hana-drill/);
  const rows = page.locator('[data-compare-rows] tr');
  await expect(rows).toHaveCount(built.items.length);
  await expect(rows.nth(0).locator('td').nth(0)).toHaveText(built.items[0]!.title);
  await expect(rows.nth(0).locator('td').nth(1)).toHaveText('accept-with-change: cap the retries at five');
  await expect(rows.nth(0).locator('td').nth(1)).toHaveAttribute('data-match', 'no');
  await expect(page.locator('[data-compare-summary]')).toHaveText(`${built.items.length - 1} of ${built.items.length} verdicts match the key. The reasons are yours to judge against what a good reason names.`);
  await expect(page.locator('[data-graded-findings] li')).toHaveText(['No findings.']);
  for (const r of auto) await expect(page.locator(`[data-row="${r.id}"] input[value="1"]`)).toBeChecked();
  await expect(candidate(page)).toHaveValue('hana-drill');
  await expect(page.locator('[data-timeline-note]')).toHaveText('This sheet kept no timeline (exported before timelines were kept).');
  await expect(page.locator('[data-timeline-rows] tr')).toHaveCount(0);
});

test("a batch's summary.json is a queue: the list of the batch, Previous and Next, and a scored card asks before it is replaced", async ({ page }) => {
  const built = await openLab(page);
  const auto = built.card.rubric.rows.filter((r) => r.auto);
  const full = Object.fromEntries(auto.map((r) => [r.id, r.max]));
  const none = Object.fromEntries(auto.map((r) => [r.id, 0]));
  // Full marks, as the answers bear them out: every choice the key's, every test passing.
  const kimAnswers = labAnswers(built, 'Kim Lee');
  kimAnswers.items = kimAnswers.items.map(({ hand: _hand, reference: _reference, ...i }) => ({ ...i, answer: i.key, matches: true }));
  kimAnswers.tests = kimAnswers.tests.map((t) => ({ id: t.id, hidden: t.hidden, outcome: 'pass' }));
  const kim = sheetScorecard(built, { name: 'kim-lab', scores: full, answers: kimAnswers });
  const ola = sheetScorecard(built, { name: 'ola-lab', scores: none, answers: labAnswers(built, 'Ola Nordmann', { timeline: [] }), verdict: 'FALSE-GREEN' });
  const summary = gradeSummary(built, [
    { name: 'kim-lab', scorecard: kim, verdict: 'PASS', decision: 'pending', codes: [] },
    { name: 'bad-lab', verdict: 'REFUSED', decision: 'not-graded', codes: ['PK530'] },
    { name: 'ola-lab', scorecard: ola, verdict: 'FALSE-GREEN', decision: 'no-hire', codes: ['PK541', 'PK542'] },
  ]);
  await cardInput(page).setInputFiles(jsonFile('summary.json', summary));
  const list = page.locator('[data-sheet-queue-rows] tr');
  await expect(list).toHaveCount(3);
  await expect(list.nth(0).locator('td')).toHaveText(['kim-lab', 'PASS', 'pending', 'none', 'ready to score']);
  await expect(list.nth(1).locator('td').nth(3)).toHaveText('PK530');
  await expect(list.nth(1).locator('td').nth(4)).toContainText('cannot be scored');
  await expect(list.nth(2).locator('td').nth(3)).toHaveText('PK541 PK542');
  await expect(list.nth(0)).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('[data-sheet-queue-pos]')).toHaveText('Submission 1 of 3');
  await expect(candidate(page)).toHaveValue('Kim Lee');
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await expect(page.locator('[data-timeline-rows] tr')).toHaveCount(6);

  // Kim's card scored by the reviewer: Next asks first; kept, Kim stays.
  const judgement = built.card.rubric.rows.find((r) => !r.auto)!;
  await page.locator(`[data-row="${judgement.id}"] input[value="1"]`).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(replaceDialog(page)).toBeVisible();
  await replaceDialog(page).getByRole('button', { name: 'Keep it' }).click();
  await expect(candidate(page)).toHaveValue('Kim Lee');
  await expect(page.locator('[data-sheet-queue-pos]')).toHaveText('Submission 1 of 3');
  // Replaced: the refused row is skipped, Ola's clean card opens.
  await page.getByRole('button', { name: 'Next' }).click();
  await replaceDialog(page).getByRole('button', { name: 'Replace the card' }).click();
  await expect(page.locator('[data-sheet-queue-pos]')).toHaveText('Submission 3 of 3');
  await expect(candidate(page)).toHaveValue('Ola Nordmann');
  await expect(page.locator(`[data-row="${judgement.id}"] input:checked`)).toHaveCount(0);
  for (const r of auto) await expect(page.locator(`[data-row="${r.id}"] input[value="0"]`)).toBeChecked();
  await expect(page.locator('[data-timeline-note]')).toHaveText('This sheet kept no timeline (exported before timelines were kept).');
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(candidate(page)).toHaveValue('Kim Lee');
  await expect(page.locator('[data-sheet-queue-pos]')).toHaveText('Submission 1 of 3');
});

test('a scorecard of another version, of a take-home or of the other kind is refused with a sentence, and nothing changes', async ({ page }) => {
  const built = await openLab(page);
  const scores = {};
  await cardInput(page).setInputFiles(jsonFile('old.json', sheetScorecard(built, { name: 'old', scores, answers: labAnswers(built, 'Old'), packet: { version: '0.9.0', digest: 'f'.repeat(64) } })));
  await expect(status(page)).toHaveText(
    `old.json: This scorecard was graded against version 0.9.0 (digest ffffffffffff) of "${LAB}"; this page is version ${built.card.version} (digest ${built.card.digest.slice(0, 12)}). Open the scoring page of version 0.9.0, or grade the sheet again with this version. Nothing was changed.`,
  );
  await expect(status(page)).toHaveAttribute('data-tone', 'error');
  await expect(page.locator('[data-compare]')).toBeHidden();
  await cardInput(page).setInputFiles(jsonFile('take-home.json', sheetScorecard(built, { name: 'th', scores, answers: labAnswers(built, 'T'), submissionKind: 'folder' })));
  await expect(status(page)).toHaveText(`take-home.json: This scorecard grades a take-home submission, not a lab's answer sheet: the packet's rubric page (/packets/${LAB}/rubric/) reads it. Nothing was changed.`);
  await cardInput(page).setInputFiles(jsonFile('drill.json', sheetScorecard(built, { name: 'dr', scores, answers: labAnswers(built, 'D'), submissionKind: 'drill-sheet' })));
  await expect(status(page)).toHaveText(`drill.json: This scorecard grades a drill's answer sheet, not a lab's answer sheet: the drill's scoring page (/drills/${LAB}/score/) reads it. Nothing was changed.`);
  await page.getByLabel("The candidate's answer sheet").setInputFiles({ name: 'huge.json', mimeType: 'application/json', buffer: Buffer.alloc(8 * 1024 * 1024 + 1, 32) });
  await expect(status(page)).toHaveText('The answer sheet: huge.json is 8.0 MB, more than the 8.0 MB this page reads: it is not a file packet-kit wrote. Nothing was changed.');
  const bad = sheetScorecard(built, { name: 'bad', scores, answers: labAnswers(built, 'B') });
  (bad.answers.items[1] as { matches: unknown }).matches = 'yes';
  await cardInput(page).setInputFiles(jsonFile('bad.json', bad));
  await expect(status(page)).toHaveText('bad.json: This scorecard\'s "answers.items[1].matches" is not true or false; grade the sheet again with packet grade. Nothing was changed.');
  await expect(page.locator('[data-compare]')).toBeHidden();
  await expect(ticked(page)).toHaveCount(0);

  const drill = await openDrill(page);
  await cardInput(page).setInputFiles(jsonFile('lab.json', sheetScorecard(drill, { name: 'lb', scores, answers: drillAnswers(drill, 'L'), submissionKind: 'lab-sheet' })));
  await expect(status(page)).toHaveText(`lab.json: This scorecard grades a lab's answer sheet, not a drill's answer sheet: the lab's scoring page (/labs/${DRILL}/score/) reads it. Nothing was changed.`);
});

test('hostile text in a scorecard and in a sheet is shown as text, never as markup', async ({ page }) => {
  const built = await openLab(page);
  const evil = '<img src=x onerror="window.__pwned=1"><b>bold</b>\u202eevil';
  const answers = labAnswers(built, evil);
  answers.items[1]!.reason = evil;
  answers.items[0]!.hand = evil;
  answers.plan!.endState = evil;
  answers.tests[0]!.id = evil;
  answers.timeline = [{ at: '2026-12-01T10:00:00.000Z', action: evil, id: evil, detail: evil }, { at: 'not a date', action: 'accept' }, 'not a step' as never];
  const card = sheetScorecard(built, {
    name: 'evil',
    scores: {},
    answers,
    findings: [{ code: 'PK541', name: 'x', kind: 'evidence', severity: 'error', message: evil, hint: '' }],
  });
  await cardInput(page).setInputFiles(jsonFile('evil.json', card));
  await expect(page.locator('[data-compare]')).toBeVisible();
  await expect(page.locator('.scoring img, .scoring b')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(page.locator('[data-compare-rows] tr').nth(1)).toContainText('<img src=x onerror="window.__pwned=1"><b>bold</b>\\u202eevil');
  await expect(page.locator('[data-graded-findings]')).toContainText('<b>bold</b>\\u202eevil');
  await expect(page.locator('[data-timeline-rows] tr').nth(0)).toContainText('<b>bold</b>');
  await expect(page.locator('[data-timeline-rows] tr').nth(1).locator('td')).toHaveText(['?', '(no time)', 'accepted', '', '']);
  await expect(page.locator('[data-timeline-rows] tr').nth(2).locator('td').nth(2)).toHaveText('(an unreadable step)');
  await expect(page.locator('[data-final-rows]')).toContainText('<img src=x');
});

test('the key and an answer sheet: the sheet\'s timeline is shown, and a sheet exported before timelines says it kept none', async ({ page }) => {
  const built = await openLab(page);
  const keyBytes = reviewerFile(LAB, built.card.version, 'LAB-KEY.json');
  expect(keyBytes, 'the key in the reviewer bundle').toBeDefined();
  const key = JSON.parse(keyBytes!.toString()) as { suggestions: string[]; key: { choice: string }[] };
  const sheet = (timeline?: unknown) => ({
    schemaVersion: SHEET_SCHEMA_VERSION,
    kind: LAB_SHEET_KIND,
    id: LAB,
    version: built.card.version,
    digest: built.card.digest,
    date: '2026-12-01T10:31:05.000Z',
    candidate: 'Kim',
    plan: { endState: 'e', checkpoints: 'c', invariant: 'i', byHand: 'b' },
    suggestions: key.suggestions.map((id, i) => ({ id, choice: key.key[i]!.choice, reason: `Why ${id}.` })),
    ...(timeline ? { timeline } : {}),
  });
  await page.getByLabel("The lab's key (LAB-KEY.json)").setInputFiles({ name: 'LAB-KEY.json', mimeType: 'application/json', buffer: keyBytes! });
  // A sheet's reader refuses an action the page never records, so the sheet keeps only the page's own.
  await page.getByLabel("The candidate's answer sheet").setInputFiles(jsonFile('kim.json', sheet(roundTimeline(key.suggestions).filter((e) => e.action !== 'teleport'))));
  await expect(page.locator('[data-timeline-rows] tr')).toHaveCount(5);
  await expect(page.locator('[data-timeline-rows] tr').nth(3).locator('td')).toHaveText(['+9:30', '10:09:30 UTC', 'ran the tests', '', '3 of 4 visible tests pass']);
  await expect(page.locator('[data-graded]')).toBeHidden();
  await page.getByLabel("The candidate's answer sheet").setInputFiles(jsonFile('old.json', sheet()));
  await expect(page.locator('[data-timeline-note]')).toHaveText('This sheet kept no timeline (exported before timelines were kept).');
  await expect(page.locator('[data-timeline-rows] tr')).toHaveCount(0);

  // A drill sheet too.
  const drill = await openDrill(page);
  const drillKey = reviewerFile(DRILL, drill.card.version, 'DRILL-KEY.json')!;
  const dk = JSON.parse(drillKey.toString()) as { key: { id: string; verdict: string }[] };
  await page.getByLabel("The drill's key (DRILL-KEY.json)").setInputFiles({ name: 'DRILL-KEY.json', mimeType: 'application/json', buffer: drillKey });
  const drillSheet = {
    schemaVersion: SHEET_SCHEMA_VERSION,
    kind: DRILL_SHEET_KIND,
    id: DRILL,
    version: drill.card.version,
    digest: drill.card.digest,
    date: '2026-12-01T10:20:00.000Z',
    diffs: dk.key.map((k) => ({ id: k.id, verdict: k.verdict, reason: 'r' })),
    timeline: [
      { at: '2026-12-01T10:00:00.000Z', action: 'start' },
      { at: '2026-12-01T10:02:03.000Z', action: 'verdict', id: dk.key[0]!.id, detail: 'reject' },
    ],
  };
  await page.getByLabel("The candidate's answer sheet").setInputFiles(jsonFile('d.json', drillSheet));
  await expect(page.locator('[data-timeline-rows] tr').nth(1).locator('td')).toHaveText(['+2:03', '10:02:03 UTC', 'gave a verdict', dk.key[0]!.id, 'reject']);
});
