import AxeBuilder from '@axe-core/playwright';
import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { ROOT } from './support/packets.ts';

/**
 * Issue 24 done, end to end: two candidates do the smallest lab and one does a drill from the
 * catalog to an exported answer sheet, losing no choice on a reload or a re-import; the reviewer
 * grades the sheets with `packet grade`, finds the scoring pages by following links, imports the
 * batch, reads both candidates' timelines, scores the judgement rows and exports a card. The lab,
 * the drill and both scoring pages pass axe, every impact counted, light and dark, 1280 and 390 px.
 */
const run = promisify(execFile);
// The smallest shipped lab (four suggestions, one file) and a drill of five diffs.
const LAB = 'lab-free-time';
const DRILL = 'drill-retry-backoff';
const DONE = "I'm done: check and export";
const ACCEPT = 'Accept as offered';
const REVISE = 'Push back: take the revision';
const REJECT = 'Reject: keep the code as it is';
const NAME = 'Your name (goes on the answer sheet)';
const PLAN: [string, string][] = [
  ['End state', 'free_slots gives the free minutes of the working day.'],
  ['Checkpoints', 'merge sorts and joins\ngaps fill the day\nmin length drops short slots'],
  ['The invariant', 'The visible tests keep passing.'],
  ['What you will do by hand', 'The edge of the working day.'],
];
/** Ada's lab: a revise, an accept, a revise edited by hand, a reject. Bob accepts everything. */
const ADA: Record<string, string> = { merge: REVISE, gaps: ACCEPT, 'min-length': REVISE, 'quarter-hours': REJECT };
const BOB: Record<string, string> = { merge: ACCEPT, gaps: ACCEPT, 'min-length': ACCEPT, 'quarter-hours': ACCEPT };
const REASONS: Record<string, string> = {
  merge: 'The offered merge drops touching intervals.',
  'min-length': 'Kept the revision, with a note by hand.',
  'quarter-hours': 'Rounding to quarter hours changes the answer.',
};
const VERDICTS: Record<string, string> = {
  'retry-read-timeouts': 'Reject',
  'full-jitter': 'Accept',
  'sleep-in-async': 'Reject',
  'test-attempts': 'Accept with a change',
  'retry-after': 'Reject',
};

const SCHEMES = ['light', 'dark'] as const;
const WIDTHS = [1280, 390] as const;

/** Every axe violation, whatever its impact, as readable lines. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact ?? 'no impact'}): ${n.target.join(' ')}: ${n.failureSummary?.split('\n').join(' ')}`));
}

/** axe in both themes at both widths, on the page as it stands; each line names where it failed. */
async function axeEverywhere(page: Page, name: string): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const v of await violations(page)) found.push(`${name}, ${scheme}, ${width} px: ${v}`);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      if (wide > width) found.push(`${name}, ${scheme}, ${width} px: the page is ${wide} px wide`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
  return found;
}

/** Press done and keep the sheet it downloads. */
async function handIn(page: Page, testInfo: TestInfo): Promise<{ file: string; sheet: { timeline: { action: string; id?: string }[] } & Record<string, unknown> }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: DONE }).click()]);
  const file = testInfo.outputPath('sheets', download.suggestedFilename());
  await download.saveAs(file);
  await expect(page.locator('[data-done-result]')).toContainText(`Done. Your answer sheet is saved as ${download.suggestedFilename()}.`);
  return { file, sheet: JSON.parse(await readFile(file, 'utf8')) };
}

const group = (page: Page, id: string) => page.getByRole('group', { name: `Your choice on ${id}` });
const verdict = (page: Page, i: number) => page.getByRole('group', { name: `Your verdict on diff ${i + 1}` });
const editorLine = (page: Page, text: string) => page.locator('[data-editor="free_time.py"] :is(.cm-line, pre[data-code-view] .line)', { hasText: text });

/** The lab's answers as the page shows them. */
async function expectLab(page: Page, who: string, choices: Record<string, string>, handEdit: boolean): Promise<void> {
  for (const [label, text] of PLAN) await expect(page.getByLabel(label, { exact: true })).toHaveValue(text);
  for (const [id, label] of Object.entries(choices)) {
    // A region edited by hand is the candidate's own text: no offered choice is ticked on it.
    if (handEdit && id === 'min-length') await expect(page.locator('[data-chosen="min-length"]')).toHaveText('(you edited it by hand)');
    else await expect(group(page, id).getByLabel(label)).toBeChecked();
  }
  for (const [id, label] of Object.entries(choices)) if (label !== ACCEPT) await expect(page.locator(`[data-reason="${id}"]`)).toHaveValue(REASONS[id]!);
  await expect(page.getByLabel(NAME)).toHaveValue(who);
  if (handEdit) {
    await expect(page.locator('[data-suggestion="min-length"] [data-hand-note]')).toBeVisible();
    // The editor draws the lines in view only.
    await page.locator('[data-editor="free_time.py"]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await expect(editorLine(page, '# by hand')).toBeVisible();
  }
}

/** A candidate does the lab from the catalog: clock, plan, every choice, a hand edit, tests, done (refused first), the sheet. */
async function doLab(page: Page, testInfo: TestInfo, who: string, choices: Record<string, string>, handEdit: boolean) {
  await page.goto('/');
  await page.getByRole('link', { name: 'Find Free Time in a Calendar', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/labs/${LAB}/$`));
  await expect(page.getByRole('button', { name: 'Start the clock' })).toBeVisible();
  await page.getByRole('button', { name: 'Start the clock' }).click();
  await expect(page.locator('[data-time-box]')).toContainText('Time box: 45 of 45 minutes left');
  for (const [label, text] of PLAN) await page.getByLabel(label, { exact: true }).fill(text);
  for (const [id, label] of Object.entries(choices)) await group(page, id).getByLabel(label).check();
  if (handEdit) {
    // The editor loads when the file view takes the focus.
    await expect(page.locator('[data-editor="free_time.py"] .cm-content')).toHaveCount(0);
    await page.locator('[data-editor="free_time.py"]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await editorLine(page, 'e - s >= min_length').click();
    await expect(page.locator('[data-editor="free_time.py"] .cm-content')).toBeFocused();
    await page.keyboard.press('End');
    await page.keyboard.insertText('  # by hand');
    await expect(page.locator('[data-suggestion="min-length"] [data-hand-note]')).toBeVisible();
  }
  await page.getByRole('button', { name: 'Run tests' }).click();
  await expect(page.locator('[data-run-summary]')).not.toBeEmpty();
  // The reasons but the first, and no name: done refuses, naming what is missing.
  const reasoned = Object.keys(choices).filter((id) => choices[id] !== ACCEPT);
  for (const id of reasoned.slice(1)) await page.locator(`[data-reason="${id}"]`).fill(REASONS[id]!);
  await page.getByRole('button', { name: DONE }).click();
  const result = page.locator('[data-done-result]');
  await expect(result).toContainText('Nothing was exported.');
  await expect(result.getByRole('link')).toHaveText([...reasoned.slice(0, 1).map((id) => `Give a reason for your choice on ${id}.`), 'Write your name.']);
  for (const id of reasoned.slice(0, 1)) await page.locator(`[data-reason="${id}"]`).fill(REASONS[id]!);
  await page.getByLabel(NAME).fill(who);
  const sheet = await handIn(page, testInfo);
  expect(sheet.sheet).toMatchObject({ id: LAB, candidate: who, suggestions: Object.entries(choices).map(([id, label]) => ({ id, choice: label === ACCEPT ? 'accept' : label === REVISE ? 'revise' : 'reject' })) });
  const actions = sheet.sheet.timeline.map((e) => e.action);
  expect(actions[0]).toBe('start');
  expect(actions).toContain('test-run');
  expect(actions.includes('hand-edit')).toBe(handEdit);
  expect(actions.at(-1)).toBe('done');

  // Reloaded, nothing is lost; cleared, the page is empty; the sheet opened again brings every answer back.
  await page.reload();
  await expectLab(page, who, choices, handEdit);
  await page.getByRole('button', { name: 'Start over' }).click();
  await page.getByRole('dialog', { name: 'Start over?' }).getByRole('button', { name: 'Clear everything' }).click();
  await page.reload();
  for (const id of Object.keys(choices)) await expect(group(page, id).getByRole('radio', { checked: true })).toHaveCount(0);
  await page.getByLabel('Open a saved sheet').setInputFiles(sheet.file);
  await expect(page.locator('[data-sheet-status]')).toHaveText(`Opened ${path.basename(sheet.file)}: every answer on this page is now the saved sheet's.`);
  await expectLab(page, who, choices, handEdit);
  return sheet;
}

// The reviewer grades the sheets the candidates exported: the second test reads the first one's files.
test.describe.configure({ mode: 'serial' });
const exported: Record<string, string> = {};

test('a candidate does a lab and a drill from the catalog to an exported sheet and loses nothing; both pages pass axe', async ({ page, browser }, testInfo) => {
  // Eight axe scans of 2-6 s each on a busy 2-core machine, and the rounds themselves.
  test.setTimeout(90_000);
  await mkdir(testInfo.outputPath('sheets'), { recursive: true });
  exported['Ada Lovelace'] = (await doLab(page, testInfo, 'Ada Lovelace', ADA, true)).file;
  expect(await axeEverywhere(page, 'lab page')).toEqual([]);

  // The drill, from the catalog too.
  await page.goto('/');
  await page.getByRole('link', { name: 'Review Retries With Backoff', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/drills/${DRILL}/$`));
  await expect(page.getByRole('button', { name: 'Start the clock' })).toBeVisible();
  await page.getByRole('button', { name: 'Start the clock' }).click();
  await expect(page.locator('[data-time-box]')).toContainText('minutes left');
  const ids = Object.keys(VERDICTS);
  for (const [i, id] of ids.entries()) {
    await verdict(page, i).getByLabel(VERDICTS[id]!, { exact: true }).check();
    await page.locator(`[data-reason="${id}"]`).fill(`Reason for ${id}: what would happen in production.`);
  }
  await page.getByRole('button', { name: DONE }).click();
  await expect(page.locator('[data-done-result]').getByRole('link')).toHaveText(['Name the change you would ask for on test-attempts.', 'Write your name.']);
  await page.locator('[data-change="test-attempts"]').fill('Use assertRaises on the last attempt.');
  await page.getByLabel(NAME).fill('Grace Hopper');
  const drillSheet = await handIn(page, testInfo);
  expect(drillSheet.sheet).toMatchObject({ id: DRILL, candidate: 'Grace Hopper' });
  exported['Grace Hopper'] = drillSheet.file;
  const expectDrill = async () => {
    for (const [i, id] of ids.entries()) {
      await expect(verdict(page, i).getByLabel(VERDICTS[id]!, { exact: true })).toBeChecked();
      await expect(page.locator(`[data-reason="${id}"]`)).toHaveValue(`Reason for ${id}: what would happen in production.`);
    }
    await expect(page.locator('[data-change="test-attempts"]')).toHaveValue('Use assertRaises on the last attempt.');
    await expect(page.getByLabel(NAME)).toHaveValue('Grace Hopper');
  };
  await page.reload();
  await expectDrill();
  await page.getByRole('button', { name: 'Start over' }).click();
  await page.getByRole('dialog', { name: 'Start over?' }).getByRole('button', { name: 'Clear everything' }).click();
  await page.reload();
  await expect(verdict(page, 0).getByLabel('Reject', { exact: true })).not.toBeChecked();
  await page.getByLabel('Open a saved sheet').setInputFiles(drillSheet.file);
  await expectDrill();
  expect(await axeEverywhere(page, 'drill page')).toEqual([]);

  // A second candidate, in a browser of their own, accepts every suggestion of the same lab.
  const other = await browser.newContext();
  try {
    exported['Bob Babbage'] = (await doLab(await other.newPage(), testInfo, 'Bob Babbage', BOB, false)).file;
  } finally {
    await other.close();
  }
});

test('the reviewer grades the sheets with packet grade, finds the scoring pages by their links and scores both candidates; both pages pass axe', async ({ page }, testInfo) => {
  // Eight axe scans of 2-6 s each on a busy 2-core machine, and the rounds themselves.
  test.setTimeout(90_000);
  expect(Object.keys(exported).sort(), 'the sheets the candidates of the first test exported').toEqual(['Ada Lovelace', 'Bob Babbage', 'Grace Hopper']);
  const drillFile = exported['Grace Hopper']!;

  // packet grade, as the reviewer runs it: the lab's two sheets in one batch, the drill's sheet.
  const grade = async (id: string, files: string[]) => {
    const out = testInfo.outputPath('grades');
    await run(process.execPath, [path.join(ROOT, 'src/cli/bin.js'), 'grade', id, ...files, '--out', out], { cwd: ROOT }).catch((e: { code?: number; stdout?: string; stderr?: string }) => {
      // 1: a submission failed its grading, which is a result; anything else is packet grade failing.
      if (e.code !== 1) throw new Error(`packet grade ${id} failed (${e.code}): ${e.stdout}\n${e.stderr}`);
    });
    const summary = path.join(out, id, 'summary.json');
    const rows = (JSON.parse(await readFile(summary, 'utf8')) as { rows: { name: string; scorecard?: unknown }[] }).rows;
    expect(rows, `packet grade ${id} graded every sheet`).toHaveLength(files.length);
    expect(rows.every((r) => r.scorecard)).toBe(true);
    return summary;
  };
  const labSummary = await grade(LAB, [exported['Ada Lovelace']!, exported['Bob Babbage']!]);
  const drillSummary = await grade(DRILL, [drillFile]);

  // The reviewer starts at the catalog and follows links only.
  await page.goto('/');
  await page.getByRole('link', { name: 'Find Free Time in a Calendar', exact: true }).click();
  await page.getByRole('link', { name: 'the codebase and its zip' }).click();
  await expect(page).toHaveURL(new RegExp(`/packets/${LAB}/$`));
  await page.locator('[data-reviewer]').getByRole('link', { name: "the lab's scoring page" }).click();
  await expect(page).toHaveURL(new RegExp(`/labs/${LAB}/score/$`));

  const scoreBatch = async (names: string[], summary: string) => {
    const input = page.getByLabel("A scorecard.json or a batch's summary.json");
    // The import is enabled once the page's script has mounted.
    await expect(input).toBeEnabled();
    await input.setInputFiles(summary);
    const queue = page.locator('[data-sheet-queue-rows] tr');
    await expect(queue).toHaveCount(names.length);
    for (const [i, name] of names.entries()) {
      if (i > 0) await page.locator('[data-queue-next]').click();
      await expect(queue.nth(i)).toHaveAttribute('aria-current', 'true');
      await expect(page.getByLabel('Candidate', { exact: true })).toHaveValue(name);
      // The candidate's timeline: their start first, their done last.
      const steps = page.locator('[data-timeline-rows] tr');
      await expect(steps.first()).toBeVisible();
      expect(await steps.count()).toBeGreaterThan(2);
    }
    // The last candidate's judgement rows, scored by hand, and the card exported.
    const card = JSON.parse((await page.locator('[data-scoring-card]').getAttribute('data-scoring-card'))!) as { rubric: { rows: { id: string; max: number; auto?: unknown }[] } };
    const judgement = card.rubric.rows.filter((r) => !r.auto);
    expect(judgement.length).toBeGreaterThan(0);
    for (const r of judgement) await page.locator(`[data-row="${r.id}"] input[value="${r.max}"]`).check();
    await page.getByLabel('Reviewer', { exact: true }).fill('Sam');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export scored sheet (JSON)' }).click()]);
    const scored = JSON.parse(await readFile((await download.path())!, 'utf8')) as { candidate: string; scores: Record<string, number> };
    expect(scored.candidate).toBe(names.at(-1));
    for (const r of judgement) expect(scored.scores[r.id]).toBe(r.max);
  };
  await scoreBatch(['Ada Lovelace', 'Bob Babbage'], labSummary);
  const found = await axeEverywhere(page, 'lab scoring page');

  await page.goto('/');
  await page.getByRole('link', { name: 'Review Retries With Backoff', exact: true }).click();
  await page.locator('section.reviewer').getByRole('link', { name: "the drill's scoring page" }).click();
  await expect(page).toHaveURL(new RegExp(`/drills/${DRILL}/score/$`));
  await scoreBatch(['Grace Hopper'], drillSummary);
  found.push(...(await axeEverywhere(page, 'drill scoring page')));
  expect(found).toEqual([]);
});
