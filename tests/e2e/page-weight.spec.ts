import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/fixtures.ts';
import type { Page, Request, Response } from '@playwright/test';
import { publicDrills, publicPackets } from './support/packets.ts';

/**
 * The JavaScript a page loads, read from the built site: its module scripts (by src and inline)
 * and every module they import, statically or on demand, counted once each, in bytes.
 */
function scriptBytes(dist: string, page: string): { bytes: number; files: Record<string, number> } {
  const html = readFileSync(path.join(dist, page, 'index.html'), 'utf8');
  const files: Record<string, number> = {};
  let inline = 0;
  const queue: string[] = [];
  const importsOf = (js: string, from: string) => {
    for (const m of js.matchAll(/(?:\bimport\s*\(?|\bfrom)\s*["']([^"']+\.js)["']/g)) queue.push(path.posix.resolve(path.posix.dirname(from), m[1]!));
  };
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const attrs = m[1]!;
    const src = /\bsrc="([^"]+)"/.exec(attrs)?.[1];
    if (src) queue.push(src);
    else if (!/type="application\/(ld\+)?json"/.test(attrs)) {
      inline += Buffer.byteLength(m[2]!);
      importsOf(m[2]!, `/${page}/`);
    }
  }
  while (queue.length) {
    const url = queue.shift()!;
    if (url in files) continue;
    const file = path.join(dist, url);
    if (!existsSync(file)) throw new Error(`${page} loads ${url}, which the build does not hold`);
    const js = readFileSync(file, 'utf8');
    files[url] = Buffer.byteLength(js);
    importsOf(js, url);
  }
  return { bytes: inline + Object.values(files).reduce((a, b) => a + b, 0), files };
}

test('the drill page loads under 20 KB of JavaScript, no schema library among it', async () => {
  const dist = process.env.PACKET_KIT_E2E_DIST!;
  for (const drill of await publicDrills()) {
    const { bytes, files } = scriptBytes(dist, `drills/${drill.id}`);
    expect(Object.keys(files).length, 'the drill page loads its script').toBeGreaterThan(0);
    const withZod = Object.keys(files).filter((url) => /\$ZodType|__zod_globalConfig/.test(readFileSync(path.join(dist, url), 'utf8')));
    expect(withZod, 'scripts of the drill page that carry zod').toEqual([]);
    expect(bytes, `the drill page's scripts: ${JSON.stringify(files)}`).toBeLessThan(20 * 1024);
  }
});

/** Half of the 461,005 bytes of JavaScript the lab page loaded before (CodeMirror 365 KB, zod 95 KB). */
const LAB_ON_LOAD_LIMIT = 230_500;

/**
 * The JavaScript a page has loaded so far, read from the network: the body of every script
 * response, and the inline scripts of the page, in bytes. Every script request must have been
 * answered: a script still loading or failed is never counted as weightless.
 */
function scriptsOf(page: Page): { read(): Promise<{ bytes: number; files: Record<string, number> }>; stop(): void } {
  const responses: Promise<[string, number]>[] = [];
  const requested = new Set<string>();
  const onRequest = (r: Request) => {
    if (r.resourceType() === 'script') requested.add(r.url());
  };
  const onResponse = (r: Response) => {
    if (r.request().resourceType() === 'script') responses.push(r.body().then((b) => [new URL(r.url()).pathname, b.length]));
  };
  page.on('request', onRequest);
  page.on('response', onResponse);
  return {
    stop() {
      page.off('request', onRequest);
      page.off('response', onResponse);
    },
    async read() {
      const files = Object.fromEntries(await Promise.all(responses));
      expect(Object.keys(files).length, 'every script the page requested was answered').toBe(requested.size);
      const inline = await page.evaluate(() =>
        [...document.querySelectorAll('script:not([src])')]
          .filter((s) => !/json/.test(s.getAttribute('type') ?? ''))
          .reduce((n, s) => n + new TextEncoder().encode(s.textContent ?? '').length, 0),
      );
      if (inline) files['(inline)'] = inline;
      return { bytes: Object.values(files).reduce((a, b) => a + b, 0), files };
    },
  };
}

test(`the lab page loads under ${LAB_ON_LOAD_LIMIT.toLocaleString('en')} bytes of JavaScript to read the code and choose; the editor loads with the first hand edit`, async ({ page }, testInfo) => {
  const labs = (await publicPackets()).filter((p) => p.lab);
  expect(labs.length, 'the shipped labs').toBeGreaterThan(0);
  // A routed page keeps no HTTP cache: every lab's page loads all of its scripts from the network.
  await page.route('**/*', (route) => route.continue());
  for (const lab of labs) {
    const scripts = scriptsOf(page);
    await page.goto(`/labs/${lab.id}/`);
    await expect(page.locator('[data-run-tests]')).toBeEnabled();
    // Read the code and choose: the first suggestion accepted, its offered code in the file view.
    const first = lab.lab!.suggestions[0]!;
    await page.getByRole('group', { name: `Your choice on ${first.id}` }).getByLabel('Accept as offered').check();
    const offered = first.offered.split('\n').find((l) => l.trim() !== '')!.trim();
    await expect(page.locator(`[data-editor="${first.file}"] [data-region="${first.id}"]`, { hasText: offered }).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    const onLoad = await scripts.read();

    // A hand edit: click into a region, type; the editor is there for it.
    await page.locator(`[data-editor="${first.file}"] [data-region="${first.id}"]`).first().click();
    await expect(page.locator(`[data-editor="${first.file}"] .cm-content`)).toBeFocused();
    await page.keyboard.press('End');
    await page.keyboard.insertText('  # by hand');
    await expect(page.locator(`[data-suggestion="${first.id}"] [data-hand-note]`)).toBeVisible();
    await page.waitForLoadState('networkidle');
    const total = await scripts.read();

    const figure = `${lab.id}: ${onLoad.bytes.toLocaleString('en')} bytes of JavaScript on load, ${total.bytes.toLocaleString('en')} after a hand edit`;
    console.log(figure);
    testInfo.annotations.push({ type: 'lab page weight', description: figure });
    expect(onLoad.bytes, `${lab.id} on load: ${JSON.stringify(onLoad.files)}`).toBeLessThan(LAB_ON_LOAD_LIMIT);
    // The editor is CodeMirror itself (view, state, history, the Python grammar), under the old page's weight.
    expect(total.bytes, `${lab.id} after a hand edit: ${JSON.stringify(total.files)}`).toBeGreaterThan(onLoad.bytes);
    expect(total.bytes, `${lab.id} after a hand edit: ${JSON.stringify(total.files)}`).toBeLessThan(400_000);
    scripts.stop();
  }
});
