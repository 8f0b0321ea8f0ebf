/**
 * A lab's test table: every combination of its suggestions' states, with every expected test's
 * outcome, computed ahead of time in the sandbox (see precompute.ts). From it the kit publishes
 * the candidate's table (visible tests only) and the reviewer's key (visible and held-out), and
 * works out which suggestions each test's outcome depends on. Pure: the lab page and the scoring
 * page read the same formats in the browser.
 */
import { combinationCount, LAB_STATES, statesOfIndex, type LabState } from '../packets/lab-compose.ts';

/** How one test ended in one combination. `missing`: the runner never reported it; `timeout` and `crash`: the whole combination. */
export type TestOutcome = 'pass' | 'fail' | 'error' | 'skip' | 'xfail' | 'xpass' | 'missing' | 'timeout' | 'crash';

/** One test's result in one combination. */
export interface TestResult {
  outcome: TestOutcome;
  /** A short message for anything but a pass: the last line of the traceback. */
  message?: string;
}

/** Bump when the table's content changes meaning: cached tables of an older version are recomputed. */
export const LAB_TABLE_VERSION = 1;

/** The full table, as computed: visible and held-out results of every combination. */
export interface LabTable {
  /** {@link LAB_TABLE_VERSION}. */
  schemaVersion: number;
  id: string;
  version: string;
  digest: string;
  /** Suggestion ids, in the order of the combination index's digits. */
  suggestions: string[];
  /** The expected tests (read from the test files), in the judge's id form. */
  tests: { visible: string[]; hidden: string[] };
  /** By combination index (see `combinationIndex`): each visible test's result, then each held-out test's. */
  combinations: { visible: TestResult[]; hidden: TestResult[] }[];
}

/** Every expected test of a combination passed. */
export function allPass(results: readonly TestResult[]): boolean {
  return results.every((r) => r.outcome === 'pass');
}

/**
 * Which suggestions a test's outcome depends on: a suggestion counts when two combinations that
 * differ in its state alone give the test different outcomes. Keyed by test id, suggestions in
 * the table's order.
 */
export function dependencies(table: Pick<LabTable, 'suggestions' | 'tests' | 'combinations'>, which: 'visible' | 'hidden' | 'all' = 'all'): Record<string, string[]> {
  const n = table.suggestions.length;
  const tests = which === 'visible' ? table.tests.visible.map((id, i) => ({ id, at: (c: LabTable['combinations'][number]) => c.visible[i]! })) : [];
  if (which !== 'visible') {
    table.tests.visible.forEach((id, i) => which === 'all' && tests.push({ id, at: (c) => c.visible[i]! }));
    table.tests.hidden.forEach((id, i) => tests.push({ id, at: (c) => c.hidden[i]! }));
  }
  const out: Record<string, string[]> = {};
  for (const t of tests) {
    const deps: string[] = [];
    for (let s = 0; s < n; s++) {
      const step = 3 ** s;
      let depends = false;
      for (let index = 0; index < table.combinations.length && !depends; index++) {
        if (Math.floor(index / step) % 3 !== 0) continue;
        const base = t.at(table.combinations[index]!).outcome;
        for (const k of [1, 2]) if (t.at(table.combinations[index + k * step]!).outcome !== base) depends = true;
      }
      if (depends) deps.push(table.suggestions[s]!);
    }
    out[t.id] = deps;
  }
  return out;
}

/** The candidate's table's file name, beside the lab's pages: `dist/packets/<id>/combinations.json`. */
export const LAB_TABLE_FILE = 'combinations.json';

/**
 * The site path of a lab's candidate table: `/packets/<id>/combinations.json` for the lab (or its
 * variant v1), `/packets/<id>/v<k>/combinations.json` for its variant k >= 2.
 */
export function labTablePath(id: string, variant?: number): string {
  return variant !== undefined && variant > 1 ? `/packets/${id}/v${variant}/${LAB_TABLE_FILE}` : `/packets/${id}/${LAB_TABLE_FILE}`;
}

/** The site path of a lab's page: `/labs/<id>/` for the lab (or its variant v1), `/labs/<id>/v<k>/` for its variant k >= 2. */
export function labPagePath(id: string, variant?: number): string {
  return variant !== undefined && variant > 1 ? `/labs/${id}/v${variant}/` : `/labs/${id}/`;
}

/** The format name inside the candidate's table, so a stray file is not read as one. */
export const LAB_TABLE_KIND = 'packet-kit/lab-table';
/** The format name inside the reviewer's key. */
export const LAB_KEY_KIND = 'packet-kit/lab-key';

/** A table as published: tests named once, messages once, results by index into them. */
export interface PublishedTable {
  schemaVersion: number;
  kind: string;
  id: string;
  version: string;
  digest: string;
  suggestions: string[];
  /** The states in the order of the index's digits' values. */
  states: readonly LabState[];
  /** The tests whose results are given, in order. */
  tests: string[];
  /** The distinct messages; results point into this list. */
  messages: string[];
  /** For each test, the suggestions its outcome depends on. */
  dependencies: Record<string, string[]>;
  /** By combination index: the states, each test's outcome, and the index of its message (null for none). */
  combinations: { states: LabState[]; outcomes: TestOutcome[]; messages: (number | null)[] }[];
}

/** The candidate's table, `dist/packets/<id>/combinations.json`: the visible tests only. */
export interface CandidateTable extends PublishedTable {}

/** A suggestion's key as the reviewer's file carries it. */
export interface KeyEntry {
  id: string;
  choice: LabState;
  reason: string;
  reviewOnly?: string;
}

/** The reviewer's key, `LAB-KEY.json` in the reviewer bundle: the key, and the visible and held-out tests (held-out ones after the visible). */
export interface ReviewerKey extends PublishedTable {
  /** The key of each suggestion, in order. */
  key: KeyEntry[];
  /** How many of `tests` are visible (the rest are held out). */
  visibleCount: number;
}

function publish(table: LabTable, kind: string, withHidden: boolean): PublishedTable {
  const messages: string[] = [];
  const indexOf = new Map<string, number>();
  const message = (r: TestResult) => {
    if (r.message === undefined) return null;
    let i = indexOf.get(r.message);
    if (i === undefined) {
      i = messages.length;
      messages.push(r.message);
      indexOf.set(r.message, i);
    }
    return i;
  };
  const n = table.suggestions.length;
  const combinations = table.combinations.map((c, index) => {
    const results = withHidden ? [...c.visible, ...c.hidden] : c.visible;
    return { states: statesOfIndex(index, n), outcomes: results.map((r) => r.outcome), messages: results.map(message) };
  });
  return {
    schemaVersion: table.schemaVersion,
    kind,
    id: table.id,
    version: table.version,
    digest: table.digest,
    suggestions: table.suggestions,
    states: LAB_STATES,
    tests: withHidden ? [...table.tests.visible, ...table.tests.hidden] : table.tests.visible,
    messages,
    dependencies: dependencies(table, withHidden ? 'all' : 'visible'),
    combinations,
  };
}

/** The candidate's table: visible tests only. */
export function candidateTable(table: LabTable): CandidateTable {
  return publish(table, LAB_TABLE_KIND, false);
}

/** The reviewer's key: the key of each suggestion, and visible and held-out results. */
export function reviewerKey(table: LabTable, key: readonly KeyEntry[]): ReviewerKey {
  return { ...publish(table, LAB_KEY_KIND, true), key: [...key], visibleCount: table.tests.visible.length };
}

/** One test's result in a published table's combination. */
export function resultAt(t: Pick<PublishedTable, 'combinations' | 'messages'>, index: number, test: number): TestResult {
  const c = t.combinations[index]!;
  const m = c.messages[test];
  return { outcome: c.outcomes[test]!, ...(m !== null && m !== undefined ? { message: t.messages[m]! } : {}) };
}

/** The number of combinations a table of n suggestions holds. */
export const tableSize = combinationCount;
