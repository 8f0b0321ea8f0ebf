/**
 * A run's reports on disk, beside its receipts: `report.json` (the kit's, with every mutant's
 * code), `mutation-report.json` (the standard schema) and `mutation-report.html`. Each file is
 * written whole and renamed into place; a folder never mixes two runs (see `clearRunFolder`).
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { forJson, inertJson } from '../errors/escape.ts';
import type { ExpectedTest } from '../judge/test-ids.ts';
import { stableJson } from '../llm/stable-json.ts';
import { writeFileWhole as writeAtomic } from '../runs/output-folder.ts';
import { mutationReportHtml, reportElementsScript } from './html-report.ts';
import { RUN_FILES, type MutationReport } from './report.ts';

export { RUN_FILES } from './report.ts';
import { toMutationTestResult } from './stryker-report.ts';


/** Remove a previous run's files from `dir` (only the kit's own names), so nothing of it is read as this run's. */
export async function clearRunFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const f of Object.values(RUN_FILES)) await rm(path.join(dir, f), { force: true });
}

/** Write the three reports into `dir`; returns their paths. */
export async function writeMutationReports(
  dir: string,
  report: MutationReport,
  context: { sources: ReadonlyMap<string, string>; tests: readonly ExpectedTest[]; language: string; kitVersion: string; scrub?: (text: string) => string },
): Promise<{ report: string; schemaReport: string; html: string }> {
  // A second lock, as for receipts: a key a model echoed into its code is removed from every file written.
  const scrub = context.scrub ?? ((text: string) => text);
  await mkdir(dir, { recursive: true });
  const schema = toMutationTestResult(report, context.sources, context.tests, { language: context.language, kitVersion: context.kitVersion });
  const files = { report: path.join(dir, RUN_FILES.report), schemaReport: path.join(dir, RUN_FILES.schemaReport), html: path.join(dir, RUN_FILES.html) };
  await writeAtomic(files.report, scrub(inertJson(stableJson(report, 2)) + '\n'));
  await writeAtomic(files.schemaReport, scrub(forJson(schema)));
  await writeAtomic(files.html, scrub(mutationReportHtml(report, schema, context.sources, await reportElementsScript())));
  return files;
}
