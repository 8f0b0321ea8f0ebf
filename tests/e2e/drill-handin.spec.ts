import { readFile } from 'node:fs/promises';
import type { Page, TestInfo } from '@playwright/test';
import type { PublicDrill } from '../../src/packets/public-drill.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { publicDrills } from './support/packets.ts';

/**
 * A drill handed in as a candidate does it: the page says which file to send and where, a time box
 * counts the packet's minutes, "done" checks the sheet and names what is missing, then exports it
 * and says what happens next; "Start over" asks and can be undone; an exported sheet opens again
 * with every answer, and its timeline lists the steps in order.
 */
const DRILL = 'drill-retry-backoff';
const HAND_IN = 'the hiring lead who sent you this packet (reply to their email)';
const DONE = "I'm done: check and export";
const VERDICTS: Record<string, string> = {
  'retry-read-timeouts': 'Reject',
  'full-jitter': 'Accept',
  'sleep-in-async': 'Reject',
  'test-attempts': 'Accept with a change',
  'retry-after': 'Reject',
};

let drill: PublicDrill;
test.beforeAll(async () => {
  drill = (await publicDrills()).find((d) => d.id === DRILL)!;
});

const verdict = (page: Page, i: number) => page.getByRole('group', { name: `Your verdict on diff ${i + 1}` });

async function answerAll(page: Page): Promise<void> {
  for (const [i, d] of drill.diffs.entries()) {
    await verdict(page, i).getByLabel(VERDICTS[d.id]!, { exact: true }).check();
    await page.locator(`[data-reason="${d.id}"]`).fill(`Reason for ${d.id}: what would happen in production.`);
  }
  await page.locator('[data-change="test-attempts"]').fill('Use assertRaises on the last attempt.');
  await page.getByLabel('Your name (goes on the answer sheet)').fill('Grace Hopper');
}

async function done(page: Page, testInfo: TestInfo): Promise<{ file: string; name: string; sheet: Record<string, unknown> }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: DONE }).click()]);
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  return { file, name: download.suggestedFilename(), sheet: JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown> };
}

test("the drill page names the file to send and where, and its time box shows the packet's minutes", async ({ page }) => {
  await page.clock.install({ time: new Date('2026-12-02T10:00:00Z') });
  await page.goto(`/drills/${DRILL}/`);
  const section = page.locator('[data-hand-in]');
  await expect(section).toContainText(`Send that one file to ${HAND_IN}.`);
  await expect(section.locator('[data-sheet-file]')).toHaveText(`${DRILL}-${drill.prompt.version}-answers-<your-name>.json`);
  const box = page.locator('[data-time-box]');
  await expect(box).toContainText(`Time box: ${drill.prompt.minutes} minutes.`);
  await page.getByRole('button', { name: 'Start the clock' }).click();
  await expect(box).toContainText(`Time box: ${drill.prompt.minutes} of ${drill.prompt.minutes} minutes left`);
  await page.clock.fastForward('05:00');
  await page.reload();
  await expect(box).toContainText(`Time box: ${drill.prompt.minutes - 5} of ${drill.prompt.minutes} minutes left`);
  await page.clock.fastForward(`${drill.prompt.minutes}:00`);
  await expect(box).toContainText(`Time is up: your ${drill.prompt.minutes} minutes ended at`);
  await verdict(page, 0).getByLabel('Reject', { exact: true }).check();
  await expect(verdict(page, 0).getByLabel('Reject', { exact: true })).toBeChecked();
});

test('done refuses an incomplete sheet naming what is missing, then exports a complete one and says what happens next', async ({ page }, testInfo) => {
  await page.goto(`/drills/${DRILL}/`);
  await verdict(page, 3).getByLabel('Accept with a change').check();
  await page.getByRole('button', { name: DONE }).click();
  const result = page.locator('[data-done-result]');
  await expect(result).toContainText('Nothing was exported.');
  const ids = drill.diffs.map((d) => d.id);
  await expect(result.getByRole('link')).toHaveText([
    ...ids.slice(0, 3).flatMap((id) => [`Give a verdict on ${id}.`, `Give a reason for ${id}.`]),
    'Give a reason for test-attempts.',
    'Name the change you would ask for on test-attempts.',
    ...ids.slice(4).flatMap((id) => [`Give a verdict on ${id}.`, `Give a reason for ${id}.`]),
    'Write your name.',
  ]);
  await result.getByRole('link', { name: 'Name the change you would ask for on test-attempts.' }).click();
  await expect(page.locator('[data-change="test-attempts"]')).toBeFocused();

  await answerAll(page);
  const { name, sheet } = await done(page, testInfo);
  expect(name).toBe(`${DRILL}-${drill.prompt.version}-answers-grace-hopper.json`);
  await expect(result).toContainText(`Done. Your answer sheet is saved as ${name}. Send that file to ${HAND_IN}. The reviewer grades it against the key with packet grade`);
  expect(sheet).toMatchObject({ id: DRILL, version: drill.prompt.version, candidate: 'Grace Hopper' });
});

test('Start over asks and can be undone; an exported sheet opens again with every answer and its timeline in order', async ({ page }, testInfo) => {
  await page.goto(`/drills/${DRILL}/`);
  await answerAll(page);
  const dialog = page.getByRole('dialog', { name: 'Start over?' });
  await page.getByRole('button', { name: 'Start over' }).click();
  await dialog.getByRole('button', { name: 'Keep my answers' }).click();
  await expect(verdict(page, 1).getByLabel('Accept', { exact: true })).toBeChecked();
  await page.getByRole('button', { name: 'Start over' }).click();
  await dialog.getByRole('button', { name: 'Clear everything' }).click();
  await expect(verdict(page, 1).getByLabel('Accept', { exact: true })).not.toBeChecked();
  await page.getByRole('button', { name: 'Undo start over' }).click();
  await expect(verdict(page, 1).getByLabel('Accept', { exact: true })).toBeChecked();
  await expect(page.locator('[data-change="test-attempts"]')).toHaveValue('Use assertRaises on the last attempt.');

  const { file, name, sheet } = await done(page, testInfo);
  const timeline = sheet.timeline as { at: string; action: string; id?: string; detail?: string }[];
  expect(timeline.map((e) => [e.action, e.id, e.detail])).toEqual([
    ['start', undefined, undefined],
    ...drill.diffs.map((d) => ['verdict', d.id, VERDICTS[d.id] === 'Accept with a change' ? 'accept-with-change' : VERDICTS[d.id]!.toLowerCase()]),
    ['start-over', undefined, undefined],
    ['undo-start-over', undefined, undefined],
    ['done', undefined, undefined],
  ]);
  const times = timeline.map((e) => Date.parse(e.at));
  expect(times.every((t, i) => !Number.isNaN(t) && (i === 0 || t >= times[i - 1]!))).toBe(true);

  // Cleared and reloaded, then opened again.
  await page.getByRole('button', { name: 'Start over' }).click();
  await dialog.getByRole('button', { name: 'Clear everything' }).click();
  await page.reload();
  await expect(verdict(page, 0).getByLabel('Reject', { exact: true })).not.toBeChecked();
  const other = { ...sheet, digest: 'f'.repeat(64), version: '0.1.0' };
  await page.getByLabel('Open a saved sheet').setInputFiles({ name: 'old.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(other)) });
  await expect(page.locator('[data-sheet-status]')).toHaveText(/^old\.json: This file belongs to another version of "drill-retry-backoff" \(version 0\.1\.0, digest ffffffffffff\).*Nothing was changed\.$/);
  await page.getByLabel('Open a saved sheet').setInputFiles(file);
  await expect(page.locator('[data-sheet-status]')).toHaveText(`Opened ${name}: every answer on this page is now the saved sheet's.`);
  for (const [i, d] of drill.diffs.entries()) {
    await expect(verdict(page, i).getByLabel(VERDICTS[d.id]!, { exact: true })).toBeChecked();
    await expect(page.locator(`[data-reason="${d.id}"]`)).toHaveValue(`Reason for ${d.id}: what would happen in production.`);
  }
  await expect(page.locator('[data-change="test-attempts"]')).toHaveValue('Use assertRaises on the last attempt.');
  await expect(page.getByLabel('Your name (goes on the answer sheet)')).toHaveValue('Grace Hopper');
  // What is opened is what this browser keeps.
  await page.reload();
  await expect(verdict(page, 3).getByLabel('Accept with a change')).toBeChecked();
  const again = await done(page, testInfo);
  expect((again.sheet.timeline as { action: string }[]).map((e) => e.action).slice(-2)).toEqual(['restore', 'done']);
});

for (const scheme of ['light', 'dark'] as const) {
  for (const width of [1280, 390]) {
    test(`the drill page with its hand-in passes axe in ${scheme} mode at ${width} px, with no sideways scroll`, async ({ page }) => {
      test.setTimeout(90_000);
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/drills/${DRILL}/`);
      await verdict(page, 0).getByLabel('Reject', { exact: true }).check();
      await page.getByRole('button', { name: DONE }).click();
      await expect(page.locator('[data-done-result] a').first()).toBeVisible();
      await expect(page.locator('[data-time-box]')).toContainText('minutes left');
      expect(await seriousViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });
  }
}
