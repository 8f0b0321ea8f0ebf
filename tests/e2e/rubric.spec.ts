import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { PublicPacket } from '../../src/packets/public.ts';
import { expect, test } from './support/fixtures.ts';
import { publicPackets } from './support/packets.ts';

// Read when the file loads, so each rubric gets its own tests (and their own time budget).
const packets: PublicPacket[] = await publicPackets();

/** Pages in a PDF: its page objects (`/Type /Page`, not the `/Type /Pages` tree nodes). */
const pdfPages = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;

/** Tick a score per row by clicking its label. */
async function score(page: Page, scores: Record<string, number>) {
  for (const [row, points] of Object.entries(scores)) {
    await page.locator(`[data-row="${row}"] input[value="${points}"]`).check();
  }
}

/** Clear the card through its confirmation. */
async function clearCard(page: Page) {
  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Clear this card?' });
  if (await dialog.isVisible()) await dialog.getByRole('button', { name: 'Clear the card' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
}

const fullMarks = (packet: PublicPacket) => Object.fromEntries(packet.rubric.rows.map((r) => [r.id, r.max]));
const decision = (page: Page) => page.locator('[data-decision-text]');

for (const packet of packets) {
  test(`the rubric prints on exactly one page, in A4 and in Letter, with its id, version and digest: ${packet.id}`, async ({ page }) => {
    const counts: string[] = [];
    await page.goto(`/packets/${packet.id}/rubric/`);
    await expect(page.locator('[data-card-ident] [data-fact="id"]')).toHaveText(packet.id);
    await expect(page.locator('[data-card-ident] [data-fact="version"]')).toHaveText(packet.prompt.version);
    await expect(page.locator('[data-card-ident] [data-fact="digest"]')).toHaveText(packet.digest);
    await expect(page.locator('fieldset[data-row]')).toHaveCount(packet.rubric.rows.length);
    for (const format of ['A4', 'Letter'] as const) {
      const pages = pdfPages(await page.pdf({ format }));
      counts.push(`${packet.id} ${format}: ${pages}`);
      expect(pages, `${packet.id} in ${format}`).toBe(1);
    }
    test.info().annotations.push({ type: 'pdf pages', description: counts.join('; ') });
  });
}

for (const packet of packets) {
  test(`the scoring form: a hire, a veto, and a total below the bar: ${packet.id}`, async ({ page }) => {
    const { rows, vetoes, hireBar } = packet.rubric;
    const max = rows.reduce((s, r) => s + r.max, 0);
    await page.goto(`/packets/${packet.id}/rubric/`);
    await expect(decision(page)).toHaveText(/Tick one score per row/);

    // Full marks: a hire.
    await score(page, fullMarks(packet));
    await expect(page.locator('[data-total]')).toHaveText(String(max));
    await expect(decision(page)).toHaveText(`Hire: ${max} of ${max} clears the hire bar of ${hireBar}.`);
    await expect(page.locator('[data-decision]')).toHaveAttribute('data-decision', 'hire');

    // Full marks but one vetoed row: a no, whatever the total.
    for (const veto of vetoes) {
      await score(page, { ...fullMarks(packet), [veto.row]: veto.atMost });
      await expect(decision(page)).toHaveText(`No hire: veto on ${veto.row} (${veto.atMost} <= ${veto.atMost}).`);
      await expect(page.locator(`[data-veto="${veto.row}"]`)).toContainText('Fired.');
      await expect(page.locator('[data-decision]')).toHaveAttribute('data-decision', 'no-hire');
    }

    // One point short of the bar, with no veto firing: a no.
    const scores = fullMarks(packet);
    let total = max;
    for (const row of rows) {
      const floor = vetoes.filter((v) => v.row === row.id).reduce((f, v) => Math.max(f, v.atMost + 1), 0);
      while (total >= hireBar && scores[row.id]! > floor) {
        scores[row.id]! -= 1;
        total -= 1;
      }
    }
    if (total < hireBar) {
      await score(page, scores);
      await expect(decision(page)).toHaveText(`No hire: ${total} of ${max} is below the hire bar of ${hireBar}.`);
    }

    // Clearing the card asks first, then clears the decision.
    await clearCard(page);
    await expect(decision(page)).toHaveText(/Tick one score per row/);
    await expect(page.locator('input[type="radio"]:checked')).toHaveCount(0);
  });
}

test('the scoring form works from the keyboard alone', async ({ page }) => {
  const packet = packets.find((p) => p.rubric.vetoes.length > 0) ?? packets[0]!;
  await page.goto(`/packets/${packet.id}/rubric/`);
  /** Press Tab (or Shift+Tab) until `target` has the focus: it must be reachable, and soon (the date's fields and each row's notes lie between rows). */
  const tabTo = async (target: ReturnType<Page['locator']>, key = 'Tab') => {
    for (let i = 0; i < 16 && !(await target.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press(key);
    await expect(target).toBeFocused();
  };
  await page.getByLabel('Reviewer', { exact: true }).focus();
  for (const row of packet.rubric.rows) {
    await tabTo(page.locator(`[data-row="${row.id}"] input[value="0"]`)); // into the row's radio group, on its first radio
    await page.keyboard.press('Space');
    for (let i = 0; i < row.max; i++) await page.keyboard.press('ArrowRight');
    await expect(page.locator(`[data-row="${row.id}"] input[value="${row.max}"]`)).toBeChecked();
  }
  await expect(page.locator('[data-decision]')).toHaveAttribute('data-decision', 'hire');
  // Back up to a vetoed row (Shift+Tab) and lower it to its veto threshold with the arrows.
  const veto = packet.rubric.vetoes[0];
  if (veto) {
    const row = packet.rubric.rows.find((r) => r.id === veto.row)!;
    await tabTo(page.locator(`[data-row="${veto.row}"] input[value="${row.max}"]`), 'Shift+Tab');
    for (let i = row.max; i > veto.atMost; i--) await page.keyboard.press('ArrowLeft');
    await expect(page.locator(`[data-row="${veto.row}"] input[value="${veto.atMost}"]`)).toBeChecked();
    await expect(page.locator('[data-decision]')).toHaveAttribute('data-decision', 'no-hire');
  }
});

test('a scored sheet exports as JSON with the digest, and imports back; a sheet of another version is refused', async ({ page }, testInfo) => {
  const packet = packets.find((p) => p.rubric.vetoes.length > 0) ?? packets[0]!;
  const veto = packet.rubric.vetoes[0];
  const scores = { ...fullMarks(packet), ...(veto ? { [veto.row]: veto.atMost } : {}) };
  await page.goto(`/packets/${packet.id}/rubric/`);

  // Exporting an incomplete card is refused, and the refusal goes once every row is scored.
  await page.getByRole('button', { name: 'Export scored sheet (JSON)' }).click();
  await expect(page.locator('[data-sheet-status]')).toHaveText(/Score every row before exporting/);

  await score(page, scores);
  await expect(page.locator('[data-sheet-status]')).toHaveText('');
  await page.getByLabel('Candidate', { exact: true }).fill('Ada Lovelace');
  await page.getByLabel('Reviewer', { exact: true }).fill('Sam');
  await page.getByLabel('Date', { exact: true }).fill('2026-11-28');
  await page.getByLabel('Notes on row 1', { exact: true }).fill('Hidden tests green; said why in NOTES.md.');
  const expectedText = await decision(page).textContent();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export scored sheet (JSON)' }).click()]);
  expect(download.suggestedFilename()).toBe(`${packet.id}-${packet.prompt.version}-scored-ada-lovelace-by-sam.json`);
  const file = testInfo.outputPath('sheet.json');
  await download.saveAs(file);
  const sheet = JSON.parse(await readFile(file, 'utf8'));
  expect(sheet).toMatchObject({
    schemaVersion: 1,
    kind: 'packet-kit/scored-sheet',
    id: packet.id,
    version: packet.prompt.version,
    digest: packet.digest,
    scores,
    candidate: 'Ada Lovelace',
    reviewer: 'Sam',
    scoredOn: '2026-11-28',
    notes: { [packet.rubric.rows[0]!.id]: 'Hidden tests green; said why in NOTES.md.' },
    decision: { decision: veto ? 'no-hire' : 'hire' },
  });
  expect(Number.isNaN(Date.parse(sheet.date))).toBe(false);

  // A fresh, cleared page, then the sheet read back: the same ticks, names, date, notes and decision.
  await page.reload();
  await clearCard(page);
  await expect(page.locator('input[type="radio"]:checked')).toHaveCount(0);
  await page.getByLabel('Import a sheet or scorecard.json').setInputFiles(file);
  await expect(page.locator('[data-sheet-status]')).toHaveText(/^Imported sheet\.json, scored 2026-11-28/);
  for (const [row, points] of Object.entries(scores)) await expect(page.locator(`[data-row="${row}"] input[value="${points}"]`)).toBeChecked();
  await expect(page.getByLabel('Candidate', { exact: true })).toHaveValue('Ada Lovelace');
  await expect(page.getByLabel('Date', { exact: true })).toHaveValue('2026-11-28');
  await expect(page.getByLabel('Notes on row 1', { exact: true })).toHaveValue('Hidden tests green; said why in NOTES.md.');
  await expect(decision(page)).toHaveText(expectedText!);

  // The same sheet pinned to another digest: refused, and the card is left as it was.
  await clearCard(page);
  await page.getByLabel('Import a sheet or scorecard.json').setInputFiles({
    name: 'old.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ ...sheet, digest: 'f'.repeat(64), version: '0.0.1' })),
  });
  await expect(page.locator('[data-sheet-status]')).toHaveText(/scored on another version .*version 0\.0\.1, digest ffffffffffff.*nothing was changed/);
  await expect(page.locator('input[type="radio"]:checked')).toHaveCount(0);
});

test('the card saves itself in the browser, comes back after a reload, and asks before Clear wipes it', async ({ page }) => {
  const packet = packets[0]!;
  const [first, second] = packet.rubric.rows;
  await page.goto(`/packets/${packet.id}/rubric/`);
  await page.locator(`[data-row="${first!.id}"] input[value="${first!.max}"]`).check();
  await page.getByLabel('Notes on row 2', { exact: true }).fill('Half done: the journal, not the digest.');
  await page.getByLabel('Candidate', { exact: true }).fill('Grace');

  await page.reload();
  await expect(page.locator('[data-sheet-status]')).toHaveText(/^Restored the card you were scoring/);
  await expect(page.locator(`[data-row="${first!.id}"] input[value="${first!.max}"]`)).toBeChecked();
  await expect(page.getByLabel('Notes on row 2', { exact: true })).toHaveValue('Half done: the journal, not the digest.');
  await expect(page.getByLabel('Candidate', { exact: true })).toHaveValue('Grace');
  expect(second).toBeDefined();

  // Clear asks; keeping the card keeps everything.
  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Clear this card?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Keep it' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Keep it' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator(`[data-row="${first!.id}"] input[value="${first!.max}"]`)).toBeChecked();

  // Confirmed, it clears the card and the saved copy: a reload brings nothing back.
  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  await dialog.getByRole('button', { name: 'Clear the card' }).click();
  await expect(page.locator('input[type="radio"]:checked')).toHaveCount(0);
  await expect(page.getByLabel('Notes on row 2', { exact: true })).toHaveValue('');
  await page.reload();
  await expect(page.locator('input[type="radio"]:checked')).toHaveCount(0);
  await expect(page.getByLabel('Candidate', { exact: true })).toHaveValue('');
  await expect(page.locator('[data-sheet-status]')).toHaveText('');
});

test('a card given the name of another card is still kept, so New card loses none of its scores', async ({ page }) => {
  const packet = packets[0]!;
  const [first, second] = packet.rubric.rows;
  const tick = (row: typeof first, level: number) => page.locator(`[data-row="${row!.id}"] input[value="${level}"]`);
  await page.goto(`/packets/${packet.id}/rubric/`);
  await page.getByLabel('Candidate', { exact: true }).fill('Grace');
  await tick(first, 0).check();
  await page.getByRole('button', { name: 'New card' }).click();

  // The same name on a second card: the page says so, and keeps scoring it all the same.
  await tick(first, first!.max).check();
  await page.getByLabel('Candidate', { exact: true }).fill('Grace');
  await expect(page.locator('[data-sheet-status]')).toHaveText(/^You already have a card for "Grace"/);
  await tick(second, second!.max).check();
  await page.getByRole('button', { name: 'New card' }).click();

  await expect(page.locator('[data-drafts] li')).toHaveCount(2);
  await page.locator('[data-drafts] li', { hasText: '2 of' }).getByRole('button').click();
  await expect(tick(first, first!.max)).toBeChecked();
  await expect(tick(second, second!.max)).toBeChecked();
  await page.reload();
  await expect(tick(second, second!.max)).toBeChecked();
});

test('tells the candidate and the reviewer which parts are theirs, and gives a score without words the words of where it lies', async ({ page }) => {
  const packet = packets.find((p) => p.rubric.rows.some((r) => Array.from({ length: r.max + 1 }, (_, i) => i).some((i) => !(String(i) in r.levels)))) ?? packets[0]!;
  await page.goto(`/packets/${packet.id}/rubric/`);
  await expect(page.getByRole('heading', { name: 'If you are the candidate' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'If you are the reviewer' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'The reviewer\'s actions' })).toBeVisible();
  for (const row of packet.rubric.rows) {
    for (let points = 0; points <= row.max; points++) {
      const words = page.locator(`[data-row="${row.id}"] label:has(input[value="${points}"]) .words`);
      if (String(points) in row.levels) await expect(words).toHaveText(row.levels[String(points)]!);
      else await expect(words).toHaveText(/^(Between \d+ and \d+|More than \d+|Less than \d+)\.$/);
    }
  }
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the rubric is readable and still a paper card', async ({ page }) => {
    const packet = packets[0]!;
    await page.goto(`/packets/${packet.id}/rubric/`);
    for (const row of packet.rubric.rows) await expect(page.locator(`[data-row="${row.id}"] legend`)).toContainText(row.criterion);
    await expect(page.locator('[data-score-actions]')).toBeHidden();
    await expect(page.getByText('Without JavaScript the card still works on paper')).toBeVisible();
  });
});
