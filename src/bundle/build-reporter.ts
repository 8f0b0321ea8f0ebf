import path from 'node:path';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { sortDiagnostics } from '../errors/diagnostic.ts';
import { diagnosticText } from '../runs/reporter.ts';
import type { BuildReporter } from './build.ts';

/** Where the build's terminal reporter writes. */
export interface BuildStreams {
  out(text: string): void;
  err(text: string): void;
  /** Paths printed are relative to it. */
  cwd: string;
  /** Loads how the packets' diagnostics are printed (awaited when the build starts, while Astro does). */
  format(): Promise<(list: readonly Diagnostic[]) => string>;
}

/** The build's lines on a terminal: one per step, the diagnostics as they come, how it ended. */
export function terminalBuildReporter(s: BuildStreams): BuildReporter {
  let list: ((list: readonly Diagnostic[]) => string) | undefined;
  const rel = (p: string) => path.relative(s.cwd, p).split(path.sep).join('/') || '.';
  return {
    async onRunStart() {
      list = await s.format();
    },
    onMessage: (text) => s.err(text),
    onDiagnostic: (d) => s.err(diagnosticText(d)),
    onPacketDiagnostics(diagnostics) {
      if (diagnostics.length) s.err(list!(sortDiagnostics(diagnostics)));
    },
    onLine: (line) => s.out(line),
    onRunEnd({ result, seconds, outDir, reviewerDir }) {
      if (result.ok) {
        s.out(`build: done       ${result.packets.length} packet${result.packets.length === 1 ? '' : 's'} in ${seconds.toFixed(1)} s: ${rel(outDir)}/, ${rel(reviewerDir)}/\n`);
        return;
      }
      const d = result.diagnostic;
      const where = result.step === 'interrupted' ? 'interrupted' : `failed at step "${result.step}"`;
      const packets = result.packets.length ? ` (packet${result.packets.length === 1 ? '' : 's'}: ${result.packets.join(', ')})` : '';
      s.err(`packet build: ${where}${packets}.\n${diagnosticText(d)}`);
    },
  };
}
