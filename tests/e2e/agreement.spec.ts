import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SCORECARD_KIND, SCORECARD_SCHEMA_VERSION } from '../../src/judge/scorecard-format.ts';
import { expect, test } from './support/fixtures.ts';
import { publicPackets, ROOT } from './support/packets.ts';

/**
 * `packet agreement` end to end on sheets exported from the real rubric page: three reviewers,
 * each in a browser of their own, import the scorecards of five submissions, tick the judgement
 * rows and export; the command, given the downloaded sheets, names the row they split on with
 * the submissions, and combines each submission's sheets by the rubric's rule.
 */
const ID = 'red-log-gate';
const sha = (n: number) => `${n}`.repeat(64).slice(0, 64);
/** The `tests` score `packet grade` found for each submission. */
const TESTS = [3, 3, 0, 3, 1];
/** What each reviewer ticks on the judgement rows: they agree on all but `order`. */
const JUDGED: Record<string, { 'red-is-real': number; order: number; 'green-honest': number; refusal: number }[]> = {
  ann: [
    { 'red-is-real': 3, order: 3, 'green-honest': 2, refusal: 2 },
    { 'red-is-real': 2, order: 0, 'green-honest': 1, refusal: 1 },
    { 'red-is-real': 0, order: 2, 'green-honest': 0, refusal: 0 },
    { 'red-is-real': 3, order: 1, 'green-honest': 2, refusal: 1 },
    { 'red-is-real': 1, order: 3, 'green-honest': 1, refusal: 0 },
  ],
  bob: [
    { 'red-is-real': 3, order: 0, 'green-honest': 2, refusal: 2 },
    { 'red-is-real': 2, order: 3, 'green-honest': 1, refusal: 1 },
    { 'red-is-real': 0, order: 0, 'green-honest': 0, refusal: 0 },
    { 'red-is-real': 3, order: 3, 'green-honest': 2, refusal: 1 },
    { 'red-is-real': 1, order: 1, 'green-honest': 1, refusal: 0 },
  ],
  cat: [
    { 'red-is-real': 3, order: 1, 'green-honest': 2, refusal: 2 },
    { 'red-is-real': 2, order: 2, 'green-honest': 1, refusal: 1 },
    { 'red-is-real': 0, order: 3, 'green-honest': 0, refusal: 0 },
    { 'red-is-real': 3, order: 0, 'green-honest': 2, refusal: 1 },
    { 'red-is-real': 1, order: 2, 'green-honest': 1, refusal: 0 },
  ],
};

let dir: string;
test.beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'packet-agreement-e2e-'));
});
test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('three reviewers export sheets from the rubric page, and packet agreement names the row they split on', async ({ browser }) => {
  test.setTimeout(120_000);
  const packet = (await publicPackets()).find((p) => p.id === ID)!;
  const scorecards = await Promise.all(
    TESTS.map(async (tests, i) => {
      const file = path.join(dir, `scorecard-${i + 1}.json`);
      const rows = packet.rubric.rows.map((r) => ({ id: r.id, auto: r.auto ?? null, score: r.auto ? tests : null, evidence: r.auto ? `${tests} of 3 from the tests` : null, cap: null }));
      await writeFile(file, JSON.stringify({ schemaVersion: SCORECARD_SCHEMA_VERSION, kind: SCORECARD_KIND, packet: { id: ID, version: packet.prompt.version, digest: packet.digest }, submission: { name: `cal-0${i + 1}`, sha256: sha(i + 1) }, graded: true, rows, date: '2026-12-01T10:00:00.000Z' }));
      return file;
    }),
  );
  const sheets: string[] = [];
  for (const [reviewer, cards] of Object.entries(JUDGED)) {
    for (const [i, ticks] of cards.entries()) {
      // A browser of the reviewer's own for each card: nothing of another card's draft is in it.
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`/packets/${ID}/rubric/`);
      await page.getByLabel('Import a sheet or scorecard.json').setInputFiles(scorecards[i]!);
      await expect(page.locator(`[data-row="tests"] input[value="${TESTS[i]}"]`)).toBeChecked();
      await page.getByLabel('Reviewer', { exact: true }).fill(reviewer);
      for (const [row, points] of Object.entries(ticks)) await page.locator(`[data-row="${row}"] input[value="${points}"]`).check();
      await expect(page.locator('[data-decision]')).not.toHaveAttribute('data-decision', 'pending');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export scored sheet (JSON)' }).click()]);
      const file = path.join(dir, 'sheets', `${reviewer}-${i + 1}.json`);
      await download.saveAs(file);
      sheets.push(file);
      await context.close();
    }
  }

  const out = path.join(dir, 'agreement.json');
  const result = await promisify(execFile)(process.execPath, [path.join(ROOT, 'src/cli/bin.js'), 'agreement', path.join(dir, 'sheets'), '--packets', 'packets', '--json', out, '--html', path.join(dir, 'agreement.html')], { cwd: ROOT }).then(
    () => ({ code: 0, stdout: '' }),
    (err: { code?: number; stdout?: string }) => ({ code: err.code, stdout: err.stdout ?? '' }),
  );
  // Exit 1: a row too vague.
  expect(result.code).toBe(1);
  expect(result.stdout).toContain('3 reviewers (ann, bob, cat), 5 submissions');
  expect(result.stdout).toMatch(/row "order" is too vague \(alpha -?\d\.\d\d, under 0\.6\): the reviewers split on cal-0\d \(ann \d, bob \d, cat \d\)/);
  const report = JSON.parse(await readFile(out, 'utf8'));
  expect(report.packet.digest).toBe(packet.digest);
  expect(report.vague.rows).toEqual(['order']);
  expect(report.rows.filter((r: { alpha: number | null }) => r.alpha === 1).map((r: { id: string }) => r.id)).toEqual(['tests', 'red-is-real', 'green-honest', 'refusal']);
  expect(report.totals.submissions).toBe(5);
  expect(report.totals.icc).toBeGreaterThan(0.75);
  // cal-01: orders 3, 0, 1, median 1: 3 + 3 + 1 + 2 + 2 = 11 of 13, over the hire bar of 10.
  expect(report.submissions.map((s: { label: string; combined: { decision: string; total: number } }) => [s.label, s.combined.decision, s.combined.total])).toEqual([
    ['cal-01', 'hire', 11],
    ['cal-02', 'no-hire', 9],
    ['cal-03', 'no-hire', 2],
    ['cal-04', 'hire', 10],
    ['cal-05', 'no-hire', 5],
  ]);
  expect(await readFile(path.join(dir, 'agreement.html'), 'utf8')).toContain('<svg');
});
