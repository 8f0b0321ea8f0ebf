/**
 * The rehearsal report as a file: one way to write it (`packet rehearse`, `packet merge-reports`)
 * and one way to read it back (`merge-reports`, `report`), with what is wrong named by file.
 */
import { readFile } from 'node:fs/promises';
import { forJson } from '../errors/escape.ts';
import { writeFileWhole } from '../runs/output-folder.ts';
import { sortKeys } from '../llm/stable-json.ts';
import type { RehearsalReporter } from './reporter.ts';
import { REPORT_SCHEMA_VERSION, type RehearsalReport } from './report.ts';

/** Write a file atomically: a temporary file, then a rename; on a failure, no temporary file is left. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await writeFileWhole(file, text);
}

/** The JSON output of a rehearsal, as a reporter: the final report written whole to `file`, through `redact`. */
export function jsonReportFile(file: string, redact: (text: string) => string = (t) => t): RehearsalReporter {
  return {
    onReport: (report) => writeFileAtomic(file, redact(reportText(report))),
  };
}

/** The report as written: two-space JSON, the model runs' keys sorted, a final newline. */
export function reportText(report: RehearsalReport): string {
  return forJson({ ...report, ...(report.models ? { models: sortKeys(report.models) } : {}) });
}

/** A report of the previous document version (2): no kit, no shard, one live model. Read for history only. */
export type LegacyReport = Omit<RehearsalReport, 'schemaVersion' | 'kit'> & { schemaVersion: 2; kit?: undefined };

/** A report as read: the current version, or (where allowed) version 2. */
export type ReadReport = RehearsalReport | LegacyReport;

/** Read a report file; `{ error }` says in words why it is not one. Version 2 is accepted only when `legacy` is set. */
export async function readReport(file: string, options: { legacy?: boolean } = {}): Promise<{ report: ReadReport } | { error: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return { error: `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { error: 'is not JSON' };
  }
  const r = data as Partial<RehearsalReport> | null;
  if (!r || typeof r !== 'object' || !Array.isArray(r.packets) || typeof r.summary !== 'object' || typeof r.date !== 'string') {
    return { error: 'is not a rehearsal report (no date, packets or summary)' };
  }
  const version = (r as { schemaVersion?: unknown }).schemaVersion;
  if (version === REPORT_SCHEMA_VERSION) {
    if (!r.kit || typeof r.kit.version !== 'string' || typeof r.kit.fingerprint !== 'string') return { error: 'names no kit (kit.version, kit.fingerprint)' };
    return { report: r as RehearsalReport };
  }
  if (version === 2 && options.legacy) return { report: r as unknown as LegacyReport };
  return {
    error:
      version === 2
        ? `is a version 2 report, written by an older kit before reports named their kit; rehearse again to get a version ${REPORT_SCHEMA_VERSION} report`
        : `has schemaVersion ${JSON.stringify(version)}; this kit reads version ${REPORT_SCHEMA_VERSION}${options.legacy ? ' (and 2)' : ''}`,
  };
}
