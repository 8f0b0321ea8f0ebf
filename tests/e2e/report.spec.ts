import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import { labPacket, modelRun, packet, report, testFinding } from '../support/report-fixtures.ts';
import { expect, test } from './support/fixtures.ts';
import { ROOT } from './support/packets.ts';

/**
 * The HTML report of `packet report`, opened from file:// as a downloaded CI artifact would be,
 * with JavaScript off: the summary, both matrices, the findings and a history chart per packet
 * must all be there, and the receipts' links must open. The expected failures of a packet that
 * fails closed (its starter red, its mutants and a lab's wrong choices caught) are counted and
 * folded apart from what needs a look, and a lab's own checks fill the lab's columns.
 */
const MODELS = ['scripted:{packet}/sample', 'free-model'];
// One worker builds the report once for both tests.
test.describe.configure({ mode: 'serial' });
let dir: string;
let url: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = await mkdtemp(path.join(tmpdir(), 'packet-report-e2e-'));
  await mkdir(path.join(dir, 'history'));
  for (const [k, verdict] of (['CAUGHT', 'FALSE-GREEN'] as const).entries()) {
    const r = report([packet('alpha'), packet('bravo', k === 1 ? 'defect' : 'fails-closed')], {
      date: `2026-11-0${k + 1}T10:00:00.000Z`,
      live: MODELS,
      models: ['alpha', 'bravo'].flatMap((id) => [modelRun(id, MODELS[0]!, 'PASS', { tokens: 1100 + k * 50 }), modelRun(id, MODELS[1]!, verdict, { tokens: 5000 + k * 900, wallMs: 20_000 })]),
    });
    await writeFile(path.join(dir, 'history', `r${k}.json`), JSON.stringify(r));
  }
  // alpha fails closed: its starter's and its mutant's failing tests are the packet working.
  const alpha = packet('alpha');
  alpha.checks = alpha.checks.map((c) => (c.kind === 'sample' ? c : { ...c, findings: [testFinding('PK415', `${c.id}: 1 visible test failed`)] }));
  const current = report([alpha, packet('bravo', 'defect'), labPacket('charlie-lab')], {
    live: MODELS,
    models: ['alpha', 'bravo'].flatMap((id) => [modelRun(id, MODELS[0]!, 'PASS'), modelRun(id, MODELS[1]!, 'CAUGHT', { tokens: 4800, wallMs: 18_000 })]),
  });
  await writeFile(path.join(dir, 'current.json'), JSON.stringify(current));
  await mkdir(path.join(dir, 'out/rehearsals/x/alpha'), { recursive: true });
  await writeFile(path.join(dir, 'out/rehearsals/x/alpha/usage.jsonl'), '{"model":"free-model","status":200}\n');
  await promisify(execFile)(process.execPath, [path.join(ROOT, 'src/cli/bin.js'), 'report', 'current.json', '--history', 'history', '--out', 'html'], { cwd: dir });
  url = pathToFileURL(path.join(dir, 'html/index.html')).href;
});

test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('reads from file:// without JavaScript: summary, matrices, findings and a history per packet', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(url);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/2\/3 fail closed/);
  await expect(page.locator('[data-exit-code]')).toHaveText('1');
  const checks = page.locator('table.matrix').first();
  await expect(checks.getByRole('row', { name: /bravo/ }).getByRole('cell').filter({ hasText: 'PK446' })).toBeVisible();
  const models = page.locator('section[aria-labelledby="models"] table');
  await expect(models.getByRole('columnheader')).toHaveText(['Packet', ...MODELS]);
  await expect(models.getByRole('row', { name: /alpha/ }).locator('[data-verdict]')).toHaveText(['PASS', 'CAUGHT']);
  await expect(page.locator('.finding[data-code="PK446"], .finding[data-code="PK415"]').first()).toContainText('Hint:');
  for (const id of ['alpha', 'bravo']) {
    const chart = page.locator(`#history-${id} figure svg[role="img"]`);
    await expect(chart).toBeVisible();
    await expect(chart).toHaveAttribute('aria-label', new RegExp(`History of ${id} over 3 reports`));
  }
  // The receipts that were found are copied beside the report, and their links open.
  const receipt = page.locator('#run--alpha--free-model').getByRole('link', { name: 'usage.jsonl' });
  await receipt.click();
  await expect(page.locator('body')).toContainText('"model":"free-model"');
  await context.close();
});

test("a run's expected failures are counted and folded apart from the defect, and a lab's own checks fill its columns", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(url);
  const findings = page.locator('section[aria-labelledby="findings"]');
  // Only bravo's defect is a card; alpha's starter and mutant, the caught model answers and the lab's wrong choices are not.
  await expect(findings.locator('article.finding')).toHaveCount(1);
  await expect(findings.locator('article.finding')).toContainText('bravo, check mutant:drops-minutes');
  const expected = findings.locator('details.expected');
  await expect(expected).not.toHaveAttribute('open', /.*/);
  await expect(expected.locator('> summary')).toHaveText('Expected failures (7): 2 model answer caught, 2 wrong choice caught, 1 all offered caught, 1 mutant caught, 1 starter red');
  await expect(expected.locator('li').first()).toBeHidden();
  await expect(page.getByRole('link', { name: /^Findings: 1 to look at, 7 expected$/ })).toBeVisible();
  await expected.locator('> summary').click();
  await expected.locator('[data-expected-packet="charlie-lab"] > summary').click();
  await expect(expected.locator('[data-expected-packet="charlie-lab"] li')).toHaveCount(3);

  // The take-home table holds the take-homes; the lab's table names the lab's own checks, none of them "none".
  await expect(page.locator('table.matrix[data-family="takehome"]').getByRole('row', { name: /charlie-lab/ })).toHaveCount(0);
  const labRow = page.locator('table.matrix[data-family="lab"]').getByRole('row', { name: /charlie-lab/ });
  await expect(page.locator('table.matrix[data-family="lab"]').getByRole('columnheader')).toHaveText(['Packet', 'Status', 'key', 'wrong choices', 'all offered', 'plausible', 'calibration', 'table', 'Time']);
  await expect(labRow.locator('td.muted', { hasText: 'none' })).toHaveCount(0);
  await expect(labRow.locator('[data-lab-column="wrong"]')).toHaveText(/^2\/2 ok/);
  await expect(labRow.locator('[data-lab-column="key"]')).toHaveText(/^ok/);
  await context.close();
});

test('axe finds no serious or critical violation on the report', async ({ page }) => {
  // axe checks the contrast of every cell of a long page: seconds, more on a busy machine.
  test.setTimeout(90_000);
  await page.goto(url);
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  expect(serious).toEqual([]);
});
