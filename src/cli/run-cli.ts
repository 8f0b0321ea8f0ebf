import { PacketKitError } from '../errors/packet-kit-error.ts';
import { buildCommand } from './commands/build.ts';
import { checkCommand } from './commands/check.ts';
import { explainCommand } from './commands/explain.ts';
import { newCommand } from './commands/new.ts';
import { rehearseCommand } from './commands/rehearse.ts';
import { serveModelCommand } from './commands/serve-model.ts';
import type { CliIo } from './io.ts';

type Command = (args: string[], io: CliIo) => Promise<number>;

const COMMANDS: Record<string, { run: Command; summary: string }> = {
  check: { run: checkCommand, summary: 'validate and lint packets' },
  new: { run: newCommand, summary: 'scaffold a packet that passes check' },
  rehearse: { run: rehearseCommand, summary: 'prove every packet fails closed, in a sandbox' },
  build: { run: buildCommand, summary: 'check, rehearse, zips, site and reviewer bundles, all or nothing' },
  'serve-model': { run: serveModelCommand, summary: 'serve the embedded scripted OpenAI-compatible endpoint on 127.0.0.1' },
  explain: { run: explainCommand, summary: 'print the error reference, or one code of it' },
};

function usage(): string {
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return `Usage: packet <command> [options]\n\nCommands:\n${rows.join('\n')}\n\nRun "packet <command> --help" for a command's options.\n`;
}

/** The whole CLI: argv in, exit code out. Never calls process.exit. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`packet: unknown command "${name}".\n\n${usage()}`);
    return 2;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    if (err instanceof PacketKitError) {
      const d = err.diagnostic;
      io.err(`${d.file}${d.line ? `:${d.line}:${d.column ?? 1}` : ''} ${d.code} ${d.message}\n  hint: ${d.hint}\n`);
      return 1;
    }
    if (err instanceof TypeError && (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`packet ${name}: ${err.message}\nRun "packet ${name} --help" for its options.\n`);
      return 2;
    }
    throw err;
  }
}
