import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { test } from './support/fixtures.ts';
import { ROOT } from './support/packets.ts';

// Pictures for a person to look at, not assertions: `npm run screenshots` writes them to out/screenshots/.

const OUT = path.join(ROOT, 'out/screenshots');
const PAGES = [
  ['catalog', '/'],
  ['packet', '/packets/agent-budget-receipt/'],
  ['rubric', '/packets/red-log-gate/rubric/'],
  ['errors', '/errors/'],
] as const;

for (const [name, url] of PAGES) {
  test(`screenshot: ${name}`, async ({ page }) => {
    await mkdir(OUT, { recursive: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(url);
    await page.screenshot({ path: path.join(OUT, `${name}.png`), fullPage: true });
    await page.screenshot({ path: path.join(OUT, `${name}-top.png`) });
    if (name === 'packet') await page.locator('[data-starter]').screenshot({ path: path.join(OUT, 'packet-starter.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(OUT, `${name}-mobile.png`), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: path.join(OUT, `${name}-mobile-dark.png`), fullPage: false });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: path.join(OUT, `${name}-dark.png`) });
    await page.emulateMedia({ colorScheme: 'light' });
    if (name === 'rubric') {
      await page.setViewportSize({ width: 1280, height: 900 });
      for (const row of await page.locator('fieldset[data-row]').all()) await row.locator('input[type="radio"]').last().check();
      await page.locator('fieldset[data-row]').nth(1).locator('input[value="0"]').check();
      await page.locator('.tally').screenshot({ path: path.join(OUT, 'rubric-scored.png') });
      await page.emulateMedia({ media: 'print' });
      await page.setViewportSize({ width: 794, height: 1123 });
      await page.screenshot({ path: path.join(OUT, 'rubric-print.png'), fullPage: true });
    }
  });
}
