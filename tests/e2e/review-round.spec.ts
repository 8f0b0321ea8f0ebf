import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { ROOT } from './support/packets.ts';

/**
 * A whole review round, as a hiring lead runs it: `packet calibrate` makes five anonymous graded
 * submissions of red-log-gate and keeps their key apart; three reviewers, each in a browser of
 * their own, import the batch's summary.json on the rubric page and score all five blind, each
 * card its own draft with the grader's evidence in view; `packet agreement` over the fifteen
 * exported sheets names the rows they split on and the one reviewer who is off the key.
 */
const ID = 'red-log-gate';
const run = promisify(execFile);
test.describe.configure({ mode: 'serial' });

interface Row {
  id: string;
  max: number;
  auto: string | null;
  cap: { mode: string; max: number } | null;
}
interface Card {
  submission: { name: string; sha256: string };
  verdict: string;
  rows: Row[];
}

let dir: string;
let grades: string;
let keyFile: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = await mkdtemp(path.join(tmpdir(), 'packet-round-e2e-'));
  await run(process.execPath, [path.join(ROOT, 'src/cli/bin.js'), 'calibrate', ID, '--out', path.join(dir, 'cal')], { cwd: ROOT }).catch((err: { code?: number; stdout?: string; stderr?: string }) => {
    throw new Error(`packet calibrate exited ${err.code}: ${err.stderr ?? ''}${err.stdout ?? ''}`);
  });
  grades = path.join(dir, 'cal', ID, 'reviewer', 'grades', ID);
  keyFile = path.join(dir, 'cal', ID, 'lead', 'calibration-key.json');
});

test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const tick = (page: Page, row: string, points: number) => page.locator(`[data-row="${row}"] input[value="${points}"]`).check();
const best = (r: Row) => Math.min(r.cap?.max ?? Infinity, r.max);

test('three reviewers score five calibration submissions blind, and packet agreement names the rows they split on and the reviewer off the key', async ({ browser }) => {
  test.setTimeout(180_000);
  const summary = JSON.parse(await readFile(path.join(grades, 'summary.json'), 'utf8')) as { rows: { name: string; scorecard: Card }[] };
  expect(summary.rows).toHaveLength(5);
  const bySha = new Map(summary.rows.map((r) => [r.scorecard.submission.sha256, r.scorecard]));
  // Ana and Ben score every judgement row at its best allowed score, as the key's reasoning does;
  // Cy scores every judgement row 0, so Cy's decision on the sample is a no-hire the key does not hold.
  const reviewers: Record<string, (r: Row) => number> = { Ana: best, Ben: best, Cy: () => 0 };
  const sheetsDir = path.join(dir, 'sheets');
  await mkdir(sheetsDir);
  for (const [reviewer, score] of Object.entries(reviewers)) {
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`/packets/${ID}/rubric/`);
    await page.getByLabel('Import a sheet or scorecard.json').setInputFiles(path.join(grades, 'summary.json'));
    await page.getByLabel('Reviewer', { exact: true }).fill(reviewer);
    for (let i = 0; i < summary.rows.length; i++) {
      await expect(page.locator('[data-queue-pos]')).toHaveText(`Submission ${i + 1} of 5`);
      const label = (await page.locator('[data-blind-name]').textContent()) ?? '';
      const card = [...bySha.values()].find((c) => label === `Submission ${c.submission.sha256.slice(0, 8)}`);
      expect(card, `the blind label "${label}" names one submission by its sha256`).toBeDefined();
      // Blind: no name of the batch is on the page until this card is exported.
      if (i === 0) await expect(page.locator('main')).not.toContainText(/cal-\d\d/);
      // The grader's evidence is in view: its verdict and decision so far, as scorecard.md opens.
      await expect(page.locator('[data-grader-headline]')).toContainText(`${card!.verdict}, decision so far:`);
      for (const row of card!.rows.filter((r) => r.auto === null)) await tick(page, row.id, score(row));
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export scored sheet (JSON)' }).click()]);
      await writeFile(path.join(sheetsDir, `${reviewer}-${i + 1}.json`), await readFile(await download.path()));
      if (i < summary.rows.length - 1) await page.getByRole('button', { name: 'Next' }).click();
    }
    await expect(page.locator('[data-drafts] li')).toHaveCount(5);
    await context.close();
  }

  const args = [path.join(ROOT, 'src/cli/bin.js'), 'agreement', sheetsDir, '--key', keyFile, '--json', path.join(dir, 'agreement.json'), '--resamples', '200'];
  const result = await run(process.execPath, args, { cwd: ROOT }).then(
    (r) => ({ code: 0, stdout: r.stdout }),
    (err: { code?: number; stdout?: string }) => ({ code: err.code, stdout: err.stdout ?? '' }),
  );
  expect(result.code, result.stdout).toBe(1);
  const report = JSON.parse(await readFile(path.join(dir, 'agreement.json'), 'utf8')) as {
    reviewers: { name: string; sheets: number; blind: number }[];
    vague: { rows: string[] };
    key: { reviewers: { name: string; offKey: boolean; decisionMisses: { expected: string; got: string }[] }[] };
  };
  expect(report.reviewers.map((r) => [r.name, r.sheets, r.blind])).toEqual([
    ['Ana', 5, 5],
    ['Ben', 5, 5],
    ['Cy', 5, 5],
  ]);
  // The rows Cy scored apart from the others are named; the automatic row, the same on every sheet, is not.
  expect(report.vague.rows.length).toBeGreaterThan(0);
  expect(report.vague.rows).not.toContain('tests');
  expect(report.key.reviewers.filter((r) => r.offKey).map((r) => r.name)).toEqual(['Cy']);
  expect(report.key.reviewers.find((r) => r.name === 'Cy')!.decisionMisses).toContainEqual(expect.objectContaining({ expected: 'hire', got: 'no-hire' }));
  expect(result.stdout).toMatch(/Cy/);
  expect(result.stdout).toMatch(/off the key/);
});
