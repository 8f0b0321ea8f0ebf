import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { KIT_ROOT } from '../../kit/fingerprint.ts';
import { buildHtmlReport } from '../../report/html-build.ts';
import { junitXml } from '../../report/junit.ts';
import { mergeReports } from '../../report/merge.ts';
import { copyReceipts, receiptPaths } from '../../report/receipts.ts';
import { reportView } from '../../report/view.ts';
import { readReport, reportText, type ReadReport } from '../../rehearse/report-file.ts';
import { writeFileAtomic } from '../../rehearse/run-rehearsal.ts';
import type { CliIo } from '../io.ts';
import { readReportFiles } from './merge-reports.ts';

export const reportHelp = `Usage: packet report <reports...> [--history DIR] [--out DIR] [--junit FILE]

A static HTML report of a rehearsal, built with the site's stack (Astro): the
summary; packet x check with times and codes; packet x model with verdicts,
calls, tokens and bytes; every finding with its hint and a link to the
receipts; a history chart per packet over the reports in --history (verdict,
tokens and wall time by model), drawn as SVG, readable without JavaScript.
One index.html with relative links: it opens from file://.

Several reports are merged first, as \`packet merge-reports\` merges them.

  --history DIR  earlier reports (every *.json under DIR that is one); the
                 report shown is the last point of each chart
  --out DIR      the report's folder (default: out/report): index.html, the
                 report shown as report.json (keep it for the next history),
                 and receipts/ (the receipts found under the working directory)
  --junit FILE   also write the rehearsal as JUnit XML (a failure per packet
                 defect, an error per inconclusive check or model run)

Exit: 0 written; 1 the HTML build failed; 3 a report cannot be read or the
reports cannot be merged.
`;

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
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      history: { type: 'string' },
      out: { type: 'string', default: 'out/report' },
      junit: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.out(reportHelp);
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
