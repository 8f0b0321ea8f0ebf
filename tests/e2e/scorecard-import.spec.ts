import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from './support/fixtures.ts';
import { publicPackets, ROOT } from './support/packets.ts';

/**
 * A scorecard of `packet grade` read by the rubric page: the submission is red-log-gate's sample
 * with one of its failure modes laid over it (a real wrong answer), graded by the real command in
 * the sandbox. The page must set the automatic rows with their evidence, hold the matched modes'
 * caps, leave the judgement rows to the reviewer, and export a sheet that names the packet's
 * digest and the submission's sha256, which reads back whole.
 */
const ID = 'red-log-gate';
test.describe.configure({ mode: 'serial' });
let dir: string;
let scorecardFile: string;
let scorecard: {
  packet: { digest: string };
  submission: { name: string; sha256: string };
  rows: { id: string; auto: string | null; score: number | null; evidence: string | null; cap: { mode: string; max: number } | null }[];
  decision: { state: string };
};

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = await mkdtemp(path.join(tmpdir(), 'packet-scorecard-e2e-'));
  const sub = path.join(dir, 'ada');
  const packetDir = path.join(ROOT, 'packets', ID);
  const mode = (await readdir(path.join(packetDir, 'mutants'))).sort()[0]!;
  for (const tree of ['starter', 'sample', `mutants/${mode}`]) await cp(path.join(packetDir, tree), sub, { recursive: true });
  await promisify(execFile)(process.execPath, [path.join(ROOT, 'src/cli/bin.js'), 'grade', ID, sub, '--out', path.join(dir, 'grades')], { cwd: ROOT }).catch((err: { code?: number; stdout?: string; stderr?: string }) => {
    // Exit 0: every submission graded, whatever its scores.
    throw new Error(`packet grade exited ${err.code}: ${err.stderr ?? ''}${err.stdout ?? ''}`);
  });
  scorecardFile = path.join(dir, 'grades', ID, 'ada', 'scorecard.json');
  scorecard = JSON.parse(await readFile(scorecardFile, 'utf8'));
});

test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('a scorecard.json sets the automatic rows with their evidence, and the exported sheet names both digests', async ({ page }, testInfo) => {
  const packet = (await publicPackets()).find((p) => p.id === ID)!;
  expect(scorecard.packet.digest).toBe(packet.digest);
  const auto = scorecard.rows.filter((r) => r.auto !== null);
  const judged = scorecard.rows.filter((r) => r.auto === null);
  expect(auto.length).toBeGreaterThan(0);
  expect(judged.length).toBeGreaterThan(0);

  await page.goto(`/packets/${ID}/rubric/`);
  await page.getByLabel('Import a sheet or scorecard.json').setInputFiles(scorecardFile);
  await expect(page.locator('[data-sheet-status]')).toHaveText(
    `Imported the scorecard of ada: ${auto.length} automatic row${auto.length === 1 ? '' : 's'} set from the evidence, ${judged.length} left for you to score.`,
  );
  await expect(page.getByLabel('Candidate', { exact: true })).toHaveValue('ada');
  for (const row of auto) {
    await expect(page.locator(`[data-row="${row.id}"] input[value="${row.score}"]`)).toBeChecked();
    await expect(page.locator(`[data-evidence="${row.id}"]`)).toContainText(row.evidence!);
  }
  for (const row of judged) await expect(page.locator(`[data-row="${row.id}"] input:checked`)).toHaveCount(0);
  // A matched failure mode's cap: the scores above it cannot be ticked.
  for (const row of scorecard.rows.filter((r) => r.cap)) {
    await expect(page.locator(`[data-evidence="${row.id}"]`)).toContainText(`Capped at ${row.cap!.max}: the failure mode "${row.cap!.mode}" matched.`);
    await expect(page.locator(`[data-row="${row.id}"] input[value="${row.cap!.max + 1}"]`)).toBeDisabled();
  }
  // The decision so far is the scorecard's (this wrong answer cannot reach the hire bar: no-hire already).
  await expect(page.locator('[data-decision]')).toHaveAttribute('data-decision', scorecard.decision.state);

  // The reviewer scores the judgement rows (as high as each cap allows) and exports.
  for (const row of judged) {
    const max = packet.rubric.rows.find((r) => r.id === row.id)!.max;
    await page.locator(`[data-row="${row.id}"] input[value="${Math.min(max, row.cap?.max ?? max)}"]`).check();
  }
  await expect(page.locator('[data-decision]')).not.toHaveAttribute('data-decision', 'pending');
  await page.getByLabel('Reviewer', { exact: true }).fill('Sam');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export scored sheet (JSON)' }).click()]);
  const file = testInfo.outputPath('sheet.json');
  await download.saveAs(file);
  const sheet = JSON.parse(await readFile(file, 'utf8'));
  expect(sheet).toMatchObject({
    kind: 'packet-kit/scored-sheet',
    id: ID,
    digest: packet.digest,
    candidate: 'ada',
    submission: { name: 'ada', sha256: scorecard.submission.sha256 },
    evidence: Object.fromEntries(auto.map((r) => [r.id, r.evidence])),
  });
  await expect(page.locator('[data-sheet-status]')).toContainText(`submission sha256 ${scorecard.submission.sha256.slice(0, 12)}`);

  // Read back on a cleared card: the same scores, evidence and caps.
  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  await page.getByRole('dialog', { name: 'Clear this card?' }).getByRole('button', { name: 'Clear the card' }).click();
  await expect(page.locator('input[type="radio"]:checked')).toHaveCount(0);
  await expect(page.locator('[data-evidence]:visible')).toHaveCount(0);
  await page.getByLabel('Import a sheet or scorecard.json').setInputFiles(file);
  for (const [row, points] of Object.entries(sheet.scores as Record<string, number>)) await expect(page.locator(`[data-row="${row}"] input[value="${points}"]`)).toBeChecked();
  for (const row of auto) await expect(page.locator(`[data-evidence="${row.id}"]`)).toContainText(row.evidence!);
});

test('a scorecard graded against another version is refused, and the card is left as it was', async ({ page }) => {
  await page.goto(`/packets/${ID}/rubric/`);
  const other = { ...scorecard, packet: { ...scorecard.packet, version: '0.0.1', digest: 'e'.repeat(64) } };
  await page.getByLabel('Import a sheet or scorecard.json').setInputFiles({ name: 'scorecard.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(other)) });
  await expect(page.locator('[data-sheet-status]')).toHaveText(/graded against another version .*version 0\.0\.1, digest eeeeeeeeeeee.*Nothing was changed/);
  await expect(page.locator('input[type="radio"]:checked')).toHaveCount(0);
});
