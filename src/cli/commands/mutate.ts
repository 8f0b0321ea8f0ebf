import { jsonMutateReporter, terminalMutateReporter } from '../../mutate/mutate-reporters.ts';
import { mutateRun } from '../../mutate/mutate-run.ts';
import { mutateSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';
import { runStreams } from '../run-streams.ts';

/** `packet mutate`: flags in, the run or the adoption (src/mutate/mutate-run.ts), its lines or report.json printed. */
export async function mutateCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(mutateSpec, args);
  if (values.help) {
    io.out(helpText(mutateSpec));
    return 0;
  }
  if (positionals.length !== 1) {
    io.err(`packet mutate: give exactly one packet id${positionals.length ? `, not ${positionals.length}` : ''}.\nRun "packet mutate --help" for its options.\n`);
    return 2;
  }
  const id = positionals[0]!;
  const streams = runStreams(io);
  const reporter = values.format === 'json' ? jsonMutateReporter(streams) : terminalMutateReporter(streams);
  const { exitCode, adopted } = await mutateRun({ ...values, id }, streams.host, reporter);
  if (!adopted) return exitCode;
  // The adopted mode is checked at once (its output on stdout); the lint behind check is loaded here only.
  const { checkCommand } = await import('./check.ts');
  await checkCommand([id, '--packets', values.packets], { ...io, err: (s: string) => io.out(s) });
  if (adopted.survived) io.out(`\nThe mutant survives the tests: \`npx packet rehearse ${id}\` reports it (PK446) until a test kills it.\n`);
  return 0;
}
