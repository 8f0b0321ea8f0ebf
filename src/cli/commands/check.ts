import { checkPackets, projectLintCache } from '../../check/check-packets.ts';
import { failsRun, sortDiagnostics } from '../../errors/diagnostic.ts';
import { countDiagnostics, formatDiagnosticsJson, formatDiagnosticsText } from '../format-diagnostics.ts';
import { checkSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';

/** `packet check`. */
export async function checkCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(checkSpec, args);
  if (values.help) {
    io.out(helpText(checkSpec));
    return 0;
  }
  const { packets, sources, diagnostics } = await checkPackets({
    packetsDir: values.packets,
    cwd: io.cwd,
    ids: positionals,
    lint: values.lint,
    ...(values.config ? { config: values.config } : {}),
    outDir: values['out-dir'],
    ...(values['no-cache'] ? {} : { lintCache: projectLintCache(io.cwd) }),
  });
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
