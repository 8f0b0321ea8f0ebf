import { readFile } from 'node:fs/promises';
import type { Page, TestInfo } from '@playwright/test';
import type { PublicPacket } from '../../src/packets/public.ts';
import { expect, test } from './support/fixtures.ts';
import { publicVariant } from './support/packets.ts';
import { variantKeyFile } from './support/reviewer.ts';

/**
 * A lab with variants against what a candidate can do in one browser and to the sheet they send
 * (docs/variants.md): one variant's autosave never reaches another variant's page, nor does its
 * exported sheet open there; and the scoring page refuses a sheet whose `variant` is not the
 * variant its digest is, as `packet grade` does (PK582, PK581, PK563).
 */
const LAB = 'lab-paginate-results';
let v1: PublicPacket;
let v2: PublicPacket;
let v3: PublicPacket;
test.beforeAll(async () => {
  [v1, v2, v3] = await Promise.all([publicVariant(LAB, 1), publicVariant(LAB, 2), publicVariant(LAB, 3)]);
});

const limitOf = (p: PublicPacket) => /^MAX_PER_PAGE = (\d+)$/m.exec(p.starter.find((f) => f.path === 'pagination.py')!.text!)![1]!;
const group = (page: Page, suggestion: string) => page.getByRole('group', { name: `Your choice on ${suggestion}` });
const editorLine = (page: Page, text: string) => page.locator('[data-editor="pagination.py"] :is(.cm-line, pre[data-code-view] .line)', { hasText: text });
const KEY_CHOICES: Record<string, string> = {
  'page-count': 'Push back: take the revision',
  bounds: 'Accept as offered',
  slice: 'Accept as offered',
  'bigger-pages': 'Reject: keep the code as it is',
};

/** Answer every suggestion as the key does, with reasons and a name, on the page open now. */
async function answer(page: Page): Promise<void> {
  for (const [id, label] of Object.entries(KEY_CHOICES)) {
    await group(page, id).getByLabel(label).check();
    await page.locator(`[data-reason="${id}"]`).fill(`because ${id}`);
  }
  await page.getByLabel('Your name (goes on the answer sheet)').fill('Ada');
}

/** Export the page's answer sheet into the test's output folder. */
async function exportSheet(page: Page, testInfo: TestInfo, name: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export answer sheet (JSON)' }).click()]);
  const file = testInfo.outputPath(name);
  await download.saveAs(file);
  return file;
}

test("one variant's autosave and sheet never reach another variant's page", async ({ page }, testInfo) => {
  const [own, other] = [limitOf(v1), limitOf(v2)];
  await page.goto(`/labs/${LAB}/`);
  // Choices, reasons, a name and a hand edit of v1's limit, autosaved as they are made.
  await answer(page);
  await page.locator('[data-editor="pagination.py"]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await editorLine(page, `MAX_PER_PAGE = ${own}`).click();
  await expect(page.locator('[data-editor="pagination.py"] .cm-content')).toBeFocused();
  await page.keyboard.press('End');
  await page.keyboard.insertText('  # by hand');
  await expect(page.locator('[data-suggestion="bigger-pages"] [data-hand-note]')).toBeVisible();
  const v1Sheet = await exportSheet(page, testInfo, 'v1.json');
  const sheet = JSON.parse(await readFile(v1Sheet, 'utf8'));
  expect(sheet).toMatchObject({ digest: v1.variant!.digest, variant: 'v1' });
  expect(sheet.suggestions.find((s: { id: string }) => s.id === 'bigger-pages').hand).toContain(`MAX_PER_PAGE = ${own}  # by hand`);

  await page.goto(`/labs/${LAB}/v2/`);
  await expect(page.locator('[data-variant]')).toHaveAttribute('data-variant', 'v2');
  // Nothing of v1's is restored: no choice, no reason, no name, v2's own code.
  await expect(page.locator('main')).not.toContainText('Your saved answers for this version were restored');
  await expect(page.locator('input[type="radio"]:checked')).toHaveCount(0);
  await expect(page.locator('[data-reason="bounds"]')).toHaveValue('');
  await expect(page.getByLabel('Your name (goes on the answer sheet)')).toHaveValue('');
  await expect(page.locator('[data-editor="pagination.py"]')).toContainText(`MAX_PER_PAGE = ${other}`);
  await expect(page.locator('[data-editor="pagination.py"]')).not.toContainText('# by hand');
  // v1's sheet does not open on v2's page: it names the digests, and nothing changes.
  await page.getByLabel('Open a saved sheet').setInputFiles(v1Sheet);
  await expect(page.locator('main')).toContainText(`digest ${v1.variant!.digest.slice(0, 12)}); this page is version ${v2.prompt.version}, digest ${v2.variant!.digest.slice(0, 12)}. Nothing was changed.`);
  await expect(page.locator('input[type="radio"]:checked')).toHaveCount(0);
  await expect(page.locator('[data-editor="pagination.py"]')).not.toContainText('# by hand');
  // Back on v1, its own answers are there.
  await page.goto(`/labs/${LAB}/`);
  await expect(page.locator('main')).toContainText('Your saved answers for this version were restored');
  await expect(page.locator('[data-editor="pagination.py"]')).toContainText('# by hand');
});

test("the scoring page refuses a sheet whose variant is not its digest's, and loads the page's own export", async ({ page }, testInfo) => {
  await page.goto(`/labs/${LAB}/v3/`);
  await answer(page);
  const exported = await exportSheet(page, testInfo, 'v3.json');
  const sheet = JSON.parse(await readFile(exported, 'utf8'));
  expect(sheet).toMatchObject({ digest: v3.variant!.digest, variant: 'v3' });
  const key = variantKeyFile(LAB, v3.prompt.version, 'v3');
  test.skip(!key, 'the site under test was built without reviewer bundles');
  await page.goto(`/labs/${LAB}/score/`);
  const status = page.locator('[data-import-status]');
  await page.getByLabel("The lab's key (LAB-KEY.json)").setInputFiles({ name: 'LAB-KEY.json', mimeType: 'application/json', buffer: key! });
  await expect(status).toHaveText('Loaded LAB-KEY.json; now load the answer sheet.');
  const edited: [unknown, string, string][] = [
    ['v1', `the sheet's "variant" is v1 and its digest is variant v3's`, 'PK582'],
    ['V3', `the sheet's "variant" is V3 and its digest is variant v3's`, 'PK581'],
    [3, `the sheet's "variant" is a number, not a variant's id such as "v3"`, 'PK563'],
  ];
  for (const [variant, said, code] of edited) {
    await page.getByLabel("The candidate's answer sheet").setInputFiles({ name: 'edited.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ ...sheet, variant })) });
    await expect(status).toHaveText(`The answer sheet: ${said}. A lab page writes the variant it shows, so the sheet was changed after it was exported, and packet grade refuses it too (${code}): ask the candidate for the sheet as the page exported it. Nothing was loaded.`);
    await expect(status).toHaveAttribute('data-tone', 'error');
    await expect(page.locator('[data-compare-summary]')).toBeEmpty();
  }
  // The sheet as its page exported it, and without a `variant` (the digest decides): both read as v3's, beside v3's key.
  const { variant: _v, ...noVariant } = sheet;
  for (const [name, buffer] of [['v3.json', Buffer.from(JSON.stringify(sheet))], ['no-variant.json', Buffer.from(JSON.stringify(noVariant))]] as const) {
    await page.getByLabel("The candidate's answer sheet").setInputFiles({ name, mimeType: 'application/json', buffer });
    await expect(status).toHaveText(`Loaded ${name}. The key and the answer sheet are shown side by side; the card below starts clean, with the automatic rows ticked.`);
    await expect(page.locator('[data-compare-summary]')).toHaveText('4 of 4 choices match the key.');
  }
});
