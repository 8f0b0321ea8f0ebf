/**
 * The run in the standard mutation-testing report schema (`mutation-testing-report-schema`,
 * version 2), which Stryker's HTML elements and dashboard read. Outcomes map to its statuses:
 *
 * | kit       | schema       | why |
 * |-----------|--------------|-----|
 * | killed    | Killed       | a test failed |
 * | survived  | Survived     | every test passed |
 * | crashed   | RuntimeError | the run errored before judging behaviour (a hang included: its score must not count it as detected) |
 * | invalid   | CompileError | not a valid mutant of the contract (in a typed language a changed signature would not compile) |
 * | unjudged  | Pending      | the sandbox never ran it |
 *
 * So the schema's own mutation score (detected / (detected + undetected)) is the kit's:
 * killed / (killed + survived). Duplicates are listed once, under the first; an item with no
 * file or no code has no place in a source file and is left out (the kit's report.json keeps
 * every item, and `config` says how many were left out).
 */
import type { FileResult, MutantResult, MutantStatus, MutationTestResult, TestFile } from 'mutation-testing-report-schema';
import type { ExpectedTest } from '../judge/test-ids.ts';
import type { MutationReport } from './report.ts';

/** The schema's status of each kit outcome that is listed. */
export const SCHEMA_STATUS: Readonly<Record<'killed' | 'survived' | 'crashed' | 'invalid' | 'unjudged', MutantStatus>> = {
  killed: 'Killed',
  survived: 'Survived',
  crashed: 'RuntimeError',
  invalid: 'CompileError',
  unjudged: 'Pending',
};

/** The lines a mutant changed, as a schema location (start inclusive, end exclusive) and the text that replaces them. */
export function changedRegion(original: string, mutated: string): { location: MutantResult['location']; replacement: string } {
  const a = original.split('\n');
  const b = mutated.split('\n');
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const removed = a.slice(prefix, a.length - suffix);
  const added = b.slice(prefix, b.length - suffix);
  if (removed.length) {
    const lastLine = prefix + removed.length;
    return {
      location: { start: { line: prefix + 1, column: 1 }, end: { line: lastLine, column: removed.at(-1)!.length + 1 } },
      replacement: added.join('\n'),
    };
  }
  // Lines only added: an empty range where they go.
  if (prefix < a.length) return { location: { start: { line: prefix + 1, column: 1 }, end: { line: prefix + 1, column: 1 } }, replacement: `${added.join('\n')}\n` };
  const last = a.at(-1) ?? '';
  return { location: { start: { line: a.length, column: last.length + 1 }, end: { line: a.length, column: last.length + 1 } }, replacement: `\n${added.join('\n')}` };
}

/** Language names as the report's highlighter knows them. */
function prismLanguage(language: string): string {
  const l = language.toLowerCase();
  return l === 'python' ? 'python' : l === 'typescript' ? 'typescript' : l === 'javascript' ? 'javascript' : l;
}

/** The run as a `MutationTestResult`. `sources` are the sample's files as the model saw them; `tests` the expected tests. Pure. */
export function toMutationTestResult(
  report: MutationReport,
  sources: ReadonlyMap<string, string>,
  tests: readonly ExpectedTest[],
  meta: { language: string; kitVersion: string },
): MutationTestResult {
  const files: Record<string, FileResult> = {};
  for (const [p, source] of [...sources].sort(([x], [y]) => x.localeCompare(y))) files[p] = { language: prismLanguage(meta.language), source, mutants: [] };
  let unplaced = 0;
  for (const m of report.mutants) {
    if (m.status === 'duplicate') continue;
    const file = files[m.path];
    if (!file || m.code === undefined) {
      unplaced++;
      continue;
    }
    const { location, replacement } = changedRegion(file.source, m.code);
    const mutant: MutantResult = {
      id: String(m.id),
      mutatorName: 'ModelProposed',
      description: m.fault || '(no fault stated)',
      replacement,
      location,
      status: SCHEMA_STATUS[m.status],
      statusReason: m.reason,
      ...(m.killedBy?.length ? { killedBy: m.killedBy } : {}),
      ...(m.durationMs !== undefined ? { duration: m.durationMs } : {}),
    };
    file.mutants.push(mutant);
  }
  const testFiles: Record<string, TestFile> = {};
  for (const t of tests) {
    testFiles[t.file] ??= { tests: [] };
    testFiles[t.file]!.tests.push({ id: t.id, name: `${t.id.slice(t.file.length + 2).replaceAll('::', '.')}${t.hidden ? ' (held out)' : ''}` });
  }
  return {
    schemaVersion: '2',
    thresholds: { high: 80, low: 60 },
    files,
    testFiles,
    framework: { name: 'packet-kit', version: meta.kitVersion },
    performance: { setup: report.timing.setupMs - report.timing.baselineMs > 0 ? report.timing.setupMs - report.timing.baselineMs : 0, initialRun: report.timing.baselineMs, mutation: report.timing.mutantsMs },
    config: {
      packet: report.packet,
      version: report.version,
      digest: report.digest,
      model: report.model,
      endpoint: report.endpoint,
      asked: report.summary.asked,
      proposed: report.summary.proposed,
      duplicates: report.summary.duplicates,
      leftOut: unplaced,
    },
  };
}
