import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { RehearsalReport } from '../rehearse/report.ts';
import { readReport, type ReadReport } from '../rehearse/report-file.ts';
import { mergeReports, type MergeInput, type MergeResult } from './merge.ts';

/**
 * Reading the rehearsal reports `packet merge-reports` and `packet report` are given: the named
 * files (every one must be a report of this kit's format), and the history folder (any file that
 * is not a report is counted, not fatal).
 */

/** The named report files, relative to `cwd`; or every problem, one per file that is not a usable report. */
export async function readReportInputs(files: readonly string[], cwd: string): Promise<{ inputs: MergeInput[]; problems: string[] }> {
  const inputs: MergeInput[] = [];
  const problems: string[] = [];
  for (const file of files) {
    const read = await readReport(path.resolve(cwd, file));
    if ('error' in read) problems.push(`${file} ${read.error}`);
    else inputs.push({ file, report: read.report as RehearsalReport });
  }
  return { inputs, problems };
}

/** One report of several: the one itself, or the shards merged (`always`: one is merged too, as merge-reports does). */
export function joinReports(inputs: readonly MergeInput[], always = false): MergeResult {
  return inputs.length === 1 && !always ? { ok: true, report: inputs[0]!.report } : mergeReports(inputs);
}

/** Every report under `dir` (any depth), in path order; what is not a report is counted, not fatal. */
export async function readHistory(dir: string): Promise<{ reports: ReadReport[]; skipped: string[] }> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => null);
  if (!entries) return { reports: [], skipped: [] };
  const files = entries
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  const reports: ReadReport[] = [];
  const skipped: string[] = [];
  for (const file of files) {
    const read = await readReport(file, { legacy: true });
    if ('error' in read) skipped.push(file);
    else reports.push(read.report);
  }
  return { reports, skipped };
}
