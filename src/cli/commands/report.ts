import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { KIT_ROOT } from '../../kit/fingerprint.ts';
import { buildHtmlReport } from '../../report/html-build.ts';
import { junitXml } from '../../report/junit.ts';
import { mergeReports } from '../../report/merge.ts';
import { copyReceipts, receiptPaths } from '../../report/receipts.ts';
import { reportView } from '../../report/view.ts';
import { readReport, reportText, type ReadReport } from '../../rehearse/report-file.ts';
import { writeFileAtomic } from '../../rehearse/run-rehearsal.ts';
import { reportSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';
import { readReportFiles } from './merge-reports.ts';


/** Every report under `dir` (any depth), in path order; what is not a report is counted, not fatal. */
async function readHistory(dir: string): Promise<{ reports: ReadReport[]; skipped: string[] }> {
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

/** `packet report`. */
export async function reportCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(reportSpec, args);
  if (values.help) {
    io.out(helpText(reportSpec));
    return 0;
  }
  if (!positionals.length) {
    io.err('packet report: name the rehearsal report to show (for example out/rehearsal/report.json).\n');
    return 3;
  }
  const inputs = await readReportFiles(positionals, io, 'report');
  if (!inputs) return 3;
  let report = inputs[0]!.report;
  if (inputs.length > 1) {
    const merged = mergeReports(inputs);
    if (!merged.ok) {
      io.err(`packet report: the reports cannot be merged:\n${merged.problems.map((p) => `  - ${p}\n`).join('')}`);
      return 3;
    }
    report = merged.report;
  }
  const outDir = path.resolve(io.cwd, values.out);
  const rel = (p: string) => path.relative(io.cwd, p) || p;
  if (values.junit) {
    const junit = path.resolve(io.cwd, values.junit);
    await writeFileAtomic(junit, junitXml(report));
    io.out(`junit: ${rel(junit)}\n`);
  }
  const history = values.history ? await readHistory(path.resolve(io.cwd, values.history)) : { reports: [], skipped: [] };
  if (history.skipped.length) io.err(`note: ${history.skipped.length} file${history.skipped.length === 1 ? '' : 's'} under ${values.history} ${history.skipped.length === 1 ? 'is' : 'are'} not a rehearsal report: ${history.skipped.map(rel).join(', ')}\n`);
  const receipts = await copyReceipts(receiptPaths(report), { baseDir: io.cwd, outDir });
  const view = reportView(report, history.reports, receipts.linker);
  const built = await buildHtmlReport({ view, outDir, kitRoot: KIT_ROOT, env: io.env, tag: String(process.pid) });
  if (!built.ok) {
    io.err(`packet report: the HTML build failed (${built.reason}):\n${built.output.slice(-4000)}\n`);
    return 1;
  }
  await writeFileAtomic(path.join(outDir, 'report.json'), reportText(report));
  const points = view.history.reports;
  io.out(
    `report: ${rel(path.join(outDir, 'index.html'))} (${report.packets.length} packet${report.packets.length === 1 ? '' : 's'}, ${report.models?.length ?? 0} model run${report.models?.length === 1 ? '' : 's'}, ` +
      `history of ${points} report${points === 1 ? '' : 's'}; ${receipts.copied} receipt${receipts.copied === 1 ? '' : 's'} copied${receipts.missing.length ? `, ${receipts.missing.length} not found` : ''})\n`,
  );
  return 0;
}
