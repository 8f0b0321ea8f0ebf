import { defineConfig } from 'vitest/config';

/**
 * The tests Stryker runs against each mutant of the verdict core (`npm run mutation`): the unit
 * tests of the judge, the grading and the model budget only. They are pure and take
 * milliseconds; the sandboxed integration files stay out, so no mutant reruns a bubblewrap run.
 */
export default defineConfig({
  test: {
    include: ['tests/unit/judge/**/*.test.ts', 'tests/unit/grade/**/*.test.ts', 'tests/unit/llm/**/*.test.ts'],
    testTimeout: 20_000,
    pool: 'forks',
  },
});
