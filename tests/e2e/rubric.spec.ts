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

    // Clearing the card clears the decision.
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect(decision(page)).toHaveText(/Tick one score per row/);
    await expect(page.locator('input[type="radio"]:checked')).toHaveCount(0);
  });
}

test('the scoring form works from the keyboard alone', async ({ page }) => {
  const packet = packets.find((p) => p.rubric.vetoes.length > 0) ?? packets[0]!;
  await page.goto(`/packets/${packet.id}/rubric/`);
  await page.getByLabel('Reviewer', { exact: true }).focus();
  for (const row of packet.rubric.rows) {
    await page.keyboard.press('Tab'); // into the row's radio group, on its first radio
    await expect(page.locator(`[data-row="${row.id}"] input[value="0"]`)).toBeFocused();
    await page.keyboard.press('Space');
    for (let i = 0; i < row.max; i++) await page.keyboard.press('ArrowRight');
    await expect(page.locator(`[data-row="${row.id}"] input[value="${row.max}"]`)).toBeChecked();
  }
  await expect(page.locator('[data-decision]')).toHaveAttribute('data-decision', 'hire');
  // Back up to a vetoed row (Shift+Tab) and lower it to its veto threshold with the arrows.
  const veto = packet.rubric.vetoes[0];
  if (veto) {
    const rows = packet.rubric.rows;
    const index = rows.findIndex((r) => r.id === veto.row);
    for (let i = rows.length - 1; i > index; i--) await page.keyboard.press('Shift+Tab');
    await expect(page.locator(`[data-row="${veto.row}"] input[value="${rows[index]!.max}"]`)).toBeFocused();
    for (let i = rows[index]!.max; i > veto.atMost; i--) await page.keyboard.press('ArrowLeft');
    await expect(page.locator(`[data-row="${veto.row}"] input[value="${veto.atMost}"]`)).toBeChecked();
    await expect(page.locator('[data-decision]')).toHaveAttribute('data-decision', 'no-hire');
  }
});

test('a scored sheet exports as JSON with the digest, and imports back; a sheet of another version is refused', async ({ page }, testInfo) => {
  const packet = packets.find((p) => p.rubric.vetoes.length > 0) ?? packets[0]!;
  const veto = packet.rubric.vetoes[0];
  const scores = { ...fullMarks(packet), ...(veto ? { [veto.row]: veto.atMost } : {}) };
  await page.goto(`/packets/${packet.id}/rubric/`);

  // Exporting an incomplete card is refused.
  await page.getByRole('button', { name: 'Export scored sheet (JSON)' }).click();
  await expect(page.locator('[data-sheet-status]')).toHaveText(/Score every row before exporting/);

  await score(page, scores);
  await page.getByLabel('Candidate', { exact: true }).fill('Ada Lovelace');
  await page.getByLabel('Reviewer', { exact: true }).fill('Sam');
  const expectedText = await decision(page).textContent();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export scored sheet (JSON)' }).click()]);
  expect(download.suggestedFilename()).toBe(`${packet.id}-${packet.prompt.version}-scored-ada-lovelace.json`);
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
    decision: { decision: veto ? 'no-hire' : 'hire' },
  });
  expect(Number.isNaN(Date.parse(sheet.date))).toBe(false);

  // A fresh page, then the sheet read back: the same ticks, names and decision.
  await page.reload();
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page.locator('input[type="radio"]:checked')).toHaveCount(0);
  await page.getByLabel('Import a scored sheet').setInputFiles(file);
  await expect(page.locator('[data-sheet-status]')).toHaveText(/^Imported sheet\.json/);
  for (const [row, points] of Object.entries(scores)) await expect(page.locator(`[data-row="${row}"] input[value="${points}"]`)).toBeChecked();
  await expect(page.getByLabel('Candidate', { exact: true })).toHaveValue('Ada Lovelace');
  await expect(decision(page)).toHaveText(expectedText!);

  // The same sheet pinned to another digest: refused, and the card is left as it was.
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByLabel('Import a scored sheet').setInputFiles({
    name: 'old.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ ...sheet, digest: 'f'.repeat(64), version: '0.0.1' })),
  });
  await expect(page.locator('[data-sheet-status]')).toHaveText(/scored on another version .*version 0\.0\.1, digest ffffffffffff.*nothing was changed/);
  await expect(page.locator('input[type="radio"]:checked')).toHaveCount(0);
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
