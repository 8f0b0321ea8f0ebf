import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { combineScores } from '../../src/judge/combine.ts';
import { GRADE_SUMMARY_KIND } from '../../src/judge/scorecard-format.ts';
import { expect, test } from './support/fixtures.ts';
import { publicPackets, ROOT } from './support/packets.ts';

/**
 * A reviewer with several candidates on the rubric page: five real submissions of red-log-gate
 * (its sample, and its sample with each mutant laid over it) graded by the real `packet grade`.
 * Each card is its own draft, an import never takes another candidate's ticks or replaces a
 * scored card without asking, the grader's verdict, decision so far and findings are in view, an
 * override of an automatic row needs a reason and is exported, the batch imports as a queue, and
 * blind review hides names and other reviewers' scores until the card is exported.
 */
const ID = 'red-log-gate';
test.describe.configure({ mode: 'serial' });

interface Row {
  id: string;
  max: number;
  auto: string | null;
  score: number | null;
  evidence: string | null;
  cap: { mode: string; max: number } | null;
  findings?: number[];
}
interface Card {
  packet: { id: string; version: string; digest: string };
  submission: { name: string; sha256: string };
  verdict: string;
  rows: Row[];
  findings: { code: string }[];
  decision: { state: string; reason: string };
}

let dir: string;
const names = ['alice', 'bob', 'cara', 'dan', 'eve'];
const cards: Record<string, Card> = {};
const cardFile = (name: string) => path.join(dir, 'grades', ID, name, 'scorecard.json');
let summaryFile: string;
let headline: Record<string, string> = {};

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = await mkdtemp(path.join(tmpdir(), 'packet-review-e2e-'));
  const packetDir = path.join(ROOT, 'packets', ID);
  const mutants = (await readdir(path.join(packetDir, 'mutants'))).sort();
  const subs: string[] = [];
  for (const [i, name] of names.entries()) {
    const sub = path.join(dir, name);
    const trees = ['starter', 'sample', ...(i === 0 ? [] : [`mutants/${mutants[(i - 1) % mutants.length]}`])];
    for (const tree of trees) await cp(path.join(packetDir, tree), sub, { recursive: true });
    subs.push(sub);
  }
  await promisify(execFile)(process.execPath, [path.join(ROOT, 'src/cli/bin.js'), 'grade', ID, ...subs, '--out', path.join(dir, 'grades')], { cwd: ROOT }).catch((err: { code?: number; stdout?: string; stderr?: string }) => {
    throw new Error(`packet grade exited ${err.code}: ${err.stderr ?? ''}${err.stdout ?? ''}`);
  });
  for (const name of names) {
    cards[name] = JSON.parse(await readFile(cardFile(name), 'utf8'));
    // The first line of scorecard.md after its title, its bold taken off: what the page must say at the top.
    const md = await readFile(path.join(dir, 'grades', ID, name, 'scorecard.md'), 'utf8');
    headline[name] = md.split('\n')[2]!.replace(/\*\*/g, '');
  }
  // summary.json as `packet grade` writes it for the page: its kind, and each row's scorecard (the exact object of its scorecard.json).
  summaryFile = path.join(dir, 'grades', ID, 'summary.json');
  const summary = JSON.parse(await readFile(summaryFile, 'utf8'));
  expect(summary.kind).toBe(GRADE_SUMMARY_KIND);
  for (const row of summary.rows) expect(row.scorecard).toEqual(cards[row.name]);
});

test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const importInput = (page: Page) => page.getByLabel('Import a sheet or scorecard.json');
const status = (page: Page) => page.locator('[data-sheet-status]');
const tick = (page: Page, row: string, points: number) => page.locator(`[data-row="${row}"] input[value="${points}"]`).check();
const judgementRows = (name: string) => cards[name]!.rows.filter((r) => r.auto === null);
const maxOf = (r: Row) => Math.min(r.cap?.max ?? Infinity, r.max);

test("importing a scorecard keeps another candidate's half-scored card as its own draft, and starts from a clean form", async ({ page }) => {
  await page.goto(`/packets/${ID}/rubric/`);
  const judged = judgementRows('alice');
  await page.getByLabel('Candidate', { exact: true }).fill('Bob');
  await tick(page, judged[0]!.id, 1);
  await page.getByLabel('Notes on row 2', { exact: true }).fill("Bob's journal is thin.");

  await importInput(page).setInputFiles(cardFile('alice'));
  await expect(status(page)).toHaveText(/^Imported the scorecard of alice/);
  await expect(page.getByLabel('Candidate', { exact: true })).toHaveValue('alice');
  // Nothing of Bob's card is on Alice's.
  for (const r of judged) await expect(page.locator(`[data-row="${r.id}"] input:checked`)).toHaveCount(0);
  await expect(page.getByLabel('Notes on row 2', { exact: true })).toHaveValue('');

  // Both cards are listed; Bob's opens whole.
  const drafts = page.locator('[data-drafts] li');
  await expect(drafts).toHaveCount(2);
  await drafts.filter({ hasText: 'Bob' }).getByRole('button').click();
  await expect(page.getByLabel('Candidate', { exact: true })).toHaveValue('Bob');
  await expect(page.locator(`[data-row="${judged[0]!.id}"] input[value="1"]`)).toBeChecked();
  await expect(page.getByLabel('Notes on row 2', { exact: true })).toHaveValue("Bob's journal is thin.");

  // A new card is blank, and Bob's stays.
  await page.getByRole('button', { name: 'New card' }).click();
  await expect(page.locator('input[type="radio"]:checked')).toHaveCount(0);
  await expect(page.getByLabel('Candidate', { exact: true })).toHaveValue('');
  await expect(drafts).toHaveCount(2);
});

test('importing over a card that has scores asks first', async ({ page }) => {
  await page.goto(`/packets/${ID}/rubric/`);
  const judged = judgementRows('alice');
  await importInput(page).setInputFiles(cardFile('alice'));
  await tick(page, judged[0]!.id, 2);
  await importInput(page).setInputFiles(cardFile('alice'));
  const dialog = page.getByRole('dialog', { name: 'Replace your card?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Keep mine' }).click();
  await expect(page.locator(`[data-row="${judged[0]!.id}"] input[value="2"]`)).toBeChecked();
  await expect(status(page)).toHaveText(/^Kept your card for alice/);

  await importInput(page).setInputFiles(cardFile('alice'));
  await dialog.getByRole('button', { name: 'Replace it' }).click();
  await expect(status(page)).toHaveText(/^Imported the scorecard of alice/);
  await expect(page.locator(`[data-row="${judged[0]!.id}"] input:checked`)).toHaveCount(0);
});

test('a CAUGHT scorecard says its decision so far at the top as scorecard.md does, with each finding beside the row it bears on', async ({ page }) => {
  const bob = cards.bob!;
  expect(bob.verdict).toBe('CAUGHT');
  expect(bob.decision.state).toBe('no-hire');
  // rows[i].findings of scorecard.json: the findings that bear on each row, as `packet grade` wrote them.
  const withRows: Card = bob;
  expect(bob.rows.some((r) => (r.findings ?? []).length > 0)).toBe(true);
  await page.goto(`/packets/${ID}/rubric/`);
  await importInput(page).setInputFiles(cardFile('bob'));
  await expect(page.locator('[data-grader-headline]')).toHaveText(headline.bob!);
  await expect(page.locator('[data-decision]')).toHaveAttribute('data-decision', 'no-hire');
  await expect(page.locator('[data-decision-text]')).toHaveText(`No hire so far, whatever the open rows score: ${bob.decision.reason}. ${judgementRows('bob').length} of ${bob.rows.length} rows still to score.`);
  const claimed = new Set(withRows.rows.flatMap((r) => r.findings ?? []));
  for (const row of withRows.rows) {
    const list = page.locator(`[data-row-findings="${row.id}"] li`);
    await expect(list).toHaveCount(row.findings?.length ?? 0);
    for (const [k, i] of (row.findings ?? []).entries()) await expect(list.nth(k)).toContainText(bob.findings[i]!.code);
  }
  const own = bob.findings.filter((_, i) => !claimed.has(i));
  await expect(page.locator('[data-card-findings] li')).toHaveCount(own.length);
  for (const f of own) await expect(page.locator(`[data-card-findings] li[data-finding="${f.code}"]`).first()).toBeVisible();
});

test('overriding an automatic row asks for a reason, and the exported sheet records the override', async ({ page }, testInfo) => {
  const alice = cards.alice!;
  const auto = alice.rows.find((r) => r.auto !== null && r.score !== null && r.score > 0)!;
  await page.goto(`/packets/${ID}/rubric/`);
  await importInput(page).setInputFiles(cardFile('alice'));
  await page.getByLabel('Reviewer', { exact: true }).fill('Sam');
  const dialog = page.getByRole('dialog', { name: 'Override an automatic row?' });

  // Cancelled: the scorecard's score comes back.
  await tick(page, auto.id, 0);
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: "Keep the scorecard's score" }).click();
  await expect(page.locator(`[data-row="${auto.id}"] input[value="${auto.score}"]`)).toBeChecked();

  // A reason is needed, then it is recorded.
  await tick(page, auto.id, 0);
  await dialog.getByRole('button', { name: 'Override', exact: true }).click();
  await expect(dialog.getByText('Give a reason')).toBeVisible();
  await dialog.getByLabel(/^Why/).fill('The held-out run used a cached build.');
  await dialog.getByRole('button', { name: 'Override', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator(`[data-evidence="${auto.id}"]`)).toContainText(`Overridden from ${auto.score} to 0 by Sam: The held-out run used a cached build.`);

  for (const r of judgementRows('alice')) await tick(page, r.id, maxOf(r));
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export scored sheet (JSON)' }).click()]);
  const file = testInfo.outputPath('alice.json');
  await download.saveAs(file);
  const sheet = JSON.parse(await readFile(file, 'utf8'));
  expect(sheet.overrides).toEqual([{ row: auto.id, from: auto.score, to: 0, reason: 'The held-out run used a cached build.', reviewer: 'Sam', at: expect.any(String) }]);
  expect(Number.isNaN(Date.parse(sheet.overrides[0].at))).toBe(false);
  expect(sheet.evidence[auto.id]).toMatch(/^overridden from /);
  expect(sheet.evidence[auto.id]).toContain(auto.evidence);
  expect(sheet.verdict).toBe('PASS');
  expect(sheet.scores[auto.id]).toBe(0);
});

test('export refuses a card without a candidate or a reviewer', async ({ page }) => {
  const packet = (await publicPackets()).find((p) => p.id === ID)!;
  await page.goto(`/packets/${ID}/rubric/`);
  for (const r of packet.rubric.rows) await tick(page, r.id, r.max);
  const exportButton = page.getByRole('button', { name: 'Export scored sheet (JSON)' });
  await exportButton.click();
  await expect(status(page)).toHaveText(/^Name the candidate before exporting/);
  await page.getByLabel('Candidate', { exact: true }).fill('Ada');
  await exportButton.click();
  await expect(status(page)).toHaveText(/^Type your name as the reviewer before exporting/);
  await page.getByLabel('Reviewer', { exact: true }).fill('Sam');
  const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
  expect(download.suggestedFilename()).toMatch(/-scored-ada-by-sam\.json$/);
});

test('number keys tick a level on the focused row, and the total and decision stay in view', async ({ page }) => {
  const packet = (await publicPackets()).find((p) => p.id === ID)!;
  const [first, second] = packet.rubric.rows;
  await page.goto(`/packets/${ID}/rubric/`);
  await page.locator(`[data-row="${first!.id}"] input[value="0"]`).focus();
  await page.keyboard.press(String(first!.max));
  await expect(page.locator(`[data-row="${first!.id}"] input[value="${first!.max}"]`)).toBeChecked();
  await expect(page.locator(`[data-row="${first!.id}"] input[value="${first!.max}"]`)).toBeFocused();
  await page.keyboard.press('1');
  await expect(page.locator(`[data-row="${first!.id}"] input[value="1"]`)).toBeChecked();
  await expect(page.locator('[data-total]')).toHaveText('1');
  // Scrolled to the top rows, the tally is out of view and a bar at the window's foot keeps the total and the decision so far.
  await page.locator(`[data-row="${second!.id}"]`).scrollIntoViewIfNeeded();
  await expect(page.locator('.tally')).not.toBeInViewport();
  await expect(page.locator('[data-sticky-total]')).toBeInViewport();
  await expect(page.locator('[data-sticky-total]')).toHaveText('1');
  await expect(page.locator('[data-sticky-decision]')).toHaveText(`${packet.rubric.rows.length - 1} of ${packet.rubric.rows.length} rows open`);
  // With the tally in view, the bar gives way to it.
  await page.locator('.tally').scrollIntoViewIfNeeded();
  await expect(page.locator('[data-sticky-tally]')).toBeHidden();
});

test("a batch's summary.json is a queue: blind by default, each submission its own card, next and previous, one list across the candidates", async ({ page }, testInfo) => {
  await page.goto(`/packets/${ID}/rubric/`);
  await importInput(page).setInputFiles(summaryFile);
  await expect(status(page)).toHaveText(/^Imported the batch: 5 submissions, 5 to score\. Blind review is on/);
  await expect(page.getByLabel(/^Blind review/)).toBeChecked();
  const items = page.locator('[data-queue] tbody tr');
  await expect(items).toHaveCount(5);
  const order = JSON.parse(await readFile(summaryFile, 'utf8')).rows.map((r: { name: string }) => r.name) as string[];
  for (const [i, name] of order.entries()) {
    const c = cards[name]!;
    const item = items.nth(i);
    await expect(item).toContainText(`Submission ${c.submission.sha256.slice(0, 8)}`);
    await expect(item).not.toContainText(name);
    await expect(item).toContainText(c.verdict);
    await expect(item).toContainText(c.decision.state);
    for (const f of c.findings) await expect(item).toContainText(f.code);
  }
  // The first submission is open, its name hidden.
  const first = cards[order[0]!]!;
  await expect(page.getByLabel('Candidate', { exact: true })).toBeHidden();
  await expect(page.locator('[data-blind-name]')).toHaveText(`Submission ${first.submission.sha256.slice(0, 8)}`);
  await expect(page.locator('[data-queue-pos]')).toHaveText('Submission 1 of 5');
  await expect(page.getByText(first.submission.name, { exact: true })).toHaveCount(0);

  // Score a row of the first, go next (a clean card of its own), then back: the tick is kept.
  const judged = judgementRows(order[0]!);
  await tick(page, judged[0]!.id, 1);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.locator('[data-queue-pos]')).toHaveText('Submission 2 of 5');
  await expect(page.locator(`[data-row="${judged[0]!.id}"] input:checked`)).toHaveCount(0);
  await expect(items.nth(0)).toContainText(`1 of ${judged.length} rows scored`);
  await expect(items.nth(1)).toContainText(`0 of ${judgementRows(order[1]!).length} rows scored`);
  await expect(items.nth(2)).toContainText('not started');
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page.locator('[data-queue-pos]')).toHaveText('Submission 1 of 5');
  await expect(page.locator(`[data-row="${judged[0]!.id}"] input[value="1"]`)).toBeChecked();

  // Exported, the card shows the name, and the sheet says it was scored blind.
  for (const r of judged) await tick(page, r.id, maxOf(r));
  await page.getByLabel('Reviewer', { exact: true }).fill('Sam');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export scored sheet (JSON)' }).click()]);
  const sheet = JSON.parse(await readFile(await download.path(), 'utf8'));
  expect(sheet).toMatchObject({ blind: true, reviewer: 'Sam', verdict: first.verdict, submission: { sha256: first.submission.sha256 } });
  await expect(page.getByLabel('Candidate', { exact: true })).toHaveValue(first.submission.name);
  await expect(items.nth(0)).toContainText(first.submission.name);
  await expect(items.nth(0)).toContainText('exported');
  testInfo.annotations.push({ type: 'queue', description: order.join(', ') });
});

test("blind review keeps other reviewers' sheets hidden until this card is exported, then combines them by the rubric's rule", async ({ page }, testInfo) => {
  const packet = (await publicPackets()).find((p) => p.id === ID)!;
  const alice = cards.alice!;
  const base = Object.fromEntries(alice.rows.map((r) => [r.id, r.score ?? maxOf(r)]));
  const veto = packet.rubric.vetoes[0]!;
  const others = [
    { reviewer: 'Ravi', scores: { ...base } },
    { reviewer: 'Mei', scores: { ...base, [veto.row]: veto.atMost } },
  ];
  const files = [];
  for (const o of others) {
    const file = testInfo.outputPath(`${o.reviewer}.json`);
    await writeFile(
      file,
      JSON.stringify({ schemaVersion: 1, kind: 'packet-kit/scored-sheet', id: ID, version: packet.prompt.version, digest: packet.digest, scores: o.scores, decision: {}, reviewer: o.reviewer, candidate: 'alice', submission: { name: 'alice', sha256: alice.submission.sha256 }, blind: true, date: '2026-12-01T09:00:00.000Z' }),
    );
    files.push(file);
  }
  await page.goto(`/packets/${ID}/rubric/`);
  await page.getByLabel(/^Blind review/).check();
  await importInput(page).setInputFiles(cardFile('alice'));
  await expect(page.getByLabel('Candidate', { exact: true })).toBeHidden();
  await page.getByLabel('Reviewer', { exact: true }).fill('Sam');
  await page.getByLabel("Import other reviewers' sheets").setInputFiles(files);
  await expect(status(page)).toHaveText("Kept 2 other reviewers' sheets of this submission; they stay hidden until you export your own card.");
  await expect(page.locator('[data-others-hidden]')).toBeVisible();
  await expect(page.locator('[data-others-table]')).toBeHidden();
  await expect(page.getByText('Ravi')).toHaveCount(0);

  const mine = { ...base };
  for (const r of judgementRows('alice')) await tick(page, r.id, mine[r.id]!);
  await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export scored sheet (JSON)' }).click()]);
  const table = page.locator('[data-others-table]');
  await expect(table).toBeVisible();
  await expect(table.locator('thead')).toContainText('Ravi');
  await expect(table.locator('thead')).toContainText('Mei');
  const combined = combineScores(packet.rubric, [mine, ...others.map((o) => o.scores)]);
  for (const row of packet.rubric.rows) await expect(table.locator(`[data-combined-row="${row.id}"] td`).last()).toHaveText(String(combined.scores[row.id]));
  expect(combined.decision).toBe('no-hire');
  await expect(page.locator('[data-combined]')).toHaveText(`Combined decision of 3 sheets: No hire (${combined.reason}). The rubric's rule: the median of each row (of an even count, the lower middle), and any reviewer's veto holds.`);
});

test('three reviewers score the same five submissions blind, each card its own draft, and each sheet names its reviewer and submission', async ({ browser }) => {
  test.setTimeout(120_000);
  const reviewers = ['Ana', 'Ben', 'Cy'];
  const order = JSON.parse(await readFile(summaryFile, 'utf8')).rows.map((r: { name: string }) => r.name) as string[];
  const sheets: { reviewer: string; blind: boolean; submission: { sha256: string }; scores: Record<string, number>; candidate: string }[] = [];
  for (const [k, reviewer] of reviewers.entries()) {
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`/packets/${ID}/rubric/`);
    await importInput(page).setInputFiles(summaryFile);
    await page.getByLabel('Reviewer', { exact: true }).fill(reviewer);
    for (const [i, name] of order.entries()) {
      await expect(page.locator('[data-queue-pos]')).toHaveText(`Submission ${i + 1} of 5`);
      await expect(page.locator('[data-blind-name]')).toHaveText(`Submission ${cards[name]!.submission.sha256.slice(0, 8)}`);
      // Each reviewer scores a little differently: the last reviewer one point lower on the first judgement row, where it can.
      for (const [j, r] of judgementRows(name).entries()) await tick(page, r.id, Math.max(0, maxOf(r) - (j === 0 && k === 2 ? 1 : 0)));
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export scored sheet (JSON)' }).click()]);
      sheets.push(JSON.parse(await readFile(await download.path(), 'utf8')));
      if (i < order.length - 1) await page.getByRole('button', { name: 'Next' }).click();
    }
    await expect(page.locator('[data-queue] tbody tr').filter({ hasText: 'exported' })).toHaveCount(5);
    await expect(page.locator('[data-drafts] li')).toHaveCount(5);
    await context.close();
  }
  expect(sheets).toHaveLength(15);
  for (const reviewer of reviewers) {
    const mine = sheets.filter((s) => s.reviewer === reviewer);
    expect(mine.map((s) => s.submission.sha256).sort()).toEqual(order.map((n) => cards[n]!.submission.sha256).sort());
    for (const s of mine) expect(s).toMatchObject({ blind: true, candidate: order.find((n) => cards[n]!.submission.sha256 === s.submission.sha256) });
  }
});
