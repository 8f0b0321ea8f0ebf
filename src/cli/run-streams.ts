import type { RunHost } from '../runs/context.ts';
import { createSecrets } from '../runs/secrets.ts';
import { formatDiagnosticsText } from './format-diagnostics.ts';
import type { CliIo } from './io.ts';

/**
 * What the run commands hand their library call and their reporters: the host (environment,
 * working directory, clock and the run's secrets) and the terminal's two streams, both passing
 * through the redaction of the key the run context resolves.
 */
export function runStreams(io: CliIo) {
  const secrets = createSecrets();
  const host: RunHost = { env: io.env, cwd: io.cwd, now: io.now, secrets };
  return {
    host,
    out: (text: string) => io.out(secrets.redact(text)),
    err: (text: string) => io.err(secrets.redact(text)),
    list: (list: Parameters<typeof formatDiagnosticsText>[0]) => formatDiagnosticsText(list, { cwd: io.cwd, frames: false, color: false }),
    tty: io.isTTY,
    color: io.isTTY,
    cwd: io.cwd,
  };
}
