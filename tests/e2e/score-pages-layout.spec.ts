import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { DRILL_SHEET_KIND, LAB_SHEET_KIND, SHEET_SCHEMA_VERSION } from '../../src/labs/sheets.ts';
import { expect, test } from './support/fixtures.ts';
import { pagesIn } from './support/print.ts';
import { reviewerFile } from './support/reviewer.ts';
import { builtScorePage, drillAnswers, gradeSummary, jsonFile, labAnswers, roundTimeline, sheetScorecard, type BuiltScorePage } from './support/score-cards.ts';

/**
 * The lab and drill scoring pages in both themes, on a desktop and a phone, and on paper: axe
 * finds nothing (contrast included) with a sheet and with a scorecard loaded; at 390 px every
 * table stacks and nothing scrolls sideways; a loaded card with a note on every row prints on
 * one A4 and one Letter page.
 */
const PAGES = [
  { kind: 'lab' as const, id: 'lab-signup-form', keyFile: 'LAB-KEY.json' },
  { kind: 'drill' as const, id: 'drill-retry-backoff', keyFile: 'DRILL-KEY.json' },
];
const NOTE = 'Retries are capped and the cap is read from the config; NOTES.md says why the abort comes first. One log line still names the old target.';

/** Every axe violation, whatever its impact, as readable lines. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')}: ${n.failureSummary?.split('\n').join(' ')}`));
}

/** Load the key and an answer sheet with a timeline, a hand edit on a lab. */
async function loadSheet(page: Page, p: (typeof PAGES)[number], built: BuiltScorePage) {
  const keyBytes = reviewerFile(p.id, built.card.version, p.keyFile);
  expect(keyBytes, 'the key in the reviewer bundle').toBeDefined();
  const key = JSON.parse(keyBytes!.toString()) as { suggestions?: string[]; key: { id?: string; choice?: string; verdict?: string }[] };
  const base = { schemaVersion: SHEET_SCHEMA_VERSION, id: p.id, version: built.card.version, digest: built.card.digest, date: '2026-12-01T10:31:05.000Z', candidate: 'Kim' };
  const ids = built.items.map((i) => i.id);
  // A sheet's reader refuses an action the page never records, so the sheet keeps only the page's own.
  const sheetTimeline = roundTimeline(ids).filter((e) => e.action !== 'teleport');
  const sheet =
    p.kind === 'lab'
      ? { ...base, kind: LAB_SHEET_KIND, plan: { endState: 'e', checkpoints: 'c', invariant: 'i', byHand: 'b' }, suggestions: key.suggestions!.map((id, i) => ({ id, choice: key.key[i]!.choice, reason: `Why ${id}.`, ...(i === 0 ? { hand: 'a hand-written region\n'.repeat(3) } : {}) })), timeline: sheetTimeline }
      : { ...base, kind: DRILL_SHEET_KIND, diffs: key.key.map((k) => ({ id: k.id, verdict: k.verdict, reason: `Why ${k.id}.` })), timeline: sheetTimeline };
  await page.getByLabel(`The ${p.kind}'s key (${p.keyFile})`).setInputFiles({ name: p.keyFile, mimeType: 'application/json', buffer: keyBytes! });
  await page.getByLabel("The candidate's answer sheet").setInputFiles(jsonFile('kim.json', sheet));
  await expect(page.locator('[data-compare]')).toBeVisible();
}

/** Load a batch of two scorecards (the queue shown), the first open. */
async function loadBatch(page: Page, built: BuiltScorePage) {
  const answers = built.kind === 'lab' ? labAnswers : drillAnswers;
  const auto = built.card.rubric.rows.filter((r) => r.auto);
  // Scores the answers support (the page refuses a card whose rows its answers do not bear out).
  const scores = Object.fromEntries(auto.map((r) => [r.id, 0]));
  const findings = [{ code: 'PK541', name: 'x', kind: 'evidence', severity: 'warning' as const, message: 'A long finding message that names a file, a line and what it means for the verdict, so it wraps.', hint: '' }];
  const a = sheetScorecard(built, { name: 'kim', scores, answers: answers(built, 'Kim Lee', { timeline: roundTimeline(built.items.map((i) => i.id)) }), findings });
  const b = sheetScorecard(built, { name: 'ola', scores, answers: answers(built, 'Ola') });
  await page.getByLabel("A scorecard.json or a batch's summary.json").setInputFiles(jsonFile('summary.json', gradeSummary(built, [
    { name: 'kim', scorecard: a, verdict: 'PASS', decision: 'pending', codes: ['PK541'] },
    { name: 'ola', scorecard: b, verdict: 'PASS', decision: 'pending', codes: [] },
  ])));
  await expect(page.getByLabel('Candidate', { exact: true })).toHaveValue('Kim Lee');
  await expect(page.locator('[data-sheet-queue]')).toBeVisible();
}

for (const p of PAGES) {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      test(`${p.kind} scoring, ${colorScheme}, ${width} px: axe finds nothing with a sheet and with a scorecard loaded`, async ({ page }) => {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`/${p.kind}s/${p.id}/score/`);
        const built = await builtScorePage(page, p.kind);
        await loadSheet(page, p, built);
        expect.soft(await violations(page), 'with a sheet loaded').toEqual([]);
        await loadBatch(page, built);
        expect(await violations(page), 'with a scorecard loaded').toEqual([]);
      });
    }
  }

  test(`${p.kind} scoring at 390 px: every table stacks and nothing scrolls sideways`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 900 });
    await page.goto(`/${p.kind}s/${p.id}/score/`);
    const built = await builtScorePage(page, p.kind);
    const width = async () => page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, client: document.scrollingElement!.clientWidth }));
    const empty = await width();
    expect.soft(empty.scroll, `nothing loaded: page width ${empty.scroll} px over ${empty.client} px`).toBeLessThanOrEqual(empty.client);
    const check = async (what: string) => {
      const tables = await page.locator('.scoring table').evaluateAll((all) =>
        all
          .filter((t) => (t as HTMLElement).offsetParent !== null && t.querySelector('tbody tr'))
          .map((t) => ({ table: t.className || t.querySelector('tbody')?.getAttributeNames().find((n) => n.startsWith('data-')) || 'table', cells: [...t.querySelectorAll('tbody td')].filter((td) => getComputedStyle(td).display !== 'block').length })),
      );
      expect.soft(tables.length, `${what}: tables with rows shown`).toBeGreaterThan(0);
      for (const t of tables) expect.soft(t.cells, `${what}: cells of ${t.table} not stacked`).toBe(0);
      const scroll = await width();
      expect.soft(scroll.scroll, `${what}: page width ${scroll.scroll} px over ${scroll.client} px`).toBeLessThanOrEqual(scroll.client);
    };
    await loadSheet(page, p, built);
    await check('a sheet loaded');
    await loadBatch(page, built);
    await check('a batch loaded');
    const queueCells = await page.locator('[data-sheet-queue-rows] td').evaluateAll((tds) => tds.filter((td) => getComputedStyle(td).display !== 'block').length);
    expect(queueCells, 'the batch list stacks').toBe(0);
  });

  test(`${p.kind} scoring: a loaded scorecard with a note on every row prints on one A4 and one Letter page`, async ({ page }) => {
    await page.goto(`/${p.kind}s/${p.id}/score/`);
    const built = await builtScorePage(page, p.kind);
    await loadBatch(page, built);
    await page.getByLabel('Reviewer', { exact: true }).fill('Grace Hopper');
    for (const [i, row] of built.card.rubric.rows.entries()) {
      if (!row.auto) await page.locator(`[data-row="${row.id}"] input[value="${row.max}"]`).check();
      await page.getByLabel(`Notes on row ${i + 1}`, { exact: true }).fill(NOTE);
    }
    // Every row scored: the card is decided (its automatic rows at 0, as its answers bear out, leave it a no-hire).
    await expect(page.locator('[data-decision]')).toHaveAttribute('data-decision', 'no-hire');
    await page.emulateMedia({ media: 'print' });
    const pages = await pagesIn(page);
    test.info().annotations.push({ type: 'pdf pages', description: `${p.id}: A4 ${pages.A4}, Letter ${pages.Letter}` });
    expect(pages).toEqual({ A4: 1, Letter: 1 });
  });
}
