import { mutationReportHtml, reportElementsScript } from '../../src/mutate/html-report.ts';
import { summarize, type MutantRecord, type MutationReport } from '../../src/mutate/report.ts';
import { toMutationTestResult } from '../../src/mutate/stryker-report.ts';
import { expect, test } from './support/fixtures.ts';

/**
 * The page `packet mutate` writes, in Chromium: the plain list of mutants, and Stryker's web
 * component over the same data, its script inlined (the page fetches nothing and logs no error).
 */
const SOURCE = 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n';
const mutants: MutantRecord[] = [
  { id: 1, fault: 'add subtracts', path: 'src/calc.py', status: 'killed', reason: '1 test fails', code: SOURCE.replace('a + b', 'a - b'), killedBy: ['tests/test_calc.py::TestCalc::test_add'], turn: 1 },
  { id: 2, fault: 'sub swaps its arguments', path: 'src/calc.py', status: 'survived', reason: 'every test passes', code: SOURCE.replace('a - b', 'b - a'), turn: 1 },
];
const report = {
  schemaVersion: 1,
  packet: 'calc',
  version: '1.0.0',
  digest: 'd'.repeat(64),
  date: '2026-11-29T12:00:00.000Z',
  model: 'scripted:calc/mutants',
  endpoint: '127.0.0.1:1234',
  scripted: true,
  verdict: 'classified',
  sources: [],
  baseline: { tests: '2 ran, 0 failed', durationMs: 10 },
  calls: [{ turn: 1, attempts: 1, status: 'ok', error: null }],
  mutants,
  summary: summarize(2, mutants),
  spend: { calls: 1, tokens: 10, promptTokens: 5, completionTokens: 5, unknownCalls: 0, wallMs: 1 },
  stop: null,
  timing: { setupMs: 20, baselineMs: 10, mutantsMs: 20, perMutantMs: 10, wallMs: 50 },
  receipts: { usage: null, ledger: null, giveUp: null },
} satisfies MutationReport;

test('the mutation report page lists the mutants and renders the standard report', async ({ page }) => {
  const sources = new Map([['src/calc.py', SOURCE]]);
  const result = toMutationTestResult(report, sources, [{ id: 'tests/test_calc.py::TestCalc::test_add', file: 'tests/test_calc.py', hidden: false }], { language: 'python', kitVersion: '0.1.0' });
  await page.setContent(mutationReportHtml(report, result, sources, await reportElementsScript()));
  await expect(page.locator('#summary')).toContainText('2 mutants: 1 killed, 1 survived, 0 crashed, 0 invalid; mutation score 50%');
  await expect(page.locator('#mutant-2 .status')).toHaveText('survived');
  await expect(page.locator('#mutant-2 pre')).toContainText('+    return b - a');
  // The web component, in its shadow root: the file with its score.
  const app = page.locator('mutation-test-report-app');
  await expect(app.getByRole('link', { name: 'calc.py' })).toBeVisible();
  await expect(app.getByRole('row', { name: /calc\.py 50\.00 50\.00/ })).toBeVisible();
});
