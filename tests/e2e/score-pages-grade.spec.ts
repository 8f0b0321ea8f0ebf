import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DRILL_SHEET_KIND, LAB_SHEET_KIND, SHEET_SCHEMA_VERSION } from '../../src/labs/sheets.ts';
import { expect, test } from './support/fixtures.ts';
import { ROOT } from './support/packets.ts';
import { reviewerFile } from './support/reviewer.ts';
import { builtScorePage, jsonFile } from './support/score-cards.ts';

/**
 * Real `packet grade` output on the scoring pages: answer sheets made from the key (one right,
 * one wrong), graded by the CLI, and its summary.json and one scorecard.json imported on the
 * lab's and the drill's scoring pages.
 */
const run = promisify(execFile);
const steps = (ids: readonly string[]) => [
  { at: '2026-12-01T10:00:00.000Z', action: 'start' },
  { at: '2026-12-01T10:04:10.000Z', action: 'accept', id: ids[0]! },
  { at: '2026-12-01T10:09:30.000Z', action: 'test-run', detail: 'the visible tests' },
];

for (const kind of ['lab', 'drill'] as const) {
  test(`${kind}: the summary.json and a scorecard.json of packet grade import on the scoring page`, async ({ page }) => {
    test.setTimeout(180_000);
    const id = kind === 'lab' ? 'lab-signup-form' : 'drill-retry-backoff';
    await page.goto(`/${kind}s/${id}/score/`);
    const built = await builtScorePage(page, kind);
    const keyBytes = reviewerFile(id, built.card.version, kind === 'lab' ? 'LAB-KEY.json' : 'DRILL-KEY.json');
    expect(keyBytes, 'the key in the reviewer bundle').toBeDefined();
    const key = JSON.parse(keyBytes!.toString()) as { key: { id?: string; choice?: string; verdict?: string; change?: string }[] };
    const ids = built.items.map((i) => i.id);
    const base = { schemaVersion: SHEET_SCHEMA_VERSION, id, version: built.card.version, digest: built.card.digest, date: '2026-12-01T10:31:05.000Z' };
    const sheet = (who: string, right: boolean) =>
      kind === 'lab'
        ? { ...base, kind: LAB_SHEET_KIND, candidate: who, plan: { endState: 'e', checkpoints: 'c', invariant: 'i', byHand: 'b' }, suggestions: ids.map((sid, i) => ({ id: sid, choice: right ? key.key[i]!.choice : 'accept', reason: `Why ${sid}.` })), timeline: steps(ids) }
        : { ...base, kind: DRILL_SHEET_KIND, candidate: who, diffs: key.key.map((k) => ({ id: k.id, verdict: right ? k.verdict : 'accept', reason: `Why ${k.id}.`, ...(right && k.change ? { change: k.change } : {}) })), timeline: steps(ids) };
    const dir = await mkdtemp(path.join(tmpdir(), 'packet-grade-score-'));
    try {
      await mkdir(path.join(dir, 'sheets'));
      await writeFile(path.join(dir, 'sheets', 'ada.json'), JSON.stringify(sheet('Ada', true)));
      await writeFile(path.join(dir, 'sheets', 'bob.json'), JSON.stringify(sheet('Bob', false)));
      const out = path.join(dir, 'grades');
      await run(process.execPath, [path.join(ROOT, 'src/cli/bin.js'), 'grade', id, path.join(dir, 'sheets'), '--out', out], { cwd: ROOT }).catch((e: { code?: number; stdout?: string; stderr?: string }) => {
        if (e.code !== 0 && e.code !== 1) throw new Error(`packet grade failed (${e.code}): ${e.stdout}\n${e.stderr}`);
      });
      const summary = JSON.parse(await readFile(path.join(out, id, 'summary.json'), 'utf8')) as { rows: { name: string }[] };
      expect(summary.rows.map((r) => r.name).sort()).toEqual(['ada', 'bob']);

      await page.getByLabel("A scorecard.json or a batch's summary.json").setInputFiles(path.join(out, id, 'summary.json'));
      await expect(page.locator('[data-sheet-queue-rows] tr')).toHaveCount(2);
      await expect(page.locator('[data-sheet-queue-rows] tr').nth(0).locator('td').nth(4)).toHaveText('ready to score');
      await expect(page.locator('[data-sheet-queue-rows] tr').nth(1).locator('td').nth(4)).toHaveText('ready to score');
      await expect(page.getByLabel('Candidate', { exact: true })).toHaveValue('Ada');
      await expect(page.locator('[data-compare-summary]')).toHaveText(new RegExp(`^${ids.length} of ${ids.length} (choices|verdicts) match the key`));
      await expect(page.locator('[data-timeline-rows] tr')).toHaveCount(3);
      await expect(page.locator('[data-timeline-rows] tr').nth(1).locator('td').nth(0)).toHaveText('+4:10');
      await expect(page.locator('[data-graded-headline]')).toContainText('decision so far');
      if (kind === 'lab') await expect(page.locator('[data-final-rows] tr td:nth-child(2)', { hasText: 'yes' }).first()).toBeVisible();
      const auto = built.card.rubric.rows.filter((r) => r.auto);
      await expect(page.locator('[data-scoring-card] input[type="radio"]:checked')).not.toHaveCount(0);
      expect(auto.length).toBeGreaterThan(0);

      // Reloaded, the page restores Ada's card from this browser: a scorecard over it asks first.
      await page.goto(`/${kind}s/${id}/score/`);
      await expect(page.getByLabel('Candidate', { exact: true })).toHaveValue('Ada');
      const bob = await readFile(path.join(out, id, 'bob', 'scorecard.json'));
      await page.getByLabel("A scorecard.json or a batch's summary.json").setInputFiles(jsonFile('scorecard.json', JSON.parse(bob.toString())));
      const dialog = page.getByRole('dialog', { name: 'Replace the card you are scoring?' });
      await dialog.getByRole('button', { name: 'Replace the card' }).click();
      await expect(page.getByLabel('Candidate', { exact: true })).toHaveValue('Bob');
      await expect(page.locator('[data-compare-rows] td[data-match="no"]').first()).toBeVisible();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}
