import AxeBuilder from '@axe-core/playwright';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import type { PublicPacket } from '../../src/packets/public.ts';
import { LAB_SHEET_KIND, SHEET_SCHEMA_VERSION } from '../../src/labs/sheets.ts';
import { expect, test } from './support/fixtures.ts';
import { publicVariant, ROOT } from './support/packets.ts';
import { variantKeyFile } from './support/reviewer.ts';

/**
 * The lab scoring page of a lab with variants says which variant each file loaded is (docs/variants.md):
 * the key's and the sheet's by their digest, a scorecard's by its card's `variant.id`, and the batch
 * of a summary.json has a Variant column, so a reviewer checks their roster there. A scorecard's
 * variant is the file's words: shown as text, never as markup. A lab without variants shows none of it.
 */
const run = promisify(execFile);
const LAB = 'lab-paginate-results';
let v1: PublicPacket;
let v2: PublicPacket;
test.beforeAll(async () => {
  [v1, v2] = await Promise.all([publicVariant(LAB, 1), publicVariant(LAB, 2)]);
});

type Key = { digest: string; key: { choice: string }[] };
/** A sheet of a variant answered as its key, as its page would export it. */
const sheetOf = (p: PublicPacket, key: Key, who: string) => ({
  schemaVersion: SHEET_SCHEMA_VERSION,
  kind: LAB_SHEET_KIND,
  id: LAB,
  version: p.prompt.version,
  digest: p.variant!.digest,
  variant: p.variant!.id,
  date: '2026-12-01T10:31:05.000Z',
  candidate: who,
  plan: { endState: 'e', checkpoints: 'c', invariant: 'i', byHand: 'b' },
  suggestions: p.lab!.suggestions.map((s, i) => ({ id: s.id, choice: key.key[i]!.choice, reason: `Why ${s.id}.` })),
  timeline: [{ at: '2026-12-01T10:00:00.000Z', action: 'start' }],
});
/** Every axe violation, whatever its impact, as readable lines (as score-pages-layout.spec.ts checks). */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')}: ${n.failureSummary?.split('\n').join(' ')}`));
}
const json = (name: string, value: unknown) => ({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(value)) });

test('the scoring page shows the variant of the key, the sheet, a scorecard and each row of a batch, as text', async ({ page }) => {
  test.setTimeout(240_000);
  const keys = [variantKeyFile(LAB, v1.prompt.version, 'v1'), variantKeyFile(LAB, v2.prompt.version, 'v2')];
  test.skip(!keys[0] || !keys[1], 'the site under test was built without reviewer bundles');
  const [k1, k2] = keys.map((k) => JSON.parse(k!.toString()) as Key);
  expect(k2!.digest).toBe(v2.variant!.digest);
  const loaded = page.locator('[data-loaded-variant]');

  // A v2 key and a v2 sheet.
  await page.goto(`/labs/${LAB}/score/`);
  await expect(loaded).toBeHidden();
  await page.getByLabel("The lab's key (LAB-KEY.json)").setInputFiles(json('LAB-KEY.json', k2));
  await expect(loaded).toHaveText('Key: variant v2.');
  await page.getByLabel("The candidate's answer sheet").setInputFiles(json('ada.json', sheetOf(v2, k2!, 'Ada')));
  await expect(page.locator('[data-compare-summary]')).toHaveText('4 of 4 choices match the key.');
  await expect(loaded).toHaveText('Key: variant v2. Answer sheet: variant v2.');
  // A v1 key beside it is refused, and the page says what it holds now: the v1 key alone.
  await page.getByLabel("The lab's key (LAB-KEY.json)").setInputFiles(json('v1-KEY.json', k1));
  await expect(page.locator('[data-import-status]')).toHaveText(/this key is variant v1's and the answer sheet is variant v2's/);
  await expect(loaded).toHaveText('Key: variant v1.');

  // packet grade over a v1 sheet and a v2 sheet: one row per sheet with its variant.
  const dir = await mkdtemp(path.join(tmpdir(), 'packet-grade-variants-'));
  try {
    await mkdir(path.join(dir, 'sheets'));
    await writeFile(path.join(dir, 'sheets', 'ada.json'), JSON.stringify(sheetOf(v2, k2!, 'Ada')));
    await writeFile(path.join(dir, 'sheets', 'bob.json'), JSON.stringify(sheetOf(v1, k1!, 'Bob')));
    const out = path.join(dir, 'grades');
    await run(process.execPath, [path.join(ROOT, 'src/cli/bin.js'), 'grade', LAB, path.join(dir, 'sheets'), '--out', out], { cwd: ROOT }).catch((e: { code?: number; stdout?: string; stderr?: string }) => {
      if (e.code !== 0 && e.code !== 1) throw new Error(`packet grade failed (${e.code}): ${e.stdout}\n${e.stderr}`);
    });
    const summary = JSON.parse(await readFile(path.join(out, LAB, 'summary.json'), 'utf8')) as { rows: { name: string; variant: unknown; scorecard: { variant: { id: string } } }[] };
    const byName = Object.fromEntries(summary.rows.map((r) => [r.name, r]));
    expect(byName.ada!.scorecard.variant.id).toBe('v2');
    expect(byName.bob!.scorecard.variant.id).toBe('v1');

    await page.getByLabel("A scorecard.json or a batch's summary.json").setInputFiles(path.join(out, LAB, 'summary.json'));
    const rows = page.locator('[data-sheet-queue-rows] tr');
    await expect(rows).toHaveCount(2);
    await expect(page.locator('[data-sheet-queue] thead th').nth(1)).toHaveText('Variant');
    for (const [name, variant] of [['ada', 'v2'], ['bob', 'v1']] as const) {
      await expect(rows.filter({ hasText: name }).locator('td[data-label="Variant"]')).toHaveText(variant);
    }
    const first = summary.rows[0]!;
    await expect(loaded).toHaveText(`Scorecard: variant ${first.scorecard.variant.id}.`);
    // The page with the variants shown: axe-clean in both themes on a desktop and a phone, the batch stacked on the phone.
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1280, 390]) {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize({ width, height: 900 });
        expect.soft(await violations(page), `${colorScheme}, ${width} px`).toEqual([]);
      }
    }
    const unstacked = await page.locator('[data-sheet-queue-rows] td').evaluateAll((tds) => tds.filter((td) => getComputedStyle(td).display !== 'block').length);
    expect(unstacked, 'the batch list stacks at 390 px').toBe(0);
    const sideways = await page.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth);
    expect(sideways, 'nothing scrolls sideways at 390 px').toBeLessThanOrEqual(0);

    // A hostile variant id on a scorecard and on a batch's row: shown as text, never as markup.
    const hostile = '<img src=x onerror=alert(1)>v9';
    const dialogs: string[] = [];
    page.on('dialog', (d) => void (dialogs.push(d.message()), d.dismiss()));
    const card = JSON.parse(await readFile(path.join(out, LAB, 'bob', 'scorecard.json'), 'utf8'));
    await page.getByLabel("A scorecard.json or a batch's summary.json").setInputFiles(json('scorecard.json', { ...card, variant: { ...card.variant, id: hostile } }));
    await expect(page.getByLabel('Candidate', { exact: true })).toHaveValue('Bob');
    await expect(loaded).toHaveText(`Scorecard: variant ${hostile}.`);
    const edited = { ...summary, rows: summary.rows.map((r) => ({ ...r, variant: hostile, scorecard: { ...r.scorecard, variant: { ...r.scorecard.variant, id: hostile } } })) };
    await page.getByLabel("A scorecard.json or a batch's summary.json").setInputFiles(json('summary.json', edited));
    await expect(rows.first().locator('td[data-label="Variant"]')).toHaveText(hostile);
    await expect(page.locator('main img')).toHaveCount(0);
    expect(dialogs).toEqual([]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a lab without variants shows no variant on its scoring page', async ({ page }) => {
  await page.goto('/labs/lab-signup-form/score/');
  await expect(page.locator('[data-lab-scoring]')).toBeAttached();
  await expect(page.locator('[data-loaded-variant]')).toHaveCount(0);
  await expect(page.locator('[data-sheet-queue] thead th')).toHaveText(['Submission', 'Verdict', 'Decision so far', 'Findings', 'Scorecard']);
});
