/**
 * "Run tests" on a lab's page: the precomputed outcome of the current combination. A suggestion
 * edited by hand (its region matches no scripted version) has no row in the table, so every test
 * whose outcome depends on it is skipped, named, and counted in the summary; the other tests
 * keep their outcome, which does not depend on that suggestion. Pure.
 */
import { combinationIndex, type LabState } from '../packets/lab-compose.ts';
import { resultAt, type PublishedTable, type TestOutcome } from './table.ts';

/** A suggestion's state on the page: a scripted version, or a hand edit. */
export type PageState = LabState | 'hand';

/** One test's row. */
export interface RunRow {
  /** The test's id (`file::Class::method`). */
  test: string;
  /** The test's method name, for people: `test_rejects_plus_addresses`. */
  name: string;
  /** Its outcome, or `skipped` when it depends on a hand edit. */
  outcome: TestOutcome | 'skipped';
  message?: string;
  /** The suggestions its outcome depends on. */
  dependsOn: string[];
  /** Held out (only on the reviewer's key). */
  hidden: boolean;
}

/** The rows and the summary of one run. */
export interface RunView {
  /** The table's combination index that was read. */
  index: number;
  rows: RunRow[];
  passed: number;
  failed: number;
  skipped: number;
  /** The summary, e.g. "5 of 8 tests pass, 2 fail, 1 skipped: check this edit against the reference (length-cut)." */
  sentence: string;
}

/** The skip message of a test that depends on a hand edit. */
export const SKIPPED_MESSAGE = 'skipped: check this edit against the reference';

/** The run of a combination of page states over a published table (the candidate's, or the reviewer's key). */
export function runView(table: Pick<PublishedTable, 'suggestions' | 'tests' | 'messages' | 'dependencies' | 'combinations'>, states: readonly PageState[], hiddenFrom = Infinity): RunView {
  const hand = new Set(table.suggestions.filter((_, i) => states[i] === 'hand'));
  const index = combinationIndex(states.map((s) => (s === 'hand' ? 'reject' : s)));
  const rows: RunRow[] = table.tests.map((test, i) => {
    const dependsOn = table.dependencies[test] ?? [];
    const name = test.split('::').at(-1) ?? test;
    const hidden = i >= hiddenFrom;
    if (dependsOn.some((s) => hand.has(s))) return { test, name, outcome: 'skipped', message: SKIPPED_MESSAGE, dependsOn, hidden };
    const r = resultAt(table, index, i);
    return { test, name, outcome: r.outcome, ...(r.message !== undefined ? { message: r.message } : {}), dependsOn, hidden };
  });
  const passed = rows.filter((r) => r.outcome === 'pass').length;
  const skipped = rows.filter((r) => r.outcome === 'skipped').length;
  const failed = rows.length - passed - skipped;
  const edits = [...hand].filter((s) => rows.some((r) => r.outcome === 'skipped' && r.dependsOn.includes(s)));
  const parts = [`${passed} of ${rows.length} test${rows.length === 1 ? '' : 's'} pass`];
  if (failed) parts.push(`${failed} fail${failed === 1 ? 's' : ''}`);
  if (skipped) parts.push(`${skipped} skipped: check ${edits.length === 1 ? 'this edit' : 'these edits'} against the reference (${edits.join(', ')})`);
  else if (hand.size) parts.push(`the hand edit${hand.size === 1 ? '' : 's'} of ${[...hand].join(', ')} changes no test's outcome in the table, and is still unchecked`);
  return { index, rows, passed, failed, skipped, sentence: `${parts.join(', ')}.` };
}
