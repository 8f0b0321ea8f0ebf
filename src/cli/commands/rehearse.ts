import { availableParallelism, tmpdir } from 'node:os';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { diagnose, Errors } from '../../errors/catalog.ts';
import { sortDiagnostics } from '../../errors/diagnostic.ts';
import { loadPackets } from '../../packets/load.ts';
import { directoryCache, noCache } from '../../rehearse/cache.ts';
import { prepareRunEnvironment } from '../../rehearse/environment.ts';
import { rehearse } from '../../rehearse/rehearse.ts';
import { exitCodeOf } from '../../rehearse/report.ts';
import { terminalReporter } from '../../rehearse/terminal-reporter.ts';
import { formatDiagnosticsText } from '../format-diagnostics.ts';
import type { CliIo } from '../io.ts';

export const rehearseHelp = `Usage: packet rehearse [ids...] [options]

Prove every packet fails closed, in a sandbox: the starter is red for the right
reason, the sample is green with the hidden tests, every failure mode's mutant
is killed, every signal matches its mutant and not the sample, and the rubric
tells the sample from each mutant.

  --packets DIR     the packets folder (default: packets)
  --jobs N          sandbox runs at once (default: number of cores)
  --report FILE     write the JSON report there (default: out/rehearsal/report.json)
  --no-cache        rehearse even unchanged packets
  --timeout S       seconds per test run (default: 30)
  --unconfined      where bubblewrap is unusable, run the packets' own trees
                    without isolation (never use it for submissions or model replies)

Environment: PACKET_KIT_BWRAP=PATH uses that bwrap instead of the one on PATH.

Exit: 0 every packet fails closed, 1 packet defects, 2 inconclusive.
`;

/** Write a file atomically: a temporary file, then a rename. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

/** `packet rehearse`. */
export async function rehearseCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      packets: { type: 'string', default: 'packets' },
      jobs: { type: 'string' },
      report: { type: 'string', default: 'out/rehearsal/report.json' },
      'no-cache': { type: 'boolean', default: false },
      timeout: { type: 'string', default: '30' },
      unconfined: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.out(rehearseHelp);
    return 0;
  }
  const jobs = values.jobs === undefined ? availableParallelism() : Number(values.jobs);
  const timeout = Number(values.timeout);
  if (!Number.isInteger(jobs) || jobs < 1) {
    io.err(`packet rehearse: --jobs must be a whole number of at least 1, not "${values.jobs}".\n`);
    return 2;
  }
  if (!(timeout > 0)) {
    io.err(`packet rehearse: --timeout must be a positive number of seconds, not "${values.timeout}".\n`);
    return 2;
  }
  const loaded = await loadPackets({ packetsDir: values.packets, cwd: io.cwd, ids: positionals });
  const errors = sortDiagnostics(loaded.diagnostics.filter((d) => d.severity === 'error'));
  if (errors.length) {
    io.err(formatDiagnosticsText(errors, { cwd: io.cwd, frames: false, color: false }));
    io.err(`packet rehearse: fix the errors above first (\`npx packet check\` lists them).\n`);
    return 1;
  }
  const bwrapPath = io.env.PACKET_KIT_BWRAP;
  const prepared = await prepareRunEnvironment({ env: io.env, tmpDir: tmpdir(), allowUnconfined: values.unconfined, ...(bwrapPath ? { bwrapPath } : {}) });
  if (!prepared.ok) {
    const d = diagnose(Errors.SandboxUnavailable, { file: values.packets }, { reason: prepared.message });
    io.err(`${d.code} ${d.message}\n  hint: ${d.hint}\n`);
    return 2;
  }
  const { environment } = prepared;
  try {
    const packetsDir = path.resolve(io.cwd, values.packets);
    const report = await rehearse({
      packets: loaded.packets,
      packetDirs: new Map(loaded.sources.map((s) => [s.id, path.join(packetsDir, s.folder)])),
      sandbox: environment.sandbox,
      sandboxNotice: environment.notice,
      interpreter: environment.interpreter,
      jobs,
      timeoutMs: timeout * 1000,
      cache: values['no-cache'] ? noCache : directoryCache(path.resolve(io.cwd, 'node_modules/.cache/packet-kit/rehearse')),
      reporters: [terminalReporter((s) => io.out(s), { tty: io.isTTY, color: io.isTTY })],
      scratchDir: tmpdir(),
      date: io.now,
      now: () => performance.now(),
    });
    const reportFile = path.resolve(io.cwd, values.report);
    await writeFileAtomic(reportFile, JSON.stringify(report, null, 2) + '\n');
    io.out(`report: ${path.relative(io.cwd, reportFile)}\n`);
    return exitCodeOf(report);
  } finally {
    await environment.dispose();
  }
}
