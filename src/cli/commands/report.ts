import path from 'node:path';
import { KIT_ROOT } from '../../kit/fingerprint.ts';
import { buildHtmlReport } from '../../report/html-build.ts';
import { readHistory } from '../../report/read-reports.ts';
import { copyReceipts, receiptPaths } from '../../report/receipts.ts';
import { reportView } from '../../report/view.ts';
import { junitXml } from '../../rehearse/junit.ts';
import { reportText } from '../../rehearse/report-file.ts';
import { writeFileAtomic } from '../../rehearse/run-rehearsal.ts';
import { reportSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';
import { joinedReport } from './merge-reports.ts';
import { forTerminal } from '../../errors/escape.ts';
import { faultAt, placesFault, unwritableText } from './output-fault.ts';
import type { RehearsalReport } from '../../rehearse/report.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `packet report`. */
export async function reportCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(reportSpec, args);
  if (values.help) {
    io.out(helpText(reportSpec));
    return 0;
  }
  const joined = await joinedReport('report', positionals, io, 'the rehearsal report to show (for example out/rehearsal/report.json)');
  if (!joined) return 3;
  const { report } = joined;
  const outDir = path.resolve(io.cwd, values.out);
  const junit = values.junit ? path.resolve(io.cwd, values.junit) : undefined;
  const places = [
    ...(junit ? [{ at: junit, folder: false, what: 'the JUnit file', flag: '--junit FILE' }] : []),
    { at: outDir, folder: true, what: 'the report folder', flag: '--out DIR' },
  ];
  // The folders are tried before anything is built; a fault while writing is said the same way.
  const before = await placesFault(places);
  if (before) {
    io.err(unwritableText('report', before, io.cwd));
    return 2;
  }
  try {
    return await writeReport(report, { history: values.history, io, outDir, junit });
  } catch (err) {
    const fault = faultAt(places, err);
    if (!fault) throw err;
    io.err(unwritableText('report', fault, io.cwd));
    return 2;
  }
}

/** The report written: the JUnit file, the receipts, the HTML site and report.json. */
async function writeReport(
  report: RehearsalReport,
  o: { history: string | undefined; io: CliIo; outDir: string; junit: string | undefined },
): Promise<number> {
  const { io, outDir, junit } = o;
  const values = { history: o.history };
  const rel = (p: string) => path.relative(io.cwd, p) || p;
  if (junit) {
    await writeFileAtomic(junit, junitXml(report));
    io.out(`junit: ${rel(junit)}\n`);
  }
  const history = values.history ? await readHistory(path.resolve(io.cwd, values.history)) : { reports: [], skipped: [] };
  const skipped = history.skipped.length;
  if (skipped) io.err(`note: ${plural(skipped, 'file')} under ${values.history} ${skipped === 1 ? 'is' : 'are'} not a rehearsal report: ${history.skipped.map((p) => forTerminal(rel(p))).join(', ')}\n`);
  const receipts = await copyReceipts(receiptPaths(report), { baseDir: io.cwd, outDir });
  const view = reportView(report, history.reports, receipts.linker);
  const built = await buildHtmlReport({ view, outDir, kitRoot: KIT_ROOT, env: io.env, tag: String(process.pid) });
  if (!built.ok) {
    io.err(`packet report: the HTML build failed (${forTerminal(built.reason)}):\n${forTerminal(built.output.slice(-4000), { lines: true })}\n`);
    return 1;
  }
  await writeFileAtomic(path.join(outDir, 'report.json'), reportText(report));
  const missing = receipts.missing.length ? `, ${receipts.missing.length} not found` : '';
  io.out(
    `report: ${rel(path.join(outDir, 'index.html'))} (${plural(report.packets.length, 'packet')}, ${plural(report.models?.length ?? 0, 'model run')}, ` +
      `history of ${plural(view.history.reports, 'report')}; ${plural(receipts.copied, 'receipt')} copied${missing})\n`,
  );
  return 0;
}
