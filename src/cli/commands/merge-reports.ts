import path from 'node:path';
import type { MergeInput } from '../../report/merge.ts';
import { joinReports, readReportInputs } from '../../report/read-reports.ts';
import { exitCodeOf, type RehearsalReport } from '../../rehearse/report.ts';
import { reportText } from '../../rehearse/report-file.ts';
import { writeFileAtomic } from '../../rehearse/run-rehearsal.ts';
import { mergeReportsSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';
import { forTerminal } from '../../errors/escape.ts';
import { faultAt, placesFault, unwritableText } from '../../runs/output-places.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The reports named on the command line as one (merged when several, or `always`); null after saying why not. */
export async function joinedReport(command: string, files: readonly string[], io: CliIo, example: string, always = false): Promise<{ inputs: MergeInput[]; report: RehearsalReport } | null> {
  if (!files.length) {
    io.err(`packet ${command}: name ${example}.\n`);
    return null;
  }
  const { inputs, problems } = await readReportInputs(files, io.cwd);
  if (problems.length) {
    io.err(problems.map((p) => `packet ${command}: ${forTerminal(p)}.\n`).join(''));
    return null;
  }
  const joined = joinReports(inputs, always);
  if (!joined.ok) {
    io.err(`packet ${command}: the reports cannot be merged:\n${joined.problems.map((p) => `  - ${forTerminal(p)}\n`).join('')}`);
    return null;
  }
  return { inputs, report: joined.report };
}

/** `packet merge-reports`. */
export async function mergeReportsCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(mergeReportsSpec, args);
  if (values.help) {
    io.out(helpText(mergeReportsSpec));
    return 0;
  }
  const joined = await joinedReport('merge-reports', positionals, io, 'the reports to merge (for example out/shards/*.json)', true);
  if (!joined) return 3;
  const { inputs, report } = joined;
  const out = path.resolve(io.cwd, values.out);
  const places = [{ at: out, folder: false, what: 'the merged report', flag: '--out FILE' }];
  const fault = (await placesFault(places)) ?? (await writeFileAtomic(out, reportText(report)).then(() => undefined, (err: unknown) => faultAt(places, err) ?? Promise.reject(err)));
  if (fault) {
    io.err(unwritableText('merge-reports', fault, io.cwd));
    return 2;
  }
  const s = report.summary;
  const runs = report.models?.length ?? 0;
  io.out(
    `merged ${plural(inputs.length, 'report')}: ${plural(s.packets, 'packet')}, ${s.failsClosed} fail closed, ${s.defects} with defects, ${s.inconclusive} inconclusive` +
      `${runs ? `; ${plural(runs, 'model run')}` : ''}\nreport: ${path.relative(io.cwd, out) || out}\n`,
  );
  return exitCodeOf(report);
}
