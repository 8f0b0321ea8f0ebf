import { rehearseRun } from '../../rehearse/rehearse-run.ts';
import { terminalReporter } from '../../rehearse/terminal-reporter.ts';
import { rehearseSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';
import { runStreams } from '../run-streams.ts';

/** `packet rehearse`: flags in, the rehearsal (src/rehearse/rehearse-run.ts) run, its lines printed as they come. */
export async function rehearseCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(rehearseSpec, args);
  if (values.help) {
    io.out(helpText(rehearseSpec));
    return 0;
  }
  const streams = runStreams(io);
  return rehearseRun({ ...values, ids: positionals }, streams.host, terminalReporter(streams));
}
