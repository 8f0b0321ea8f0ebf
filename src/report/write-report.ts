/**
 * `packet report` as a library call: a rehearsal report (already read and joined) written as
 * the HTML report site, report.json, its receipts and, if asked, a JUnit file. The places are
 * tried before anything is built, and a file system fault while writing is the same coded error
 * (PK492), never a bug.
 */
import path from 'node:path';
import { forTerminal } from '../errors/escape.ts';
import { KIT_ROOT } from '../kit/fingerprint.ts';
import { junitXml } from '../rehearse/junit.ts';
import type { RehearsalReport } from '../rehearse/report.ts';
import { reportText, writeFileAtomic } from '../rehearse/report-file.ts';
import { faultAt, placesFault, unwritableText } from '../runs/output-places.ts';
import { buildHtmlReport } from './html-build.ts';
import { readHistory } from './read-reports.ts';
import { copyReceipts, receiptPaths } from './receipts.ts';
import { reportView } from './view.ts';

/** Where the report goes and what it prints to. */
export interface WriteReportOptions {
  /** A folder of earlier reports for the history charts. */
  history: string | undefined;
  /** The report folder and the JUnit file, as given (relative to `cwd`). */
  out: string;
  junit: string | undefined;
  cwd: string;
  env: NodeJS.ProcessEnv;
  print: (text: string) => void;
  printErr: (text: string) => void;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Write the report: 0 written, 1 the HTML build failed, 2 a place cannot be written (said as PK492). */
export async function writeReport(report: RehearsalReport, o: WriteReportOptions): Promise<number> {
  const outDir = path.resolve(o.cwd, o.out);
  const junit = o.junit ? path.resolve(o.cwd, o.junit) : undefined;
  const places = [
    ...(junit ? [{ at: junit, folder: false, what: 'the JUnit file', flag: '--junit FILE' }] : []),
    { at: outDir, folder: true, what: 'the report folder', flag: '--out DIR' },
  ];
  const before = await placesFault(places);
  if (before) {
    o.printErr(unwritableText('report', before, o.cwd));
    return 2;
  }
  try {
    return await writeReportFiles(report, o, outDir, junit);
  } catch (err) {
    const fault = faultAt(places, err);
    if (!fault) throw err;
    o.printErr(unwritableText('report', fault, o.cwd));
    return 2;
  }
}

/** The files: the JUnit file, the receipts, the HTML site and report.json. */
async function writeReportFiles(report: RehearsalReport, o: WriteReportOptions, outDir: string, junit: string | undefined): Promise<number> {
  const rel = (p: string) => path.relative(o.cwd, p) || p;
  if (junit) {
    await writeFileAtomic(junit, junitXml(report));
    o.print(`junit: ${rel(junit)}\n`);
  }
  const history = o.history ? await readHistory(path.resolve(o.cwd, o.history)) : { reports: [], skipped: [] };
  const skipped = history.skipped.length;
  if (skipped) o.printErr(`note: ${plural(skipped, 'file')} under ${o.history} ${skipped === 1 ? 'is' : 'are'} not a rehearsal report: ${history.skipped.map((p) => forTerminal(rel(p))).join(', ')}\n`);
  const receipts = await copyReceipts(receiptPaths(report), { baseDir: o.cwd, outDir });
  const view = reportView(report, history.reports, receipts.linker);
  const built = await buildHtmlReport({ view, outDir, kitRoot: KIT_ROOT, env: o.env, tag: String(process.pid) });
  if (!built.ok) {
    o.printErr(`packet report: the HTML build failed (${forTerminal(built.reason)}):\n${forTerminal(built.output.slice(-4000), { lines: true })}\n`);
    return 1;
  }
  await writeFileAtomic(path.join(outDir, 'report.json'), reportText(report));
  const missing = receipts.missing.length ? `, ${receipts.missing.length} not found` : '';
  o.print(
    `report: ${rel(path.join(outDir, 'index.html'))} (${plural(report.packets.length, 'packet')}, ${plural(report.models?.length ?? 0, 'model run')}, ` +
      `history of ${plural(view.history.reports, 'report')}; ${plural(receipts.copied, 'receipt')} copied${missing})\n`,
  );
  return 0;
}
