import type { Page } from '@playwright/test';
import { LAB_SHEET_KIND, SHEET_SCHEMA_VERSION } from '../../src/labs/sheets.ts';
import { expect, test } from './support/fixtures.ts';
import { reviewerFile } from './support/reviewer.ts';
import { builtScorePage, gradeSummary, jsonFile, labAnswers, sheetScorecard } from './support/score-cards.ts';

/**
 * Grader output and answer sheets edited to score better than they earn, on the lab's scoring
 * page: a scorecard that says PASS and hire and ticks every automatic row at its max while its own
 * answers list a failing held-out test; a summary.json whose row says PASS and hire beside a card
 * that says otherwise; a sheet that takes every suggestion as offered, one of them typed out by hand.
 */
const LAB = 'lab-signup-form';
const cardInput = (page: Page) => page.getByLabel("A scorecard.json or a batch's summary.json");
const status = (page: Page) => page.locator('[data-import-status]');
const ticked = (page: Page) => page.locator('[data-scoring-card] input[type="radio"]:checked');

async function openLab(page: Page) {
  await page.goto(`/labs/${LAB}/score/`);
  return builtScorePage(page, 'lab');
}

test('a scorecard that ticks every automatic row at its max while its answers list a failing test is refused, and nothing is ticked', async ({ page }) => {
  const built = await openLab(page);
  const auto = built.card.rubric.rows.filter((r) => r.auto);
  const full = Object.fromEntries(auto.map((r) => [r.id, r.max]));
  const forged = sheetScorecard(built, { name: 'eve-lab', scores: full, answers: labAnswers(built, 'Eve'), verdict: 'PASS', decision: { state: 'hire', reason: 'forged' } });
  await cardInput(page).setInputFiles(jsonFile('scorecard.json', forged));
  await expect(status(page)).toHaveText(/^scorecard\.json: This scorecard's "(rows\.[a-z-]+\.score)" is \d+, yet .*which its answers do not bear out; grade the sheet again with packet grade\. Nothing was changed\.$/);
  await expect(status(page)).toHaveAttribute('data-tone', 'error');
  await expect(ticked(page)).toHaveCount(0);
});

test("a summary row's PASS and hire beside a card that says otherwise are not shown: the queue shows the card's words", async ({ page }) => {
  const built = await openLab(page);
  const auto = built.card.rubric.rows.filter((r) => r.auto);
  const none = Object.fromEntries(auto.map((r) => [r.id, 0]));
  const card = sheetScorecard(built, { name: 'eve-lab', scores: none, answers: labAnswers(built, 'Eve'), verdict: 'CAUGHT', decision: { state: 'no-hire', reason: 'veto on choices' } });
  await cardInput(page).setInputFiles(jsonFile('summary.json', gradeSummary(built, [{ name: 'eve-lab', scorecard: card, verdict: 'PASS', decision: 'hire', codes: [] }])));
  await expect(page.locator('[data-sheet-queue-rows] tr').nth(0).locator('td')).toHaveText(['eve-lab', 'CAUGHT', 'no-hire', 'none', 'ready to score']);
});

test('the key and a sheet: a hand edit that types out the offered version word for word is read as accept', async ({ page }) => {
  const built = await openLab(page);
  const keyBytes = reviewerFile(LAB, built.card.version, 'LAB-KEY.json');
  expect(keyBytes, 'the key in the reviewer bundle').toBeDefined();
  const key = JSON.parse(keyBytes!.toString()) as { suggestions: string[]; key: { choice: string }[] };
  const sheet = {
    schemaVersion: SHEET_SCHEMA_VERSION,
    kind: LAB_SHEET_KIND,
    id: LAB,
    version: built.card.version,
    digest: built.card.digest,
    date: '2026-12-01T10:31:05.000Z',
    candidate: 'Eve',
    plan: { endState: 'e', checkpoints: 'c', invariant: 'i', byHand: 'b' },
    suggestions: key.suggestions.map((id, i) => ({ id, choice: 'accept', ...(i === 0 ? { hand: built.items[0]!.offered!.replace(/\n/g, '\r\n') } : {}), reason: `Why ${id}.` })),
  };
  await page.getByLabel("The lab's key (LAB-KEY.json)").setInputFiles({ name: 'LAB-KEY.json', mimeType: 'application/json', buffer: keyBytes! });
  await page.getByLabel("The candidate's answer sheet").setInputFiles(jsonFile('eve.json', sheet));
  const first = page.locator('[data-compare-rows] tr').nth(0).locator('td').nth(1);
  await expect(first).toHaveText('accept');
  await expect(first).toHaveAttribute('data-match', key.key[0]!.choice === 'accept' ? 'yes' : 'no');
  await expect(page.locator('[data-hand-edit]')).toHaveCount(0);
  const choices = built.card.rubric.rows.find((r) => r.auto === 'choices')!;
  await expect(page.locator(`[data-row="${choices.id}"] input:checked`)).toHaveCount(1);
});
