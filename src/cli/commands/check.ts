import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkVersionDrift } from '../../bundle/version-drift.ts';
import { failsRun, sortDiagnostics, type Diagnostic } from '../../errors/diagnostic.ts';
import { loadProjectLintConfig } from '../../lint/config.ts';
import { lintDrill, lintPackets } from '../../lint/engine.ts';
import { fsPacketFiles } from '../../lint/files.ts';
import { displayPath } from '../../packets/fs-source.ts';
import { loadPackets, type LoadResult } from '../../packets/load.ts';
import type { Drill } from '../../packets/drill.ts';
import type { Packet } from '../../packets/packet.ts';
import { countDiagnostics, formatDiagnosticsJson, formatDiagnosticsText } from '../format-diagnostics.ts';
import type { CliIo } from '../io.ts';

export const checkHelp = `Usage: packet check [ids...] [--packets DIR] [--format text|json] [--strict] [--config FILE] [--no-lint] [--out-dir DIR]

Validate every packet (frontmatter, cross-file references, trees), lint every
packet that parsed (the method's rules on its Markdown, see the error
reference, codes PK2xx), and report every problem of every packet in one run,
as file:line:col CODE message. On a terminal, each comes with a code frame.

  --packets DIR   the packets folder (default: packets)
  --format F      text (default) or json
  --strict        warnings fail the run too
  --config FILE   the lint config (default: packet-kit.config.json, if present)
  --no-lint       validate only
  --out-dir DIR   the built site (default: dist): a packet whose content changed
                  since the build in DIR/packets.json, with the same version, is
                  a warning (PK311)

Lint settings: packet-kit.config.json at the project root,
  { "lint": { "rules": { "prompt-length": ["error", { "max": 250 }], "code-fence-lang": "off" } } }
then packets/<id>/lint.json for one packet, { "rules": { "prompt-length": "warning" } },
then comments in a part body: {/* packet-lint-disable RULE */} (the whole file)
and {/* packet-lint-disable-next-line RULE */} (the next non-blank line).

Exit: 0 clean, 1 errors (or warnings with --strict).
`;

/** Options of {@link checkPackets}. */
export interface CheckOptions {
  packetsDir: string;
  cwd: string;
  ids?: readonly string[];
  /** Lint the packets that parsed. */
  lint: boolean;
  /** The lint config file; default: packet-kit.config.json, if present. */
  config?: string;
  /** The built site whose packets.json is compared for version bumps. */
  outDir: string;
}

/** Everything `packet check` reports (load, validation, lint, version drift), unsorted; `packet build` runs the same. */
export async function checkPackets(options: CheckOptions): Promise<LoadResult> {
  const loaded = await loadPackets({ packetsDir: options.packetsDir, cwd: options.cwd, ...(options.ids ? { ids: options.ids } : {}) });
  loaded.diagnostics.push(...(await checkLoadedPackets(loaded.packets, options, loaded.drills)));
  return loaded;
}

/** What `packet check` adds once the packets are loaded: the lint (and its config's problems) and the version drift. */
export async function checkLoadedPackets(packets: readonly Packet[], options: Omit<CheckOptions, 'packetsDir' | 'ids'>, drills: readonly Drill[] = []): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  if (options.lint) {
    const { config, diagnostics: configProblems } = await loadProjectLintConfig(options.cwd, options.config);
    diagnostics.push(...configProblems);
    diagnostics.push(...(await lintPackets(packets, { config, files: fsPacketFiles(options.cwd) })));
    for (const drill of drills) diagnostics.push(...(await lintDrill(drill, { config, files: fsPacketFiles(options.cwd) })));
  }
  const outDir = path.resolve(options.cwd, options.outDir);
  diagnostics.push(...(await checkVersionDrift(packets, outDir, displayPath(path.join(outDir, 'packets.json'), options.cwd))));
  return diagnostics;
}

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
      'out-dir': { type: 'string', default: 'dist' },
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
  const { packets, drills, sources, diagnostics } = await checkPackets({
    packetsDir: values.packets,
    cwd: io.cwd,
    ids: positionals,
    lint: values.lint,
    ...(values.config ? { config: values.config } : {}),
    outDir: values['out-dir'],
  });
  const list = sortDiagnostics(diagnostics);
  if (values.format === 'json') {
    io.out(formatDiagnosticsJson(list, sources.map((s) => s.id)));
  } else {
    io.out(formatDiagnosticsText(list, { cwd: io.cwd, frames: io.isTTY, color: io.isTTY && !io.env.NO_COLOR }));
    const { errors, warnings } = countDiagnostics(list);
    io.out(
      `${sources.length} packet${sources.length === 1 ? '' : 's'} checked (${packets.length + drills.length} parsed): ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}.\n`,
    );
  }
  return failsRun(list, values.strict) ? 1 : 0;
}
