import path from 'node:path';
import { mergeReports, type MergeInput } from '../../report/merge.ts';
import { exitCodeOf, type RehearsalReport } from '../../rehearse/report.ts';
import { readReport, reportText } from '../../rehearse/report-file.ts';
import { writeFileAtomic } from '../../rehearse/run-rehearsal.ts';
import { mergeReportsSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';


/** Read report files for merging or showing; null after naming every file that is not a usable report. */
export async function readReportFiles(files: readonly string[], io: CliIo, command: string): Promise<MergeInput[] | null> {
  const inputs: MergeInput[] = [];
  let bad = false;
  for (const file of files) {
    const read = await readReport(path.resolve(io.cwd, file));
    if ('error' in read) {
      io.err(`packet ${command}: ${file} ${read.error}.\n`);
      bad = true;
    } else inputs.push({ file, report: read.report as RehearsalReport });
  }
  return bad ? null : inputs;
}

/** `packet merge-reports`. */
export async function mergeReportsCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(mergeReportsSpec, args);
  if (values.help) {
    io.out(helpText(mergeReportsSpec));
    return 0;
  }
  if (!positionals.length) {
    io.err('packet merge-reports: name the reports to merge (for example out/shards/*.json).\n');
    return 3;
  }
  const inputs = await readReportFiles(positionals, io, 'merge-reports');
  if (!inputs) return 3;
  const merged = mergeReports(inputs);
  if (!merged.ok) {
    io.err(`packet merge-reports: the reports cannot be merged:\n${merged.problems.map((p) => `  - ${p}\n`).join('')}`);
    return 3;
  }
  const { report } = merged;
  const out = path.resolve(io.cwd, values.out);
  await writeFileAtomic(out, reportText(report));
  const s = report.summary;
  const runs = report.models?.length ?? 0;
  io.out(
    `merged ${inputs.length} report${inputs.length === 1 ? '' : 's'}: ${s.packets} packet${s.packets === 1 ? '' : 's'}, ${s.failsClosed} fail closed, ${s.defects} with defects, ${s.inconclusive} inconclusive` +
      `${runs ? `; ${runs} model run${runs === 1 ? '' : 's'}` : ''}\nreport: ${path.relative(io.cwd, out) || out}\n`,
  );
  return exitCodeOf(report);
}
