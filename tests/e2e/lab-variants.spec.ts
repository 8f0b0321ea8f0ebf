import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { PublicPacket } from '../../src/packets/public.ts';
import { expect, test } from './support/fixtures.ts';
import { publicVariant } from './support/packets.ts';
import { reviewerFile } from './support/reviewer.ts';

/**
 * A shipped lab with variants (docs/variants.md): each variant has its own page, `/labs/<id>/v<k>/`
 * after the first, showing its own values, reading its own table, and exporting a sheet that
 * carries its variant's digest and id; the scoring page takes that variant's key with it, and
 * refuses to put another variant's key beside it.
 */
const LAB = 'lab-paginate-results';
let v1: PublicPacket;
let v2: PublicPacket;
test.beforeAll(async () => {
  [v1, v2] = await Promise.all([publicVariant(LAB, 1), publicVariant(LAB, 2)]);
});

/** The variant's largest page, as its starter has it. */
const limitOf = (p: PublicPacket) => /^MAX_PER_PAGE = (\d+)$/m.exec(p.starter.find((f) => f.path === 'pagination.py')!.text!)![1]!;
const choose = (page: Page, suggestion: string, label: string) => page.getByRole('group', { name: `Your choice on ${suggestion}` }).getByLabel(label).check();
/** A variant's key, as the reviewer folder holds it beside the variant's zip. */
function variantKey(version: string, variant: string): Buffer | undefined {
  const dir = process.env.PACKET_KIT_E2E_REVIEWER;
  const file = dir ? path.join(dir, 'variants', `${LAB}-${version}`, variant, 'LAB-KEY.json') : '';
  return file && existsSync(file) ? readFileSync(file) : undefined;
}

test("a variant's page shows its own values, reads its own table and exports a sheet of its own variant; the reviewer scores it with that variant's key", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const [own, other] = [limitOf(v2), limitOf(v1)];
  expect(own).not.toBe(other);
  const requests: string[] = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await page.goto(`/labs/${LAB}/v2/`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(v2.prompt.title);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await expect(page.locator('[data-variant]')).toHaveAttribute('data-variant', 'v2');
  await expect(page.locator('[data-variant]')).toContainText('This is variant v2 of this lab');
  await expect(page.locator('[data-lab-digest]')).toHaveText(v2.variant!.digest.slice(0, 12));
  // Its values, never v1's: the code, the README, the assistant's words.
  const editor = page.locator('[data-editor="pagination.py"]');
  await expect(editor).toContainText(`MAX_PER_PAGE = ${own}`);
  await expect(editor).not.toContainText(`MAX_PER_PAGE = ${other}`);
  await expect(page.locator('[data-readme]')).toContainText(`per_page is from 1 to ${own}`);
  await expect(page.locator('[data-suggestion="bigger-pages"]')).toContainText(`Raise the largest page from ${own} to 1,000 results`);
  await expect(page.locator('main')).not.toContainText(`from 1 to ${other}`);
  await expect(page.locator('main')).not.toContainText('[[variant.');

  // The key's choices: every visible test passes, read from the variant's own table.
  await choose(page, 'page-count', 'Push back: take the revision');
  await choose(page, 'bounds', 'Accept as offered');
  await choose(page, 'slice', 'Accept as offered');
  await choose(page, 'bigger-pages', 'Reject: keep the code as it is');
  await page.getByRole('button', { name: 'Run tests' }).click();
  await expect(page.locator('[data-run-summary]')).toHaveText(`${v2.visibleTests} of ${v2.visibleTests} tests pass.`);
  expect(requests.filter((p) => p.endsWith('.json'))).toEqual([`/packets/${LAB}/v2/combinations.json`]);

  await page.getByLabel(/Why, on page-count/).fill('Plus one gives an empty last page on an exact multiple.');
  await page.getByLabel(/Why, on bigger-pages/).fill('The limit keeps one request from reading the index.');
  await page.getByLabel('Your name (goes on the answer sheet)').fill('Grace Hopper');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export answer sheet (JSON)' }).click()]);
  const sheetFile = testInfo.outputPath('v2-answers.json');
  await download.saveAs(sheetFile);
  const sheet = JSON.parse(await readFile(sheetFile, 'utf8'));
  expect(sheet).toMatchObject({ kind: 'packet-kit/lab-answer-sheet', id: LAB, version: v2.prompt.version, digest: v2.variant!.digest, variant: 'v2', candidate: 'Grace Hopper' });
  expect(sheet.digest).not.toBe(v1.variant!.digest);

  // The reviewer: v2's key from beside v2's zip scores the sheet; v1's key (the bundle's) is refused beside it.
  const key = variantKey(v2.prompt.version, 'v2');
  test.skip(!key, 'the site under test was built without reviewer bundles');
  await page.goto(`/labs/${LAB}/score/`);
  await page.getByLabel("The lab's key (LAB-KEY.json)").setInputFiles({ name: 'LAB-KEY.json', mimeType: 'application/json', buffer: key! });
  await page.getByLabel("The candidate's answer sheet").setInputFiles(sheetFile);
  await expect(page.locator('[data-compare-summary]')).toHaveText('4 of 4 choices match the key.');
  await expect(page.locator('[data-row="choices"] input[value="3"]')).toBeChecked();
  const v1Key = reviewerFile(LAB, v2.prompt.version, 'LAB-KEY.json')!;
  expect(JSON.parse(v1Key.toString()).digest).toBe(v1.variant!.digest);
  await page.getByLabel("The lab's key (LAB-KEY.json)").setInputFiles({ name: 'v1-LAB-KEY.json', mimeType: 'application/json', buffer: v1Key });
  await expect(page.locator('[data-import-status]')).toHaveText(/this key is variant v1's and the answer sheet is variant v2's/);
});

test("the lab's own page is variant v1, says so, and is the one the catalog and the packet page link", async ({ page, request }) => {
  await page.goto(`/labs/${LAB}/`);
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
  await expect(page.locator('[data-variant]')).toHaveAttribute('data-variant', 'v1');
  await expect(page.locator('[data-editor="pagination.py"]')).toContainText(`MAX_PER_PAGE = ${limitOf(v1)}`);
  await expect(page.locator('[data-lab-digest]')).toHaveText(v1.variant!.digest.slice(0, 12));
  const catalog = await (await request.get('/')).text();
  expect(catalog).toContain(`href="/labs/${LAB}/"`);
  expect(catalog).not.toMatch(new RegExp(`/labs/${LAB}/v\\d`));
  await page.goto(`/packets/${LAB}/`);
  await expect(page.locator('[data-lab-variants]')).toContainText("a candidate gets the address of their own variant's page from the hiring lead");
  await expect(page.locator('main')).not.toContainText('[[variant.');
  // A variant that was not made has no page.
  expect((await request.get(`/labs/${LAB}/v${v1.variant!.count + 1}/`)).status()).toBe(404);
});
