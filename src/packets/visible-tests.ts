/**
 * Count the test functions of a starter's visible tests, statically, for the catalog card.
 *
 * A test file is a starter file whose name follows the language's discovery convention; a test
 * function is a definition that the usual runner would collect. The count is what a reader of the
 * zip would count by eye; a runner may report more (subtests, parametrised cases).
 */

interface TestConvention {
  /** A starter file (its base name) that holds tests. */
  file: RegExp;
  /** One match per test function. */
  test: RegExp;
}

const PYTHON: TestConvention = {
  // unittest discovers `test*.py`; pytest also collects `*_test.py`. Both collect `test*` functions.
  file: /^(?:test.*|.*_test)\.py$/,
  test: /^[ \t]*(?:async[ \t]+)?def[ \t]+test\w*[ \t]*\(/gm,
};

const JAVASCRIPT: TestConvention = {
  file: /\.(?:test|spec)\.[cm]?[jt]sx?$/,
  test: /^[ \t]*(?:test|it)(?:\.(?:only|skip|todo|concurrent))?[ \t]*\(/gm,
};

const CONVENTIONS: Record<string, TestConvention> = {
  python: PYTHON,
  javascript: JAVASCRIPT,
  typescript: JAVASCRIPT,
  go: { file: /_test\.go$/, test: /^func[ \t]+Test[A-Z_0-9]\w*[ \t]*\(/gm },
  rust: { file: /\.rs$/, test: /#\[(?:tokio::)?test\]/g },
};

/** A starter file as the counter needs it. */
export interface StarterText {
  /** Path relative to `starter/`. */
  path: string;
  /** The contents; absent for binary or large files, which are not counted. */
  text?: string;
}

/** The number of test functions in the visible tests, or `undefined` when the language has no known convention. */
export function countVisibleTests(language: string, starter: readonly StarterText[]): number | undefined {
  const convention = CONVENTIONS[language.toLowerCase()];
  if (!convention) return undefined;
  let count = 0;
  for (const file of starter) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    if (file.text === undefined || !convention.file.test(name)) continue;
    count += file.text.match(convention.test)?.length ?? 0;
  }
  return count;
}
