import { readFile } from 'node:fs/promises';
import type { Page, TestInfo } from '@playwright/test';
import { seriousViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { publicPackets } from './support/packets.ts';
import { zipEntries } from './support/zip-entries.ts';

/**
 * A lab handed in as a candidate does it: the zip's PACKET.md and the page say which file to send
 * and where, a time box counts the packet's minutes, "done" checks the sheet and says what is
 * missing, then exports it and says what happens next; an exported sheet opens again with every
 * answer, and its timeline lists the steps in order.
 */
const LAB = 'lab-free-time';
const HAND_IN = 'the hiring lead who sent you this packet (reply to their email)';
const DONE = "I'm done: check and export";
const ACCEPT = 'Accept as offered';
const REVISE = 'Push back: take the revision';
const REJECT = 'Reject: keep the code as it is';
const PLAN: [string, string][] = [
  ['End state', 'free_slots gives the free minutes of the working day.'],
  ['Checkpoints', 'merge sorts and joins\ngaps fill the day\nmin length drops short slots'],
  ['The invariant', 'The visible tests keep passing.'],
  ['What you will do by hand', 'The edge of the working day.'],
];

let version = '';
test.beforeAll(async () => {
  version = (await publicPackets()).find((p) => p.id === LAB)!.prompt.version;
});

const group = (page: Page, suggestion: string) => page.getByRole('group', { name: `Your choice on ${suggestion}` });
const choose = (page: Page, suggestion: string, label: string) => group(page, suggestion).getByLabel(label).check();
const editorLine = (page: Page, text: string) => page.locator('[data-editor="free_time.py"] :is(.cm-line, pre[data-code-view] .line)', { hasText: text });
/** Click a line to edit there: the editor loads on that first click and takes the focus, the caret on the line. */
async function editAt(page: Page, text: string): Promise<void> {
  await editorLine(page, text).click();
  await expect(page.locator('[data-editor="free_time.py"] .cm-content')).toBeFocused();
}
const reason = (page: Page, id: string) => page.locator(`[data-reason="${id}"]`);

/** Every answer of a complete sheet: the plan, four choices (one edited by hand), the reasons, the name. */
async function answerAll(page: Page): Promise<void> {
  for (const [label, text] of PLAN) await page.getByLabel(label, { exact: true }).fill(text);
  await choose(page, 'merge', REVISE);
  await choose(page, 'gaps', ACCEPT);
  await choose(page, 'min-length', REVISE);
  await choose(page, 'quarter-hours', REJECT);
  await page.locator('[data-editor="free_time.py"]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await editAt(page, 'e - s >= min_length');
  await page.keyboard.press('End');
  await page.keyboard.insertText('  # by hand');
  await expect(page.locator('[data-suggestion="min-length"] [data-hand-note]')).toBeVisible();
  await page.getByRole('button', { name: 'Run tests' }).click();
  await expect(page.locator('[data-run-summary]')).not.toBeEmpty();
  await reason(page, 'merge').fill('The offered merge drops touching intervals.');
  await reason(page, 'min-length').fill('Kept the revision, with a note by hand.');
  await reason(page, 'quarter-hours').fill('Rounding to quarter hours changes the answer.');
  await page.getByLabel('Your name (goes on the answer sheet)').fill('Ada Lovelace');
}

/** Press done and save the sheet it exports. */
async function done(page: Page, testInfo: TestInfo): Promise<{ file: string; name: string; sheet: Record<string, unknown> }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: DONE }).click()]);
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  return { file, name: download.suggestedFilename(), sheet: JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown> };
}

test("the zip's PACKET.md and the lab page name the file to send and where it goes", async ({ page }) => {
  const response = await page.request.get(`/zips/${LAB}-${version}.zip`);
  expect(response.ok()).toBe(true);
  const entries = zipEntries(await response.body());
  const packetMd = entries.find((e) => e.name.endsWith('/PACKET.md'))!.bytes.toString('utf8');
  const handIn = packetMd.slice(packetMd.indexOf('## Hand in'));
  expect(handIn).toContain(`\`${LAB}-${version}-answers-<your-name>.json\``);
  expect(handIn).toContain(`Send that one file, and nothing else, to **${HAND_IN}**.`);
  expect(packetMd).not.toContain('Send back this whole folder');
  expect(packetMd).not.toContain('README.md included');

  await page.goto(`/labs/${LAB}/`);
  const section = page.locator('[data-hand-in]');
  await expect(section).toContainText(`Send that one file to ${HAND_IN}.`);
  await expect(section.locator('[data-sheet-file]')).toHaveText(`${LAB}-${version}-answers-<your-name>.json`);
  await page.getByLabel('Your name (goes on the answer sheet)').fill('Ada Lovelace');
  await expect(section.locator('[data-sheet-file]')).toHaveText(`${LAB}-${version}-answers-ada-lovelace.json`);
});

test("the time box shows the packet's minutes, starts with the first step, survives a reload and says when time is up", async ({ page }) => {
  await page.clock.install({ time: new Date('2026-12-02T10:00:00Z') });
  await page.goto(`/labs/${LAB}/`);
  const box = page.locator('[data-time-box]');
  await expect(box).toContainText('Time box: 45 minutes. The clock starts with your first step, or when you press Start.');
  await expect(page.getByRole('button', { name: 'Start the clock' })).toBeVisible();
  await choose(page, 'gaps', ACCEPT);
  await expect(box).toContainText('Time box: 45 of 45 minutes left');
  await expect(page.getByRole('button', { name: 'Start the clock' })).toBeHidden();
  await page.clock.fastForward('20:00');
  await expect(box).toContainText('Time box: 25 of 45 minutes left');
  await page.reload();
  await expect(box).toContainText('Time box: 25 of 45 minutes left');
  await expect(page.getByRole('button', { name: 'Start the clock' })).toBeHidden();
  await page.clock.fastForward('26:00');
  await expect(box).toContainText(`Time is up: your 45 minutes ended at`);
  await expect(box).toContainText(`Nothing is locked: finish your sentence, then press "${DONE}".`);
  // Nothing is locked.
  await choose(page, 'gaps', REJECT);
  await expect(group(page, 'gaps').getByLabel(REJECT)).toBeChecked();
});

test('done refuses an incomplete sheet, naming and linking what is missing, then exports a complete one and says what happens next', async ({ page }, testInfo) => {
  await page.goto(`/labs/${LAB}/`);
  await page.getByRole('button', { name: DONE }).click();
  const result = page.locator('[data-done-result]');
  await expect(result).toContainText('Nothing was exported.');
  await expect(result.getByRole('link')).toHaveText([
    'Write the plan\'s "End state".',
    'Write the plan\'s "Checkpoints".',
    'Write the plan\'s "The invariant".',
    'Write the plan\'s "What you will do by hand".',
    'Make a choice on merge.',
    'Make a choice on gaps.',
    'Make a choice on min-length.',
    'Make a choice on quarter-hours.',
    'Write your name.',
  ]);
  await result.getByRole('link', { name: 'Make a choice on gaps.' }).click();
  await expect(group(page, 'gaps').getByLabel(ACCEPT)).toBeFocused();

  // A revision without its reason is named too.
  await answerAll(page);
  await reason(page, 'merge').fill('');
  await page.getByRole('button', { name: DONE }).click();
  await expect(result.getByRole('link')).toHaveText(['Give a reason for your choice on merge.']);
  await result.getByRole('link').click();
  await expect(reason(page, 'merge')).toBeFocused();
  await reason(page, 'merge').fill('The offered merge drops touching intervals.');

  const { name, sheet } = await done(page, testInfo);
  expect(name).toBe(`${LAB}-${version}-answers-ada-lovelace.json`);
  await expect(result).toContainText(`Done. Your answer sheet is saved as ${name}. Send that file to ${HAND_IN}. The reviewer grades it against the key with packet grade`);
  expect(sheet).toMatchObject({ id: LAB, version, candidate: 'Ada Lovelace' });
});

test('an exported sheet opens again with every answer, Ctrl+Z after it changes nothing, and its timeline lists the steps in order', async ({ page }, testInfo) => {
  await page.goto(`/labs/${LAB}/`);
  await answerAll(page);
  const { file, name, sheet } = await done(page, testInfo);

  // The timeline: the steps in order, each with its time.
  const timeline = sheet.timeline as { at: string; action: string; id?: string; detail?: string }[];
  expect(timeline.map((e) => [e.action, e.id])).toEqual([
    ['start', undefined],
    ['revise', 'merge'],
    ['accept', 'gaps'],
    ['revise', 'min-length'],
    ['reject', 'quarter-hours'],
    ['hand-edit', 'min-length'],
    ['test-run', undefined],
    ['done', undefined],
  ]);
  const times = timeline.map((e) => Date.parse(e.at));
  expect(times.every((t, i) => !Number.isNaN(t) && (i === 0 || t >= times[i - 1]!))).toBe(true);

  // Cleared and reloaded: the page is empty.
  await page.getByRole('button', { name: 'Start over' }).click();
  await page.getByRole('dialog', { name: 'Start over?' }).getByRole('button', { name: 'Clear everything' }).click();
  await page.reload();
  await expect(group(page, 'merge').getByLabel(REVISE)).not.toBeChecked();

  // Another version's sheet is refused with the reader's sentence, and nothing changes.
  const other = { ...sheet, digest: 'f'.repeat(64), version: '0.9.0' };
  await page.locator('[data-open-sheet]').setInputFiles({ name: 'old.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(other)) });
  await expect(page.locator('[data-sheet-status]')).toHaveText(/^old\.json: This file belongs to another version of "lab-free-time" \(version 0\.9\.0, digest ffffffffffff\); this page is version .*Nothing was changed\.$/);
  await expect(group(page, 'merge').getByLabel(REVISE)).not.toBeChecked();

  await page.getByLabel('Open a saved sheet').setInputFiles(file);
  await expect(page.locator('[data-sheet-status]')).toHaveText(`Opened ${name}: every answer on this page is now the saved sheet's.`);
  const expectRestored = async () => {
    for (const [label, text] of PLAN) await expect(page.getByLabel(label, { exact: true })).toHaveValue(text);
    await expect(group(page, 'merge').getByLabel(REVISE)).toBeChecked();
    await expect(group(page, 'gaps').getByLabel(ACCEPT)).toBeChecked();
    await expect(group(page, 'quarter-hours').getByLabel(REJECT)).toBeChecked();
    await expect(page.locator('[data-suggestion="min-length"] [data-hand-note]')).toBeVisible();
    await expect(reason(page, 'merge')).toHaveValue('The offered merge drops touching intervals.');
    await expect(reason(page, 'min-length')).toHaveValue('Kept the revision, with a note by hand.');
    await expect(reason(page, 'quarter-hours')).toHaveValue('Rounding to quarter hours changes the answer.');
    await expect(page.getByLabel('Your name (goes on the answer sheet)')).toHaveValue('Ada Lovelace');
    await page.locator('[data-editor="free_time.py"]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await expect(editorLine(page, '# by hand')).toBeVisible();
    await expect(editorLine(page, 'if merged and start <= merged[-1][1]:')).toBeVisible();
  };
  await expectRestored();

  // Undo in the editor after the restore changes nothing: the restore is not the candidate's typing.
  await editAt(page, 'def parse_hhmm');
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+z');
  await expectRestored();

  // The restored sheet's timeline goes on: restore, then the next steps.
  const again = await done(page, testInfo);
  const steps = (again.sheet.timeline as { action: string }[]).map((e) => e.action);
  expect(steps.slice(0, timeline.length)).toEqual(timeline.map((e) => e.action));
  expect(steps.slice(timeline.length)).toEqual(['restore', 'done']);

  // With unsaved work on the page, opening a sheet asks first; "no" keeps the page's answers.
  await choose(page, 'gaps', REJECT);
  page.once('dialog', (d) => void d.dismiss());
  await page.getByLabel('Open a saved sheet').setInputFiles(file);
  await expect(page.locator('[data-sheet-status]')).toHaveText(`Kept the answers on this page; ${name} was not opened.`);
  await expect(group(page, 'gaps').getByLabel(REJECT)).toBeChecked();
  page.once('dialog', (d) => void d.accept());
  await page.getByLabel('Open a saved sheet').setInputFiles(file);
  await expect(group(page, 'gaps').getByLabel(ACCEPT)).toBeChecked();
});

for (const scheme of ['light', 'dark'] as const) {
  for (const width of [1280, 390]) {
    test(`the lab page with its hand-in passes axe in ${scheme} mode at ${width} px, with no sideways scroll`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/labs/${LAB}/`);
      await choose(page, 'gaps', ACCEPT);
      await page.getByRole('button', { name: DONE }).click();
      await expect(page.locator('[data-done-result] a').first()).toBeVisible();
      await expect(page.locator('[data-time-box]')).toContainText('of 45 minutes left');
      expect(await seriousViolations(page)).toEqual([]);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(wide).toBeLessThanOrEqual(width);
    });
  }
}
