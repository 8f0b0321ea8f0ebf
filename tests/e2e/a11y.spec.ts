import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { PublicPacket } from '../../src/packets/public.ts';
import { expect, test } from './support/fixtures.ts';
import { publicDrills, publicPackets } from './support/packets.ts';

// Read when the file loads, so each page gets its own test (and its own time budget).
const packets: PublicPacket[] = await publicPackets();
const drills = await publicDrills();

/** Violations an axe-core scan rates serious or critical, as readable lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')}: ${n.failureSummary?.split('\n').join(' ')}`));
}

/**
 * The pages a reader meets: the catalog, the error reference, every rubric, and the packet pages
 * of the first and the last packet. Packet pages share one template and one code theme, and each
 * takes axe 5-10 s (it checks the contrast of every highlighted token), so two stand for all.
 */
function pagesToScan(): [string, string][] {
  const pages: [string, string][] = [
    ['catalog', '/'],
    ['error reference', '/errors/'],
  ];
  for (const packet of new Set([packets[0]!, packets.at(-1)!])) pages.push([`packet ${packet.id}`, `/packets/${packet.id}/`]);
  for (const packet of packets) pages.push([`rubric ${packet.id}`, `/packets/${packet.id}/rubric/`]);
  // One lab and one drill, each with its scoring page (the lab and drill specs scan them again once filled in).
  const lab = packets.find((p) => p.lab);
  if (lab) pages.push([`lab ${lab.id}`, `/labs/${lab.id}/`], [`lab scoring ${lab.id}`, `/labs/${lab.id}/score/`]);
  const drill = drills[0];
  if (drill) pages.push([`drill ${drill.id}`, `/drills/${drill.id}/`], [`drill scoring ${drill.id}`, `/drills/${drill.id}/score/`]);
  return pages;
}

for (const [name, url] of pagesToScan()) {
  test(`axe finds no serious or critical violation: ${name}`, async ({ page }) => {
    // axe checks the contrast of every highlighted token: on a busy 2-core machine a packet page takes 10-20 s.
    test.setTimeout(60_000);
    await page.goto(url);
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test.describe('in dark mode', () => {
  test.use({ colorScheme: 'dark' });
  const dark: [string, string][] = [
    ['catalog', '/'],
    ['error reference', '/errors/'],
    [`packet ${packets.at(-1)!.id}`, `/packets/${packets.at(-1)!.id}/`],
    [`rubric ${packets[0]!.id}`, `/packets/${packets[0]!.id}/rubric/`],
  ];
  for (const [name, url] of dark) {
    test(`axe finds no serious or critical violation: ${name}`, async ({ page }) => {
      test.setTimeout(60_000);
      await page.goto(url);
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(13, 17, 23)');
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});

test('no page is wider than a 390 px phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const wide: string[] = [];
  for (const [name, url] of [...pagesToScan(), ...packets.map((p): [string, string] => [`packet ${p.id}`, `/packets/${p.id}/`])]) {
    await page.goto(url);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > 390) wide.push(`${name}: ${width} px`);
  }
  expect(wide).toEqual([]);
});

test('axe finds no serious violation on a scored rubric, a filtered catalog, or the 404 page', async ({ page, problems }) => {
  // Four full axe scans in one test: each takes seconds on a busy 2-core machine.
  test.setTimeout(120_000);
  const packet = packets.find((p) => p.rubric.vetoes.length > 0) ?? packets[0]!;
  await page.goto(`/packets/${packet.id}/rubric/`);
  for (const row of packet.rubric.rows) await page.locator(`[data-row="${row.id}"] input[value="0"]`).check();
  await expect(page.locator('[data-decision]')).toHaveAttribute('data-decision', 'no-hire');
  expect(await seriousViolations(page)).toEqual([]);
  for (const row of packet.rubric.rows) await page.locator(`[data-row="${row.id}"] input[value="${row.max}"]`).check();
  await expect(page.locator('[data-decision]')).toHaveAttribute('data-decision', 'hire');
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto('/?q=zzzz');
  await expect(page.locator('#catalog-count')).toHaveText(/No packet matches/);
  expect(await seriousViolations(page)).toEqual([]);

  const response = await page.goto('/no/such/page/');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  expect(await seriousViolations(page)).toEqual([]);
  problems.length = 0; // the 404 itself is the point here
});

test('every page has a language, landmarks, one h1, a title and the favicon', async ({ page, request }) => {
  const favicon = await request.get('/favicon.svg');
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()['content-type']).toContain('image/svg+xml');
  for (const [name, url] of pagesToScan()) {
    await page.goto(url);
    await expect(page.locator('html'), name).toHaveAttribute('lang', 'en');
    await expect(page.locator('link[rel="icon"]'), name).toHaveAttribute('href', '/favicon.svg');
    await expect(page.getByRole('banner'), name).toHaveCount(1);
    await expect(page.getByRole('main'), name).toHaveCount(1);
    await expect(page.getByRole('contentinfo'), name).toHaveCount(1);
    await expect(page.getByRole('navigation', { name: 'Site' }), name).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 1 }), name).toHaveCount(1);
    expect(await page.title(), name).not.toBe('');
  }
});

test('the error reference has a table of contents, an anchor per code, and each lint rule\'s bad and good example', async ({ page }) => {
  const { catalogEntries } = await import('../../src/errors/catalog.ts');
  const { lintRules } = await import('../../src/lint/rules/index.ts');
  await page.goto('/errors/#PK213');
  const entries = catalogEntries();
  const toc = page.getByRole('navigation', { name: 'Error codes' });
  await expect(toc.getByRole('link')).toHaveCount(entries.length + new Set(entries.map((e) => e.code[2])).size);
  for (const e of entries) await expect(page.locator(`article#${e.code}`)).toHaveCount(1);
  await expect(page.locator('#PK213')).toBeInViewport();
  for (const rule of lintRules) {
    const example = page.locator(`#${rule.entry.code} [data-rule="${rule.id}"]`);
    await expect(example.locator('figure').first()).toContainText(rule.docs.bad.split('\n')[0]!);
    await expect(example.locator('figure').last()).toContainText(rule.docs.good.split('\n')[0]!);
  }
  await toc.getByRole('link', { name: /PK106/ }).click();
  await expect(page).toHaveURL(/\/errors\/#PK106$/);
});

test('the skip link and focus are visible from the keyboard', async ({ page }) => {
  await page.goto('/');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  const outline = await skip.evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe('none');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#main$/);
});
