import path from 'node:path';
import { calibrateRun, type CalibrationOutcome } from '../../calibrate/calibrate-run.ts';
import { forTerminal } from '../../errors/escape.ts';
import { terminalGradeReporter } from '../../grade/grade-reporters.ts';
import { calibrateSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';
import { runStreams } from '../run-streams.ts';

/** `packet calibrate`: flags in, the calibration set made (src/calibrate/), a line per submission graded, then where its two folders are. */
export async function calibrateCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(calibrateSpec, args);
  if (values.help) {
    io.out(helpText(calibrateSpec));
    return 0;
  }
  const [id, ...rest] = positionals;
  if (!id || rest.length) {
    io.err(`packet calibrate: name one packet.\n\n${helpText(calibrateSpec)}`);
    return 2;
  }
  const streams = runStreams(io);
  const outcome: CalibrationOutcome = { dir: '' };
  const code = await calibrateRun({ ...values, id }, streams.host, terminalGradeReporter(streams), outcome);
  if (outcome.key) {
    const at = (p: string) => forTerminal(path.relative(io.cwd, path.join(outcome.dir, p)) || '.');
    streams.out(
      `calibration set: ${outcome.key.submissions.length} submissions\n` +
        `  give the reviewer ${at('reviewer')}/ (import ${at(`reviewer/grades/${id}/summary.json`)} on /packets/${forTerminal(id)}/rubric/)\n` +
        `  keep ${at('lead/calibration-key.json')} (packet agreement <sheets> --key ${at('lead/calibration-key.json')})\n`,
    );
  }
  return code;
}
