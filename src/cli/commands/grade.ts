import { jsonGradeReporter, terminalGradeReporter } from '../../grade/grade-reporters.ts';
import { gradeRun } from '../../grade/grade-run.ts';
import { gradeSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';
import { runStreams } from '../run-streams.ts';

/** `packet grade`: flags in, the batch (src/grade/grade-run.ts) graded, a line per submission or the summary as JSON. */
export async function gradeCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(gradeSpec, args);
  if (values.help) {
    io.out(helpText(gradeSpec));
    return 0;
  }
  const [id, ...submissions] = positionals;
  if (!id || !submissions.length) {
    io.err(`packet grade: name a packet and at least one submission.\n\n${helpText(gradeSpec)}`);
    return 2;
  }
  const streams = runStreams(io);
  const reporter = values.format === 'json' ? jsonGradeReporter(streams) : terminalGradeReporter(streams);
  return gradeRun({ ...values, id, submissions }, streams.host, reporter);
}
