import { readFile } from 'node:fs/promises';
import type { PublicDrill } from '../../src/packets/public-drill.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { publicDrills } from './support/packets.ts';
import { reviewerFile } from './support/reviewer.ts';

/** A drill, as a candidate answers it and a reviewer scores it against the key from the reviewer bundle. */
let drills: PublicDrill[];
test.beforeAll(async () => {
  drills = await publicDrills();
});

test('a candidate reviews every diff and exports; the reviewer scores the verdicts against the key', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const drill = drills.find((d) => d.id === 'drill-retry-backoff')!;
  await page.goto(`/drills/${drill.id}/`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(drill.prompt.title);
  await expect(page.locator('article[data-diff]')).toHaveCount(drill.diffs.length);

  const verdicts: Record<string, string> = {
    'retry-read-timeouts': 'Reject',
    'full-jitter': 'Accept',
    'sleep-in-async': 'Reject',
    'test-attempts': 'Accept with a change',
    'retry-after': 'Reject',
  };
  for (const [i, d] of drill.diffs.entries()) {
    await page.getByRole('group', { name: `Your verdict on diff ${i + 1}` }).getByLabel(verdicts[d.id]!, { exact: true }).check();
  }
  // A verdict that asks for a change needs the change.
  await expect(page.locator('[data-change-field="test-attempts"]')).toBeVisible();
  await page.getByRole('button', { name: 'Export answer sheet (JSON)' }).click();
  await expect(page.locator('[data-sheet-status]')).toHaveText(/^Not exported yet: give a reason for/);
  for (const d of drill.diffs) await page.locator(`[data-reason="${d.id}"]`).fill(`Reason for ${d.id}: what would happen in production.`);
  await page.locator('[data-change="test-attempts"]').fill('Use assertRaises on the last attempt.');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export answer sheet (JSON)' }).click()]);
  const file = testInfo.outputPath('drill.json');
  await download.saveAs(file);
  const sheet = JSON.parse(await readFile(file, 'utf8'));
  expect(sheet).toMatchObject({ kind: 'packet-kit/drill-answer-sheet', id: drill.id, version: drill.prompt.version, digest: drill.digest });
  expect(sheet.diffs[3]).toMatchObject({ id: 'test-attempts', verdict: 'accept-with-change', change: 'Use assertRaises on the last attempt.' });

  // Autosave.
  await page.reload();
  await expect(page.getByRole('group', { name: 'Your verdict on diff 2' }).getByLabel('Accept', { exact: true })).toBeChecked();

  const key = reviewerFile(drill.id, drill.prompt.version, 'DRILL-KEY.json');
  test.skip(!key, 'the site under test was built without reviewer bundles');
  await page.goto(`/drills/${drill.id}/score/`);
  await page.getByLabel("The drill's key (DRILL-KEY.json)").setInputFiles({ name: 'DRILL-KEY.json', mimeType: 'application/json', buffer: key! });
  await page.getByLabel("The candidate's answer sheet").setInputFiles(file);
  // Four of five verdicts match (retry-after asks for a change, not a rejection).
  await expect(page.locator('[data-compare-summary]')).toHaveText(/^4 of 5 verdicts match the key\./);
  await expect(page.locator('[data-compare-rows] tr')).toHaveCount(5);
  await expect(page.locator('[data-row="verdicts"] input[value="2"]')).toBeChecked();
  await expect(page.locator('[data-compare-rows]')).toContainText('charges the customer again');
  expect(await seriousViolations(page)).toEqual([]);
});

test('the drill page works from the keyboard and axe finds no serious violation', async ({ page }) => {
  // axe checks the contrast of every highlighted token of the diffs: its own time budget.
  test.setTimeout(90_000);
  const drill = drills[0]!;
  await page.goto(`/drills/${drill.id}/`);
  const first = page.getByRole('group', { name: 'Your verdict on diff 1' }).getByLabel('Accept', { exact: true });
  await first.focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('group', { name: 'Your verdict on diff 1' }).getByLabel('Accept with a change')).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(page.locator(`[data-reason="${drill.diffs[0]!.id}"]`)).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the drill still reads: the brief and every diff with its context', async ({ page }) => {
    const drill = drills[0]!;
    await page.goto(`/drills/${drill.id}/`);
    await expect(page.locator('[data-no-script]')).toBeVisible();
    for (const d of drill.diffs) {
      await expect(page.locator(`[data-diff="${d.id}"]`)).toContainText(d.title);
      await expect(page.locator(`[data-diff="${d.id}"] pre.astro-code`)).toBeVisible();
    }
  });
});
