import type { Page } from '@playwright/test';
import { DRILL_SHEET_KIND, SHEET_SCHEMA_VERSION } from '../../src/labs/sheets.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { publicDrills, publicPackets } from './support/packets.ts';
import { reviewerFile } from './support/reviewer.ts';

/**
 * The pages a candidate and a reviewer must find: a lab's packet page leads to the lab and to its
 * scoring page, a drill leads to its rubric and its scoring page, every reviewer bundle names a
 * scoring page the site has, and the scoring pages fit a 390 px phone.
 */
const drillId = 'drill-retry-backoff';
const labId = 'lab-signup-form';

/** Follow a link and land on a page with a level-1 heading (the fixture fails the test on a 404). */
async function follow(page: Page, link: ReturnType<Page['locator']>, href: string) {
  await expect(link).toHaveAttribute('href', href);
  await Promise.all([page.waitForURL(`**${href}`), link.click()]);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

test("a lab's packet page leads to the lab itself, says the zip is the offline copy, and sends reviewers to the lab's scoring page", async ({ page }) => {
  await page.goto(`/packets/${labId}/`);
  const doLab = page.locator('[data-lab-link]');
  await expect(doLab).toContainText('The zip below is the offline copy');
  await expect(page.locator('[data-rubric-link]')).toHaveAttribute('href', `/labs/${labId}/score/`);
  await expect(page.locator('[data-reviewer] [data-scoring-link]')).toHaveAttribute('href', `/labs/${labId}/score/`);
  await follow(page, doLab.getByRole('link', { name: 'Open the lab' }), `/labs/${labId}/`);
  await follow(page, page.getByRole('link', { name: 'the rubric you are scored on' }), `/labs/${labId}/score/`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Lab scoring');
});

test("a take-home's packet page names its scoring page for the reviewer, and has no lab link", async ({ page }) => {
  const takehome = (await publicPackets()).find((p) => p.prompt.kind !== 'lab')!;
  await page.goto(`/packets/${takehome.id}/`);
  await expect(page.locator('[data-lab-link]')).toHaveCount(0);
  await follow(page, page.locator('[data-reviewer] [data-scoring-link]'), `/packets/${takehome.id}/rubric/`);
});

test('a drill leads to its rubric and its scoring page; the rubric page shows rows, levels, hire bar and vetoes, and no reviewer notes', async ({ page }) => {
  const drill = (await publicDrills()).find((d) => d.id === drillId)!;
  await page.goto(`/drills/${drillId}/`);
  await expect(page.locator('[data-scoring-link]')).toHaveAttribute('href', `/drills/${drillId}/score/`);
  await follow(page, page.locator('[data-rubric-link]'), `/drills/${drillId}/rubric/`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(drill.prompt.title);
  await expect(page.locator('[data-fact="digest"]')).toHaveText(drill.digest);
  const { rows, hireBar, vetoes } = drill.rubric;
  await expect(page.locator('[data-row]')).toHaveCount(rows.length);
  for (const row of rows) {
    const shown = page.locator(`[data-row="${row.id}"]`);
    await expect(shown).toContainText(row.criterion);
    await expect(shown.locator('dt')).toHaveCount(row.max + 1);
    for (const words of Object.values(row.levels)) await expect(shown).toContainText(words.trim().replace(/\s+/g, ' '));
  }
  await expect(page.locator('[data-hire-bar]')).toHaveText(String(hireBar));
  await expect(page.locator('[data-veto]')).toHaveCount(vetoes.length);
  for (const v of vetoes) await expect(page.locator(`[data-veto="${v.row}"]`)).toContainText(v.note.trim().replace(/\s+/g, ' '));
  // A page to read: no scorecard import, no form, and the rubric's reviewer-only notes stay in KEY.md.
  await expect(page.locator('input, textarea, form')).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText('scorecard.json');
  await expect(page.locator('body')).not.toContainText('Read the reasons before the verdicts.');
  await follow(page, page.locator('[data-scoring-link]'), `/drills/${drillId}/score/`);
});

test('every reviewer bundle names in KEY.md a scoring page the site has, the one of its kind', async ({ page }) => {
  const expected = [
    ...(await publicPackets()).map((p) => ({ id: p.id, version: p.prompt.version, href: p.prompt.kind === 'lab' ? `/labs/${p.id}/score/` : `/packets/${p.id}/rubric/` })),
    ...(await publicDrills()).map((d) => ({ id: d.id, version: d.prompt.version, href: `/drills/${d.id}/score/` })),
  ];
  for (const { id, version, href } of expected) {
    const key = reviewerFile(id, version, 'KEY.md');
    expect(key, `KEY.md of ${id}`).toBeDefined();
    expect(key!.toString(), `KEY.md of ${id}`).toContain(`Scoring page on the packet site: \`${href}\``);
    const response = await page.request.get(href);
    expect(response.status(), href).toBe(200);
  }
});

test.describe('the scoring pages on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('no sideways scroll, before and after a sheet is imported', async ({ page }) => {
    test.setTimeout(90_000);
    const wide: string[] = [];
    const measure = async (name: string) => {
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 390) wide.push(`${name}: ${width} px`);
    };
    for (const url of [`/drills/${drillId}/score/`, `/labs/${labId}/score/`]) {
      await page.goto(url);
      await measure(url);
    }
    expect(wide, 'before a sheet is imported').toEqual([]);
    const drill = (await publicDrills()).find((d) => d.id === drillId)!;
    await page.goto(`/drills/${drillId}/score/`);
    // The version the page scores, read from the page: the key and the sheet are for that one.
    const version = (await page.locator('[data-fact="version"]').textContent())!.trim();
    const digest = (await page.locator('[data-fact="digest"]').textContent())!.trim();
    const key = reviewerFile(drill.id, version, 'DRILL-KEY.json');
    expect(key, 'DRILL-KEY.json in the reviewer bundle').toBeDefined();
    await page.getByLabel("The drill's key (DRILL-KEY.json)").setInputFiles({ name: 'DRILL-KEY.json', mimeType: 'application/json', buffer: key! });
    const sheet = {
      schemaVersion: SHEET_SCHEMA_VERSION,
      kind: DRILL_SHEET_KIND,
      id: drill.id,
      version,
      digest,
      date: '2026-12-01T10:00:00.000Z',
      diffs: drill.diffs.map((d) => ({ id: d.id, verdict: 'accept-with-change', reason: `A long reason about ${d.id}: what would happen in production under load.`, change: 'Retry only idempotent requests.' })),
    };
    await page.getByLabel("The candidate's answer sheet").setInputFiles({ name: 'sheet.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(sheet)) });
    await expect(page.locator('[data-compare-rows] tr')).toHaveCount(drill.diffs.length);
    await measure(`/drills/${drillId}/score/ with a sheet`);
    expect(wide).toEqual([]);
  });
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`the drill rubric page in ${scheme} mode`, () => {
    test.use({ colorScheme: scheme });
    for (const width of [1280, 390]) {
      test(`axe finds no serious violation at ${width} px, and nothing wider than the window`, async ({ page }) => {
        test.setTimeout(60_000);
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`/drills/${drillId}/rubric/`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scroll').toBeLessThanOrEqual(width);
        expect(await seriousViolations(page)).toEqual([]);
      });
    }
  });
}
