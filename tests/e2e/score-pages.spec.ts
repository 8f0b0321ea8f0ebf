import type { Page } from '@playwright/test';
import { DRILL_SHEET_KIND, LAB_SHEET_KIND, SHEET_SCHEMA_VERSION } from '../../src/labs/sheets.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { publicDrills, publicPackets } from './support/packets.ts';
import { reviewerFile } from './support/reviewer.ts';

/**
 * The lab and drill scoring pages as a reviewer with several candidates uses them: each answer
 * sheet starts a clean card (no tick, note or name of the previous candidate stays, the automatic
 * "Every test passes" included), and loading a sheet over a card the reviewer has scored asks
 * first; kept, the card and its scores stay as they were.
 */
const file = (name: string, value: unknown) => ({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(value)) });
const ticked = (page: Page) => page.locator('[data-scoring-card] input[type="radio"]:checked');
const replaceDialog = (page: Page) => page.getByRole('dialog', { name: 'Replace the card you are scoring?' });
const candidate = (page: Page) => page.getByLabel('Candidate', { exact: true });

test('a lab: the next sheet starts a clean card, and replacing a scored card asks first', async ({ page }) => {
  const lab = (await publicPackets()).find((p) => p.id === 'lab-signup-form')!;
  const keyBytes = reviewerFile(lab.id, lab.prompt.version, 'LAB-KEY.json');
  expect(keyBytes, 'the key in the reviewer bundle').toBeDefined();
  const key = JSON.parse(keyBytes!.toString()) as { suggestions: string[]; key: { choice: string }[] };
  const sheet = (who: string | undefined, hand?: string) => ({
    schemaVersion: SHEET_SCHEMA_VERSION,
    kind: LAB_SHEET_KIND,
    id: lab.id,
    version: lab.prompt.version,
    digest: lab.digest,
    date: '2026-12-01T10:00:00.000Z',
    ...(who ? { candidate: who } : {}),
    plan: { endState: 'every rule holds', checkpoints: 'the tests', invariant: 'none', byHand: 'nothing' },
    suggestions: key.suggestions.map((id, i) => ({ id, choice: key.key[i]!.choice, reason: `Why ${id}.`, ...(hand === id ? { hand: '# checked by hand\n' } : {}) })),
  });

  await page.goto(`/labs/${lab.id}/score/`);
  await page.getByLabel("The lab's key (LAB-KEY.json)").setInputFiles({ name: 'LAB-KEY.json', mimeType: 'application/json', buffer: keyBytes! });
  const sheetInput = page.getByLabel("The candidate's answer sheet");
  await sheetInput.setInputFiles(file('kim.json', sheet('Kim')));
  await expect(page.locator('[data-row="final-tests"] input[value="2"]')).toBeChecked();
  await expect(page.locator('[data-row="choices"] input[value="3"]')).toBeChecked();
  await page.locator('[data-row="reasons"] input[value="3"]').check();
  await page.locator('[data-row="plan"] input[value="2"]').check();
  await page.locator('[data-note="reasons"]').fill('Kim names every rule.');
  await expect(page.locator('[data-decision]')).toHaveAttribute('data-decision', 'hire');

  // Hana's sheet over Kim's scored card: the page asks; kept, Kim's card stays whole.
  const hana = sheet('Hana', key.suggestions[0]);
  await sheetInput.setInputFiles(file('hana.json', hana));
  await expect(replaceDialog(page)).toBeVisible();
  await expect(replaceDialog(page)).toContainText('your scores for Kim');
  expect(await seriousViolations(page)).toEqual([]);
  await replaceDialog(page).getByRole('button', { name: 'Keep it' }).click();
  await expect(replaceDialog(page)).toBeHidden();
  await expect(page.locator('[data-import-status]')).toHaveText('Kept the card of Kim; hana.json was not loaded.');
  await expect(candidate(page)).toHaveValue('Kim');
  await expect(ticked(page)).toHaveCount(4);
  await expect(page.locator('[data-note="reasons"]')).toHaveValue('Kim names every rule.');

  // Replaced: a clean card for Hana. Her hand edit leaves both automatic rows to the reviewer, so nothing is ticked.
  await sheetInput.setInputFiles(file('hana.json', hana));
  await replaceDialog(page).getByRole('button', { name: 'Replace the card' }).click();
  await expect(page.locator('[data-compare-summary]')).toContainText('edited by hand');
  await expect(candidate(page)).toHaveValue('Hana');
  await expect(ticked(page)).toHaveCount(0);
  await expect(page.locator('[data-row="final-tests"] input[value="2"]')).not.toBeChecked();
  await expect(page.locator('[data-note="reasons"]')).toHaveValue('');
  await expect(page.locator('[data-decision]')).toHaveAttribute('data-decision', 'pending');

  // A sheet without a name does not inherit Hana's; a card holding only the automatic ticks is replaced without a question.
  await sheetInput.setInputFiles(file('anonymous.json', sheet(undefined)));
  await expect(replaceDialog(page)).toBeHidden();
  await expect(page.locator('[data-compare-summary]')).toHaveText('4 of 4 choices match the key.');
  await expect(candidate(page)).toHaveValue('');
  await expect(ticked(page)).toHaveCount(2);
  await sheetInput.setInputFiles(file('kim.json', sheet('Kim')));
  await expect(candidate(page)).toHaveValue('Kim');
  await expect(replaceDialog(page)).toBeHidden();
  await expect(ticked(page)).toHaveCount(2);
});

test('a drill: the next sheet starts a clean card, and replacing a scored card asks first', async ({ page }) => {
  const drill = (await publicDrills()).find((d) => d.id === 'drill-retry-backoff')!;
  const keyBytes = reviewerFile(drill.id, drill.prompt.version, 'DRILL-KEY.json');
  expect(keyBytes, 'the key in the reviewer bundle').toBeDefined();
  const key = JSON.parse(keyBytes!.toString()) as { key: { id: string; verdict: string; change?: string }[] };
  const sheet = (who: string | undefined, right: boolean) => ({
    schemaVersion: SHEET_SCHEMA_VERSION,
    kind: DRILL_SHEET_KIND,
    id: drill.id,
    version: drill.prompt.version,
    digest: drill.digest,
    date: '2026-12-01T10:00:00.000Z',
    ...(who ? { candidate: who } : {}),
    diffs: key.key.map((k) => ({ id: k.id, verdict: right ? k.verdict : 'accept', reason: `Why ${k.id}.`, ...(right && k.change ? { change: k.change } : {}) })),
  });

  await page.goto(`/drills/${drill.id}/score/`);
  await page.getByLabel("The drill's key (DRILL-KEY.json)").setInputFiles({ name: 'DRILL-KEY.json', mimeType: 'application/json', buffer: keyBytes! });
  const sheetInput = page.getByLabel("The candidate's answer sheet");
  await sheetInput.setInputFiles(file('kim.json', sheet('Kim', true)));
  await expect(page.locator('[data-row="verdicts"] input[value="3"]')).toBeChecked();
  await page.locator('[data-row="consequences"] input[value="3"]').check();
  await page.locator('[data-row="changes"] input[value="2"]').check();
  await expect(page.locator('[data-decision]')).toHaveAttribute('data-decision', 'hire');

  await sheetInput.setInputFiles(file('hana.json', sheet(undefined, false)));
  await expect(replaceDialog(page)).toBeVisible();
  await replaceDialog(page).getByRole('button', { name: 'Replace the card' }).click();
  await expect(page.locator('[data-compare-summary]')).toHaveText(/^\d of 5 verdicts match the key\./);
  await expect(candidate(page)).toHaveValue('');
  await expect(page.locator('[data-row="consequences"] input:checked')).toHaveCount(0);
  await expect(page.locator('[data-row="changes"] input:checked')).toHaveCount(0);
  await expect(page.locator('[data-row="verdicts"] input[value="3"]')).not.toBeChecked();
  await expect(ticked(page)).toHaveCount(1);
  // Every wrong verdict puts the automatic row at or under its veto: no-hire already, from Hana's own sheet.
  await expect(page.locator('[data-decision]')).toHaveAttribute('data-decision', 'no-hire');
  await expect(page.locator('[data-decision-text]')).toContainText('veto on verdicts');
});
