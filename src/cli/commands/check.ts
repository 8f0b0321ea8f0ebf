import { parseArgs } from 'node:util';
import { failsRun, sortDiagnostics } from '../../errors/diagnostic.ts';
import { loadProjectLintConfig } from '../../lint/config.ts';
import { lintPackets } from '../../lint/engine.ts';
import { fsPacketFiles } from '../../lint/files.ts';
import { loadPackets } from '../../packets/load.ts';
import { countDiagnostics, formatDiagnosticsJson, formatDiagnosticsText } from '../format-diagnostics.ts';
import type { CliIo } from '../io.ts';

export const checkHelp = `Usage: packet check [ids...] [--packets DIR] [--format text|json] [--strict] [--config FILE] [--no-lint]

Validate every packet (frontmatter, cross-file references, trees), lint every
packet that parsed (the method's rules on its Markdown, see the error
reference, codes PK2xx), and report every problem of every packet in one run,
as file:line:col CODE message. On a terminal, each comes with a code frame.

  --packets DIR   the packets folder (default: packets)
  --format F      text (default) or json
  --strict        warnings fail the run too
  --config FILE   the lint config (default: packet-kit.config.json, if present)
  --no-lint       validate only

Lint settings: packet-kit.config.json at the project root,
  { "lint": { "rules": { "prompt-length": ["error", { "max": 250 }], "code-fence-lang": "off" } } }
then packets/<id>/lint.json for one packet, { "rules": { "prompt-length": "warning" } },
then comments in a part body: {/* packet-lint-disable RULE */} (the whole file)
and {/* packet-lint-disable-next-line RULE */} (the next non-blank line).

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
      config: { type: 'string' },
      lint: { type: 'boolean', default: true },
      help: { type: 'boolean', short: 'h' },
    },
    allowNegative: true,
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
  if (values.lint) {
    const { config, diagnostics: configProblems } = await loadProjectLintConfig(io.cwd, values.config);
    diagnostics.push(...configProblems);
    diagnostics.push(...(await lintPackets(packets, { config, files: fsPacketFiles(io.cwd) })));
  }
  const list = sortDiagnostics(diagnostics);
  if (values.format === 'json') {
    io.out(formatDiagnosticsJson(list, sources.map((s) => s.id)));
  } else {
    io.out(formatDiagnosticsText(list, { cwd: io.cwd, frames: io.isTTY, color: io.isTTY && !io.env.NO_COLOR }));
    const { errors, warnings } = countDiagnostics(list);
    io.out(
      `${sources.length} packet${sources.length === 1 ? '' : 's'} checked (${packets.length} parsed): ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}.\n`,
    );
  }
  return failsRun(list, values.strict) ? 1 : 0;
}
