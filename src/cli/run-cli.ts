import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { diagnose } from '../errors/catalog.ts';
import { InternalErrors } from '../errors/internal-catalog.ts';
import { PacketKitError } from '../errors/packet-kit-error.ts';
import { renderDiagnostic } from '../errors/render.ts';
import { COMMAND_SPECS } from './command-specs.ts';
import { FlagValueError } from './flags.ts';
import type { CliIo } from './io.ts';
import { forTerminal } from '../errors/escape.ts';

type Command = (args: string[], io: CliIo) => Promise<number>;

/** Each command's module is loaded only when it runs, so `packet check` does not pay for Astro or the SDK. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  check: async () => (await import('./commands/check.ts')).checkCommand,
  new: async () => (await import('./commands/new.ts')).newCommand,
  explain: async () => (await import('./commands/explain.ts')).explainCommand,
  rehearse: async () => (await import('./commands/rehearse.ts')).rehearseCommand,
  'merge-reports': async () => (await import('./commands/merge-reports.ts')).mergeReportsCommand,
  report: async () => (await import('./commands/report.ts')).reportCommand,
  build: async () => (await import('./commands/build.ts')).buildCommand,
  preview: async () => (await import('./commands/preview.ts')).previewCommand,
  grade: async () => (await import('./commands/grade.ts')).gradeCommand,
  agreement: async () => (await import('./commands/agreement.ts')).agreementCommand,
  calibrate: async () => (await import('./commands/calibrate.ts')).calibrateCommand,
  mutate: async () => (await import('./commands/mutate.ts')).mutateCommand,
  'serve-model': async () => (await import('./commands/serve-model.ts')).serveModelCommand,
};

function usage(): string {
  const rows = COMMAND_SPECS.map((c) => `  ${c.name.padEnd(14)} ${c.summary}`);
  return `Usage: packet <command> [options]\n\nCommands:\n${rows.join('\n')}\n\nRun "packet <command> --help" for a command's options.\n`;
}

/**
 * Write the details of an internal error (the stack, the command, the versions) to a file of
 * its own and return its path; the terminal gets one line. Never throws.
 */
export function writeInternalErrorReport(err: unknown, argv: readonly string[], dir: string = tmpdir()): string {
  const file = path.join(dir, 'packet-kit-errors', `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}.txt`);
  const text = [
    `packet ${argv.join(' ')}`,
    `node ${process.version} on ${process.platform}-${process.arch}`,
    '',
    err instanceof Error ? (err.stack ?? `${err.name}: ${err.message}`) : String(err),
    ...(err instanceof Error && err.cause ? ['', `cause: ${err.cause instanceof Error ? err.cause.stack : String(err.cause)}`] : []),
    '',
  ].join('\n');
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  } catch {
    return '(the report could not be written)';
  }
}

/** The one line an internal error prints: code, what, where the details are. */
export function internalErrorLine(err: unknown, argv: readonly string[], reportDir?: string): string {
  const report = writeInternalErrorReport(err, argv, reportDir);
  const first = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  const reason = first.split('\n')[0]!.slice(0, 200);
  const d = diagnose(InternalErrors.InternalError, { file: report }, { command: argv[0] ?? '', reason, report });
  return renderDiagnostic(d, { place: false });
}

/** The whole CLI: argv in, exit code out. Never calls process.exit, and never lets an exception out. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`packet: unknown command "${forTerminal(name)}".\n\n${usage()}`);
    return 2;
  }
  try {
    return await (await command())(rest, io);
  } catch (err) {
    if (err instanceof FlagValueError) {
      io.err(`packet ${name}: ${renderDiagnostic(err.diagnostic, { place: false })}Run "packet ${name} --help" for its options.\n`);
      return 2;
    }
    if (err instanceof PacketKitError) {
      io.err(renderDiagnostic(err.diagnostic));
      return 1;
    }
    if (err instanceof TypeError && (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`packet ${name}: ${forTerminal(err.message, { lines: true })}\nRun "packet ${name} --help" for its options.\n`);
      return 2;
    }
    io.err(internalErrorLine(err, argv, io.env.PACKET_KIT_ERROR_DIR));
    return 70;
  }
}
