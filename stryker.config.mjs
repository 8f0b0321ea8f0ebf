// npm run mutation: Stryker over the verdict core, run by the unit tests of vitest.mutation.config.ts.
// Incremental: reports/stryker-incremental.json (committed) keeps each mutant's result, so a run
// after a small change tests only the mutants and tests that changed. `npm run mutation -- --force`
// runs every mutant again. No TypeScript checker: @stryker-mutator/typescript-checker needs the
// compiler API, which TypeScript 7 does not have; a mutant that would not compile runs anyway and
// the tests judge it like any other.

/** The files that decide verdicts, scores and budgets. */
export const verdictCore = [
  'src/judge/judge.ts',
  'src/judge/findings.ts',
  'src/judge/test-summary.ts',
  'src/judge/test-ids.ts',
  'src/judge/canaries.ts',
  'src/judge/signals.ts',
  'src/judge/contract.ts',
  'src/judge/receipts.ts',
  'src/judge/auto-rows.ts',
  'src/judge/harness/record.ts',
  'src/judge/score.ts',
  'src/judge/scorecard.ts',
  'src/llm/budget.ts',
  'src/llm/ledger.ts',
  'src/llm/retry.ts',
  'src/llm/tokens.ts',
];

/** The mutation score the verdict core must keep; `npm run mutation` fails under it. */
export const target = 90;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: verdictCore,
  checkers: [],
  concurrency: 2,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  // A mutant that runs this long is taken for an endless loop (the default 5 s is too tight on a busy 2-core machine).
  timeoutMS: 10_000,
  thresholds: { high: 95, low: target, break: target },
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // tsconfig.json stays out of the sandbox: Stryker rewrites a sandboxed tsconfig through the
  // TypeScript compiler API, which TypeScript 7 lacks. Vitest needs none of it to run the tests.
  ignorePatterns: ['/tsconfig.json', 'dist', 'out', 'reports', 'test-results', 'playwright-report', '.astro', 'tests/e2e', 'tests/integration'],
};
