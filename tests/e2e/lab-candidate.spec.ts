import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { seriousViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';

/**
 * The lab page as a candidate uses it, defect by defect: the page's own changes stay out of the
 * editor's undo history, "Start over" asks and can be undone, a results table never outlives the
 * choices it was run for, the rules README reads as a document, and the page is readable in both
 * themes, at a desk and on a phone, with a fraction of the JavaScript it had.
 */
const LAB = 'lab-free-time';
const SIGNUP = 'lab-signup-form';

const group = (page: Page, suggestion: string) => page.getByRole('group', { name: `Your choice on ${suggestion}` });
const choose = (page: Page, suggestion: string, label: string) => group(page, suggestion).getByLabel(label).check();
/** A line of the file view: the build's highlighted view until the editor takes its place. */
const editorLine = (page: Page, text: string) => page.locator('[data-editor="free_time.py"] :is(.cm-line, pre[data-code-view] .line)', { hasText: text });
/** Click a line to edit there: the editor loads on that first click and takes the focus, the caret on the line. */
async function editAt(page: Page, text: string): Promise<void> {
  await editorLine(page, text).click();
  await expect(page.locator('[data-editor="free_time.py"] .cm-content')).toBeFocused();
}
const ACCEPT = 'Accept as offered';
const REVISE = 'Push back: take the revision';
const REJECT = 'Reject: keep the code as it is';

/** The choices of the answer sheet autosaved in this browser. */
async function savedChoices(page: Page): Promise<[string, string | null, string | undefined][]> {
  return page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('packet-kit:lab:lab-free-time:'))!;
    const sheet = JSON.parse(localStorage.getItem(key)!) as { suggestions: { id: string; choice: string | null; hand?: string }[] };
    return sheet.suggestions.map((s): [string, string | null, string | undefined] => [s.id, s.choice, s.hand === undefined ? undefined : 'hand']);
  });
}

/** The four choices. */
async function chooseFour(page: Page): Promise<void> {
  await choose(page, 'merge', REVISE);
  await choose(page, 'gaps', ACCEPT);
  await choose(page, 'min-length', REVISE);
  await choose(page, 'quarter-hours', REJECT);
  // The editor draws the lines near the window only: bring the file into view, at once (the site scrolls smoothly, and a
  // click in mid-scroll would load the editor with most of the file below the window).
  await page.locator('[data-editor="free_time.py"]').evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
}

async function expectFour(page: Page): Promise<void> {
  await expect(group(page, 'merge').getByLabel(REVISE)).toBeChecked();
  await expect(group(page, 'gaps').getByLabel(ACCEPT)).toBeChecked();
  await expect(group(page, 'min-length').getByLabel(REVISE)).toBeChecked();
  await expect(group(page, 'quarter-hours').getByLabel(REJECT)).toBeChecked();
}

test("Ctrl+Z and Ctrl+Shift+Z act on the candidate's typing only, never on the choices", async ({ page }) => {
  await page.goto(`/labs/${LAB}/`);
  await chooseFour(page);
  await expect(editorLine(page, 'if merged and start <= merged[-1][1]:')).toBeVisible();
  await expect(editorLine(page, 'e - s >= min_length')).toBeVisible();

  // Click a code line and undo without having typed: nothing happens, twice.
  await editAt(page, 'def parse_hhmm');
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+z');
  await expectFour(page);
  await expect(editorLine(page, 'if merged and start <= merged[-1][1]:')).toBeVisible();
  await expect(editorLine(page, 'e - s >= min_length')).toBeVisible();
  await expect(editorLine(page, 'cursor = max(cursor, end)')).toBeVisible();
  await expect(editorLine(page, '// 15')).toHaveCount(0);
  await expect(page.locator('[data-chosen="gaps"]')).toHaveText('(you accepted it as offered)');
  expect(await savedChoices(page)).toEqual([
    ['merge', 'revise', undefined],
    ['gaps', 'accept', undefined],
    ['min-length', 'revise', undefined],
    ['quarter-hours', 'reject', undefined],
  ]);

  // The candidate's own typing is undone and redone, and only it.
  await editAt(page, 'e - s >= min_length');
  await page.keyboard.press('End');
  await page.keyboard.insertText('  # by hand');
  await expect(page.locator('[data-suggestion="min-length"] [data-hand-note]')).toBeVisible();
  await page.keyboard.press('Control+z');
  await expect(page.locator('[data-suggestion="min-length"] [data-hand-note]')).toBeHidden();
  await expect(editorLine(page, '# by hand')).toHaveCount(0);
  await expectFour(page);
  await page.keyboard.press('Control+z');
  await expectFour(page);
  await page.keyboard.press('Control+Shift+z');
  await expect(editorLine(page, '# by hand')).toBeVisible();
  await expect(page.locator('[data-suggestion="min-length"] [data-hand-note]')).toBeVisible();
  await page.keyboard.press('Control+Shift+z');
  await expect(group(page, 'merge').getByLabel(REVISE)).toBeChecked();
  await expect(group(page, 'gaps').getByLabel(ACCEPT)).toBeChecked();
  expect(await savedChoices(page)).toEqual([
    ['merge', 'revise', undefined],
    ['gaps', 'accept', undefined],
    ['min-length', 'revise', 'hand'],
    ['quarter-hours', 'reject', undefined],
  ]);

  // A restored sheet is not in the history either.
  await page.reload();
  await editAt(page, 'def parse_hhmm');
  await page.keyboard.press('Control+z');
  await expect(editorLine(page, '# by hand')).toBeVisible();
  await expect(editorLine(page, 'if merged and start <= merged[-1][1]:')).toBeVisible();
});

test('"Start over" asks first, and "Undo start over" brings every answer back', async ({ page }) => {
  await page.goto(`/labs/${LAB}/`);
  await page.getByLabel('End state').fill('free_slots follows the README to the minute.');
  await chooseFour(page);
  await page.getByLabel(/Why, on quarter-hours/).fill('Rounding changes the answer.');
  const dialog = page.getByRole('dialog', { name: 'Start over?' });

  // Asked, and kept.
  await page.getByRole('button', { name: 'Start over' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Keep my answers' }).click();
  await expect(dialog).toBeHidden();
  await expectFour(page);
  await expect(page.getByLabel('End state')).toHaveValue('free_slots follows the README to the minute.');

  // Escape keeps them too.
  await page.getByRole('button', { name: 'Start over' }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expectFour(page);

  // Cleared, then undone.
  await page.getByRole('button', { name: 'Start over' }).click();
  await dialog.getByRole('button', { name: 'Clear everything' }).click();
  await expect(group(page, 'merge').getByLabel(REVISE)).not.toBeChecked();
  await expect(page.getByLabel('End state')).toHaveValue('');
  await expect(editorLine(page, '# TODO: merge the sorted intervals')).toBeVisible();
  await page.getByRole('button', { name: 'Undo start over' }).click();
  await expectFour(page);
  await expect(page.getByLabel('End state')).toHaveValue('free_slots follows the README to the minute.');
  await expect(page.getByLabel(/Why, on quarter-hours/)).toHaveValue('Rounding changes the answer.');
  await expect(editorLine(page, 'if merged and start <= merged[-1][1]:')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Undo start over' })).toBeHidden();
  // And the restored answers are what this browser keeps.
  await page.reload();
  await expectFour(page);
  await expect(page.getByLabel('End state')).toHaveValue('free_slots follows the README to the minute.');
});

test('a results table never stays under "your current choices" once a choice changes', async ({ page }) => {
  await page.goto(`/labs/${LAB}/`);
  await chooseFour(page);
  await page.getByRole('button', { name: 'Run tests' }).click();
  const table = page.locator('[data-run-table]');
  await expect(table.locator('caption')).toHaveText('Visible tests for your current choices');
  await expect(page.locator('[data-run-summary]')).toHaveText(/tests pass/);

  await choose(page, 'gaps', REJECT);
  await expect(table.locator('caption')).not.toHaveText('Visible tests for your current choices');
  await expect(table).toHaveAttribute('data-stale', '');
  await expect(page.locator('[data-run-summary]')).toHaveText('Your choices changed since these results: run the tests again.');
  await page.getByRole('button', { name: 'Run tests' }).click();
  await expect(table.locator('caption')).toHaveText('Visible tests for your current choices');
  await expect(table).not.toHaveAttribute('data-stale', '');

  // A hand edit makes it stale too.
  await editAt(page, 'e - s >= min_length');
  await page.keyboard.press('End');
  await page.keyboard.insertText('  # by hand');
  await expect(table).toHaveAttribute('data-stale', '');
});

test("the rules README reads as a document, and a reason's label reads with its spaces", async ({ page }) => {
  await page.goto(`/labs/${LAB}/`);
  const readme = page.locator('[data-readme]');
  await expect(readme).toBeVisible();
  expect(await readme.locator('h3, h4, p, li').count()).toBeGreaterThan(2);
  expect(await readme.innerText()).not.toMatch(/^#/m);
  const raw = await readFile(path.join(import.meta.dirname, '../../packets', LAB, 'starter/README.md'), 'utf8');
  const heading = /^#\s+(.+)$/m.exec(raw)?.[1];
  if (heading) await expect(readme.getByRole('heading', { name: heading.replace(/[`*_]/g, '') })).toBeVisible();

  await choose(page, 'quarter-hours', REJECT);
  await expect(page.locator('[data-reason-field="quarter-hours"] label')).toHaveText(/\(you rejected it\) \(required\)/);
});

const DIST = () => process.env.PACKET_KIT_E2E_DIST!;

/** The bytes of JavaScript a built page loads: its module scripts and every chunk they import, once each. */
async function scriptBytes(pagePath: string): Promise<{ total: number; files: Record<string, number> }> {
  const html = await readFile(path.join(DIST(), pagePath, 'index.html'), 'utf8');
  const queue = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!);
  const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  for (const code of inline) for (const m of code.matchAll(/(?:from|import)\s*\(?\s*["'`]([^"'`]+\.js)["'`]/g)) queue.push(m[1]!);
  const files: Record<string, number> = {};
  while (queue.length) {
    const url = queue.shift()!;
    if (url in files) continue;
    const code = await readFile(path.join(DIST(), url), 'utf8');
    files[url] = Buffer.byteLength(code);
    for (const m of code.matchAll(/(?:from|import)\s*\(?\s*["'`]([^"'`]+\.js)["'`]/g)) queue.push(path.posix.join(path.posix.dirname(url), m[1]!));
  }
  return { total: Object.values(files).reduce((a, b) => a + b, 0), files };
}

test('the lab page loads no zod, and with its editor (imported when a file view takes the focus) less JavaScript than the 461,005 bytes it loaded with zod', async () => {
  const { total, files } = await scriptBytes(`labs/${SIGNUP}`);
  // Every script the page can load, the editor's chunk (a dynamic import) included.
  expect(Object.keys(files).some((f) => /lab-editor/.test(f)), JSON.stringify(files)).toBe(true);
  // The page's weight to read the code and choose is held in page-weight.spec.ts; CodeMirror's own view, history and Python parser stay in the editor.
  expect(total, JSON.stringify(files)).toBeLessThan(400_000);
  for (const file of Object.keys(files)) expect(await readFile(path.join(DIST(), file), 'utf8'), file).not.toContain('ZodError');
});

for (const colorScheme of ['light', 'dark'] as const) {
  for (const width of [1280, 390]) {
    test.describe(`${colorScheme}, ${width} px`, () => {
      test.use({ colorScheme, viewport: { width, height: 900 } });

      test('the lab page with its results table passes axe, with no sideways scroll', async ({ page }) => {
        // axe checks the contrast of every highlighted token of the page's changes and editor.
        test.setTimeout(90_000);
        await page.goto(`/labs/${LAB}/`);
        await chooseFour(page);
        // The build's highlighted file view, before the editor loads, with the chosen variants swapped in.
        await expect(page.locator('[data-editor="free_time.py"] pre[data-code-view] .line[data-region]').first()).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await editAt(page, 'e - s >= min_length');
        await page.getByRole('button', { name: 'Run tests' }).click();
        await expect(page.locator('[data-run-table] tbody tr').first()).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        const cells = await page.locator('[data-run-table] tbody tr').first().locator('td').evaluateAll((tds) => tds.map((td) => td.getBoundingClientRect().width));
        // Wide enough to read a test's name: stacked on a phone, never squeezed to a few characters a line.
        for (const w of cells.slice(0, 1)) expect(w).toBeGreaterThan(width === 390 ? 300 : 150);
      });
    });
  }
}
