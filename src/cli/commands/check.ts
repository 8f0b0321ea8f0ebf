import { parseArgs } from 'node:util';
import { failsRun, sortDiagnostics } from '../../errors/diagnostic.ts';
import { loadPackets } from '../../packets/load.ts';
import { countDiagnostics, formatDiagnosticsJson, formatDiagnosticsText } from '../format-diagnostics.ts';
import type { CliIo } from '../io.ts';

export const checkHelp = `Usage: packet check [ids...] [--packets DIR] [--format text|json] [--strict]

Validate every packet (frontmatter, cross-file references, trees) and report
every problem of every packet in one run, as file:line:col CODE message.

  --packets DIR   the packets folder (default: packets)
  --format F      text (default) or json
  --strict        warnings fail the run too

Exit: 0 clean, 1 errors (or warnings with --strict).
`;

/** `packet check`. */
export async function checkCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      packets: { type: 'string', default: 'packets' },
      format: { type: 'string', default: 'text' },
      strict: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.out(checkHelp);
    return 0;
  }
  if (values.format !== 'text' && values.format !== 'json') {
    io.err(`packet check: --format must be "text" or "json", not "${values.format}".\n`);
    return 2;
  }
  const { packets, sources, diagnostics } = await loadPackets({ packetsDir: values.packets, cwd: io.cwd, ids: positionals });
  const list = sortDiagnostics(diagnostics);
  if (values.format === 'json') {
    io.out(formatDiagnosticsJson(list, sources.map((s) => s.id)));
  } else {
    io.out(formatDiagnosticsText(list, { cwd: io.cwd, frames: io.isTTY, color: io.isTTY }));
    const { errors, warnings } = countDiagnostics(list);
    io.out(
      `${sources.length} packet${sources.length === 1 ? '' : 's'} checked (${packets.length} parsed): ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}.\n`,
    );
  }
  return failsRun(list, values.strict) ? 1 : 0;
}
