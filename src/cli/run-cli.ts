import { PacketKitError } from '../errors/packet-kit-error.ts';
import type { CliIo } from './io.ts';

type Command = (args: string[], io: CliIo) => Promise<number>;

/** Each command's module is loaded only when it runs, so `packet check` does not pay for Astro or the SDK. */
const COMMANDS: Record<string, { load: () => Promise<Command>; summary: string }> = {
  check: { load: async () => (await import('./commands/check.ts')).checkCommand, summary: 'validate and lint packets' },
  new: { load: async () => (await import('./commands/new.ts')).newCommand, summary: 'scaffold a packet that passes check' },
  rehearse: { load: async () => (await import('./commands/rehearse.ts')).rehearseCommand, summary: 'prove every packet fails closed, in a sandbox' },
  'merge-reports': { load: async () => (await import('./commands/merge-reports.ts')).mergeReportsCommand, summary: 'join the reports of sharded rehearsals into one' },
  report: { load: async () => (await import('./commands/report.ts')).reportCommand, summary: 'a static HTML report of rehearsals, with history, and JUnit XML' },
  build: {
    load: async () => (await import('./commands/build.ts')).buildCommand,
    summary: 'check, rehearse, zips, site and reviewer bundles, all or nothing',
  },
  grade: { load: async () => (await import('./commands/grade.ts')).gradeCommand, summary: 'grade what candidates send back: scorecards and a summary' },
  'serve-model': {
    load: async () => (await import('./commands/serve-model.ts')).serveModelCommand,
    summary: 'serve the embedded scripted OpenAI-compatible endpoint on 127.0.0.1',
  },
  mutate: { load: async () => (await import('./commands/mutate.ts')).mutateCommand, summary: 'let a model propose mutants of the sample; killed, survived, crashed, invalid' },
  explain: { load: async () => (await import('./commands/explain.ts')).explainCommand, summary: 'print the error reference, or one code of it' },
};

function usage(): string {
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(14)} ${c.summary}`);
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
    return await (await command.load())(rest, io);
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
