import { buildProject } from '../../bundle/build-project.ts';
import { terminalBuildReporter } from '../../bundle/build-reporter.ts';
import { buildSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';

/** `packet build`: flags in, the build (src/bundle/build-project.ts) run, its lines and its result printed. */
export async function buildCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(buildSpec, args);
  if (values.help) {
    io.out(helpText(buildSpec));
    return 0;
  }
  const reporter = terminalBuildReporter({
    out: (text) => io.out(text),
    err: (text) => io.err(text),
    cwd: io.cwd,
    // Loaded while Astro starts, as the rest of the build's modules are.
    format: async () => {
      const { formatDiagnosticsText } = await import('../format-diagnostics.ts');
      return (list) => formatDiagnosticsText(list, { cwd: io.cwd, frames: io.isTTY, color: io.isTTY && !io.env.NO_COLOR });
    },
  });
  const kitTexts = async () => (await import('../../docs/reference-texts.ts')).kitPublicTexts();
  return buildProject({ ...values, ids: positionals }, { env: io.env, cwd: io.cwd, now: io.now }, reporter, { kitTexts });
}
