import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { builtScorePage, drillAnswers, gradeSummary, jsonFile, labAnswers, sheetScorecard, type BuiltScorePage } from './support/score-cards.ts';

/**
 * A scorecard of `packet grade` graded from an answer sheet (`submission.kind` lab-sheet or
 * drill-sheet) carries answers only the kind's scoring page shows. The take-home rubric page
 * refuses it, naming that page, and ticks nothing; on a scoring page the rubric form's own import
 * hands it to the page's scorecard import, which shows the answers beside the key.
 */
const LAB = 'lab-free-time';
const DRILL = 'drill-retry-backoff';

const formImport = (page: Page) => page.locator('[data-scoring-card] input[data-import]');
const formStatus = (page: Page) => page.locator('[data-scoring-card] [data-sheet-status]');

async function built(page: Page, kind: 'lab' | 'drill'): Promise<BuiltScorePage> {
  await page.goto(`/${kind}s/${kind === 'lab' ? LAB : DRILL}/score/`);
  return builtScorePage(page, kind);
}

const cardOf = (b: BuiltScorePage, name: string) => {
  const auto = b.card.rubric.rows.filter((r) => r.auto);
  // Automatic rows at 0, which any answers bear out (the scoring page refuses rows its answers do not).
  return sheetScorecard(b, { name, scores: Object.fromEntries(auto.map((r) => [r.id, 0])), answers: b.kind === 'lab' ? labAnswers(b, 'Ada') : drillAnswers(b, 'Ada') });
};

test("the take-home rubric page refuses a lab sheet's scorecard and its batch, naming the lab's scoring page, and ticks nothing", async ({ page }) => {
  const lab = await built(page, 'lab');
  const card = cardOf(lab, 'ada');
  await page.goto(`/packets/${LAB}/rubric/`);
  await formImport(page).setInputFiles(jsonFile('scorecard.json', card));
  await expect(formStatus(page)).toHaveText(
    `This scorecard.json grades an answer sheet of the lab "${LAB}": this page cannot show its answers beside the key. Import it on the lab's scoring page, /labs/${LAB}/score/, which shows every answer, the key and the timeline. Nothing was changed.`,
  );
  await expect(page.locator('[data-scoring-card] input[type="radio"]:checked')).toHaveCount(0);
  await expect(page.getByLabel('Candidate', { exact: true })).toHaveValue('');

  await formImport(page).setInputFiles(jsonFile('summary.json', gradeSummary(lab, [{ name: 'ada', scorecard: card, verdict: 'PASS', decision: 'pending', codes: [] }])));
  await expect(formStatus(page)).toHaveText(new RegExp(`^This summary\\.json is a batch of answer sheets of the lab "${LAB}".* /labs/${LAB}/score/,`));
  await expect(page.locator('[data-scoring-card] input[type="radio"]:checked')).toHaveCount(0);
  await expect(page.locator('[data-queue-panel]')).toBeHidden();
});

for (const kind of ['lab', 'drill'] as const) {
  test(`on the ${kind}'s scoring page, the rubric form's own import hands a sheet's scorecard to the page's import, which shows the answers`, async ({ page }) => {
    const b = await built(page, kind);
    await formImport(page).setInputFiles(jsonFile('scorecard.json', cardOf(b, 'ada')));
    await expect(formStatus(page)).toHaveText(/^scorecard\.json holds graded answer sheets, so it went to this page's own import/);
    await expect(page.locator('[data-import-status]')).toHaveText(/^Loaded the scorecard of /);
    await expect(page.locator('[data-compare-summary]')).toHaveText(new RegExp(`of ${b.items.length} (choices|verdicts) match the key`));
    await expect(page.getByLabel('Candidate', { exact: true })).toHaveValue('Ada');
  });
}
