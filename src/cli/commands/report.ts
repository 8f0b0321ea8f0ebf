import { writeReport } from '../../report/write-report.ts';
import { reportSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';
import { joinedReport } from './merge-reports.ts';

/** `packet report`: the reports named read and joined, then written (src/report/write-report.ts). */
export async function reportCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(reportSpec, args);
  if (values.help) {
    io.out(helpText(reportSpec));
    return 0;
  }
  const joined = await joinedReport('report', positionals, io, 'the rehearsal report to show (for example out/rehearsal/report.json)');
  if (!joined) return 3;
  return writeReport(joined.report, { history: values.history, out: values.out, junit: values.junit, cwd: io.cwd, env: io.env, print: io.out, printErr: io.err });
}
