import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import type { PublicPacket } from '../../src/packets/public.ts';
import { expect, test } from './support/fixtures.ts';
import { publicPackets, ROOT } from './support/packets.ts';
import { pagesIn } from './support/print.ts';

/**
 * The printed rubric card: scored with a note on every row it still fits one A4 and one Letter
 * page, every note printed whole and the decision ticked; a blank card leaves room to write on
 * every row, on one page too.
 */
const packets: PublicPacket[] = await publicPackets();

/** A reviewer's note of two sentences, about as long as a row's reason needs. */
const NOTE = 'Retries are capped and the cap is read from the config; NOTES.md says why the abort comes first. One log line still names the old target.';

/** One millimetre in CSS pixels. */
const MM = 96 / 25.4;

/** Score every row (each vetoed row at `vetoed` when given), with a note on each, and the names. */
async function scoreWithNotes(page: Page, packet: PublicPacket, vetoed?: string) {
  await page.getByLabel('Candidate', { exact: true }).fill('Ada Lovelace');
  await page.getByLabel('Reviewer', { exact: true }).fill('Grace Hopper');
  for (const [i, row] of packet.rubric.rows.entries()) {
    const veto = packet.rubric.vetoes.find((v) => v.row === row.id);
    const points = vetoed === row.id && veto ? veto.atMost : row.max;
    await page.locator(`[data-row="${row.id}"] input[value="${points}"]`).check();
    await page.getByLabel(`Notes on row ${i + 1}`, { exact: true }).fill(NOTE);
  }
}

/** The printed decision line, as a printer shows it (hidden boxes left out). */
const printedTicks = async (page: Page) => (await page.locator('.tally .hand').innerText()).replace(/\s+/g, ' ').trim();

for (const packet of packets) {
  test(`a scored card with a note on every row prints on one A4 and one Letter page, notes whole, the decision ticked: ${packet.id}`, async ({ page }) => {
    await page.goto(`/packets/${packet.id}/rubric/`);
    await scoreWithNotes(page, packet);
    await expect(page.locator('[data-decision]')).toHaveAttribute('data-decision', 'hire');
    await page.emulateMedia({ media: 'print' });
    expect.soft(await printedTicks(page)).toBe('Hire ☒ No hire ☐');
    // Every note prints whole: no textarea hides a line behind its own scroll.
    const cut = await page.locator('textarea[data-note]').evaluateAll((fields) =>
      fields.filter((f) => f.scrollHeight > f.clientHeight + 1 || getComputedStyle(f).display === 'none').map((f) => (f as HTMLTextAreaElement).dataset.note),
    );
    expect.soft(cut, 'notes cut or hidden in print').toEqual([]);
    const pages = await pagesIn(page);
    test.info().annotations.push({ type: 'pdf pages', description: `${packet.id}: A4 ${pages.A4}, Letter ${pages.Letter}` });
    expect(pages).toEqual({ A4: 1, Letter: 1 });
  });
}

test('a vetoed card prints "No hire" ticked, and an unfinished card leaves both boxes for the pen', async ({ page }) => {
  const packet = packets.find((p) => p.rubric.vetoes.length > 0)!;
  await page.goto(`/packets/${packet.id}/rubric/`);
  await page.emulateMedia({ media: 'print' });
  expect.soft(await printedTicks(page)).toBe('Hire ☐ No hire ☐');
  await scoreWithNotes(page, packet, packet.rubric.vetoes[0]!.row);
  await expect(page.locator('[data-decision]')).toHaveAttribute('data-decision', 'no-hire');
  expect(await printedTicks(page)).toBe('Hire ☐ No hire ☒');
  expect(await pagesIn(page)).toEqual({ A4: 1, Letter: 1 });
});

for (const packet of packets) {
  test(`a blank card leaves room to write a note on every row, on one A4 and one Letter page: ${packet.id}`, async ({ page }) => {
    await page.goto(`/packets/${packet.id}/rubric/`);
    await expect(page.locator('fieldset[data-row]')).toHaveCount(packet.rubric.rows.length);
    await page.emulateMedia({ media: 'print' });
    const room = await page.locator('fieldset[data-row]').evaluateAll((rows) =>
      rows.map((row) => {
        const note = row.querySelector<HTMLElement>('.note');
        return { row: (row as HTMLElement).dataset.row, mm: note && getComputedStyle(note).display !== 'none' ? note.getBoundingClientRect().height : 0 };
      }),
    );
    for (const r of room) expect.soft(r.mm / MM, `writing room on row ${r.row}, in mm`).toBeGreaterThanOrEqual(7);
    expect(await pagesIn(page)).toEqual({ A4: 1, Letter: 1 });
  });
}

test('each scorecard of a calibration set, imported, scored and noted on every row, prints on one A4 and one Letter page with its decision ticked', async ({ page }) => {
  test.setTimeout(180_000);
  // The packet whose scored card is the longest: five rows, three vetoes, evidence on its automatic rows.
  const id = 'idempotent-intake';
  const dir = await mkdtemp(path.join(tmpdir(), 'packet-calibrate-print-'));
  try {
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'src/cli/bin.js'), 'calibrate', id, '--out', dir], { cwd: ROOT });
    const grades = path.join(dir, id, 'reviewer', 'grades', id);
    const names = (await readdir(grades)).filter((n) => n.startsWith('cal-')).sort();
    expect(names.length).toBeGreaterThan(1);
    for (const name of names) {
      const card = JSON.parse(await readFile(path.join(grades, name, 'scorecard.json'), 'utf8')) as { rows: { id: string; score: number | null }[] };
      await page.emulateMedia({ media: 'screen' });
      await page.goto(`/packets/${id}/rubric/`);
      await page.getByLabel('Import a sheet or scorecard.json').setInputFiles(path.join(grades, name, 'scorecard.json'));
      await expect(page.getByLabel('Candidate', { exact: true })).toHaveValue(name);
      await page.getByLabel('Reviewer', { exact: true }).fill('Grace Hopper');
      for (const [i, row] of card.rows.entries()) {
        // A judgement row at its best allowed score (a cap disables the scores above it).
        if (row.score === null) await page.locator(`[data-row="${row.id}"] input[type="radio"]:not(:disabled)`).last().check();
        await page.getByLabel(`Notes on row ${i + 1}`, { exact: true }).fill(NOTE);
      }
      const decision = await page.locator('[data-decision]').getAttribute('data-decision');
      expect(decision === 'hire' || decision === 'no-hire', `${name} decided`).toBe(true);
      await page.emulateMedia({ media: 'print' });
      expect.soft(await printedTicks(page), name).toBe(decision === 'hire' ? 'Hire ☒ No hire ☐' : 'Hire ☐ No hire ☒');
      expect(await pagesIn(page), `${name} printed`).toEqual({ A4: 1, Letter: 1 });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
