import { tmpdir } from 'node:os';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { diagnose, Errors } from '../../errors/catalog.ts';
import type { Diagnostic } from '../../errors/diagnostic.ts';
import { sortDiagnostics } from '../../errors/diagnostic.ts';
import { ModelErrors } from '../../errors/model-catalog.ts';
import { effectiveBudget, type BudgetLimits } from '../../llm/budget.ts';
import { endpointFrom, parseEndpoint } from '../../llm/endpoint.ts';
import { replyStoreFromDirs, startScriptedServer } from '../../llm/scripted-server.ts';
import { systemClock } from '../../rehearse/session.ts';
import { redact, sortKeys } from '../../llm/stable-json.ts';
import { loadPackets } from '../../packets/load.ts';
import { directoryCache, noCache } from '../../rehearse/cache.ts';
import { prepareRunEnvironment } from '../../rehearse/environment.ts';
import { folderTimestamp } from '../../rehearse/model-run-report.ts';
import { runModelRehearsals } from '../../rehearse/model-runs.ts';
import { rehearse } from '../../rehearse/rehearse.ts';
import { exitCodeOf, type RehearsalReport } from '../../rehearse/report.ts';
import { terminalReporter } from '../../rehearse/terminal-reporter.ts';
import { formatDiagnosticsText } from '../format-diagnostics.ts';
import { rehearseSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';
import { parsePoolOptions } from '../pool-options.ts';

/** Write a file atomically: a temporary file, then a rename. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

function wholeNumber(value: string | undefined, min: number): number | undefined | null {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= min ? n : null;
}

function printDiagnostic(io: CliIo, d: Diagnostic): void {
  io.err(`${d.code} ${d.severity === 'warning' ? 'warning ' : ''}${d.message}\n  hint: ${d.hint}\n`);
}

/** `packet rehearse`. */
export async function rehearseCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(rehearseSpec, args);
  if (values.help) {
    io.out(helpText(rehearseSpec));
    return 0;
  }
  const pool = parsePoolOptions('rehearse', values, io);
  if (!pool) return 2;
  const { jobs, timeout } = pool;
  const numeric: [string, string | undefined, number][] = [
    ['max-calls', values['max-calls'], 1],
    ['max-tokens', values['max-tokens'], 1],
    ['max-seconds', values['max-seconds'], 1],
    ['max-identical-errors', values['max-identical-errors'], 1],
    ['feedback', values.feedback, 0],
    ['stall', values.stall, 1],
    ['attempt-timeout', values['attempt-timeout'], 1],
  ];
  const n: Record<string, number | undefined> = {};
  for (const [flag, value, min] of numeric) {
    const v = wholeNumber(value, min);
    if (v === null) {
      io.err(`packet rehearse: --${flag} must be a whole number of at least ${min}, not "${value}".\n`);
      return 2;
    }
    n[flag] = v;
  }
  const budgetFlags: Partial<BudgetLimits> = {
    ...(n['max-calls'] !== undefined ? { modelCalls: n['max-calls'] } : {}),
    ...(n['max-tokens'] !== undefined ? { tokens: n['max-tokens'] } : {}),
    ...(n['max-seconds'] !== undefined ? { wallSeconds: n['max-seconds'] } : {}),
    ...(n['max-identical-errors'] !== undefined ? { identicalErrors: n['max-identical-errors'] } : {}),
  };

  // The endpoint: a flag or the environment; none means the embedded scripted endpoint.
  let from = endpointFrom(values.endpoint, io.env);
  let live: { baseURL: string; host: string; defaultQuery: Record<string, string> } | undefined;
  if (from && from.source !== 'flag' && !values.model) {
    // An endpoint in the environment is for live runs; without a model there is none to make.
    io.err(`note: $${from.source} is set but no --model is given; rehearsing the scripted replies only.\n`);
    from = undefined;
  }
  if (from) {
    const parsed = parseEndpoint(from.url, from.source);
    const source = from.source === 'flag' ? '--endpoint' : `$${from.source}`;
    if (!parsed.ok) {
      printDiagnostic(io, diagnose(ModelErrors.EndpointInvalid, { file: source }, { source, reason: parsed.reason }));
      return 2;
    }
    if (!values.model) {
      printDiagnostic(io, diagnose(ModelErrors.ModelMissing, { file: source }, { source }));
      return 2;
    }
    live = parsed.endpoint;
  }
  const keyVar = values['api-key-env'];
  const apiKey = io.env[keyVar] || null;
  if (live && !apiKey) printDiagnostic(io, diagnose(ModelErrors.ApiKeyMissing, { file: keyVar }, { variable: keyVar }));
  const say = (text: string) => io.out(apiKey ? redact(text, [apiKey]) : text);
  const sayErr = (text: string) => io.err(apiKey ? redact(text, [apiKey]) : text);

  const loaded = await loadPackets({ packetsDir: values.packets, cwd: io.cwd, ids: positionals });
  const errors = sortDiagnostics(loaded.diagnostics.filter((d) => d.severity === 'error'));
  if (errors.length) {
    io.err(formatDiagnosticsText(errors, { cwd: io.cwd, frames: false, color: false }));
    io.err(`packet rehearse: fix the errors above first (\`npx packet check\` lists them).\n`);
    return 1;
  }
  if (values.model) {
    const ignored = new Set<string>();
    for (const p of loaded.packets) for (const i of effectiveBudget(p.prompt.data.budget, budgetFlags).ignored) ignored.add(`${p.id}: ${i}`);
    if (ignored.size) printDiagnostic(io, diagnose(ModelErrors.BudgetFlagIgnored, { file: 'flags' }, { detail: [...ignored].join('; ') }));
  }
  const bwrapPath = io.env.PACKET_KIT_BWRAP;
  const prepared = await prepareRunEnvironment({ env: io.env, tmpDir: tmpdir(), allowUnconfined: values.unconfined, ...(bwrapPath ? { bwrapPath } : {}) });
  if (!prepared.ok) {
    const d = diagnose(Errors.SandboxUnavailable, { file: values.packets }, { reason: prepared.message });
    io.err(`${d.code} ${d.message}\n  hint: ${d.hint}\n`);
    return 2;
  }
  const { environment } = prepared;
  if (live && environment.sandbox.kind !== 'bubblewrap') {
    printDiagnostic(io, diagnose(ModelErrors.UnconfinedModelRefused, { file: '--unconfined' }, { host: live.host }));
    await environment.dispose();
    return 2;
  }
  const packetsDir = path.resolve(io.cwd, values.packets);
  const packetDirs = new Map(loaded.sources.map((s) => [s.id, path.join(packetsDir, s.folder)]));
  const outDir = path.resolve(io.cwd, values.out ?? path.join('out', 'rehearsals', folderTimestamp(io.now())));
  // The embedded endpoint serves every packet's replies: the reply checks always use it, a
  // live run uses it when no endpoint is given. It listens on 127.0.0.1 only.
  const server = await startScriptedServer({
    replies: replyStoreFromDirs(new Map(loaded.packets.map((p) => [p.id, { dir: packetDirs.get(p.id)!, replies: p.trees.replies }]))),
  });
  let scratch: string | undefined;
  try {
    const reporter = terminalReporter(say, { tty: io.isTTY, color: io.isTTY });
    const report: RehearsalReport = await rehearse({
      packets: loaded.packets,
      packetDirs,
      sandbox: environment.sandbox,
      sandboxNotice: environment.notice,
      interpreter: environment.interpreter,
      jobs,
      timeoutMs: timeout * 1000,
      cache: values['no-cache'] ? noCache : directoryCache(path.resolve(io.cwd, 'node_modules/.cache/packet-kit/rehearse')),
      reporters: [reporter],
      scratchDir: tmpdir(),
      date: io.now,
      now: () => performance.now(),
      scripted: { url: server.url, outDir, cwd: io.cwd },
    });
    if (values.model) {
      scratch = await mkdtemp(path.join(tmpdir(), 'packet-model-'));
      const endpoint = live ?? { baseURL: server.url, host: new URL(server.url).host, defaultQuery: {} };
      say(`\nmodel ${values.model} at ${endpoint.host}${live ? '' : ' (the embedded scripted endpoint)'}\n`);
      const limit = pLimit(Math.max(1, jobs));
      const models = await runModelRehearsals({
        packets: loaded.packets,
        packetDirs,
        offline: report,
        runner: { sandbox: environment.sandbox, mounts: environment.interpreter.mounts, timeoutMs: timeout * 1000 },
        schedule: (fn) => limit(fn),
        scratchDir: scratch,
        endpoint,
        apiKey,
        model: values.model,
        flags: budgetFlags,
        feedbackTurns: n.feedback!,
        stallCalls: n.stall!,
        attemptTimeoutMs: n['attempt-timeout']! * 1000,
        outDir,
        cwd: io.cwd,
        clock: systemClock,
        date: io.now,
        onRun: (run) => reporter.onModelRunEnd?.(run),
        onWait: (packet, plan, retry) => say(`  ${packet}: retry ${retry} in ${(plan.ms / 1000).toFixed(1)} s (${plan.source}${plan.ignored ? `; ${plan.ignored}` : ''})\n`),
      });
      report.models = models;
      const by = new Map<string, number>();
      for (const m of models) by.set(m.verdict, (by.get(m.verdict) ?? 0) + 1);
      say(`models: ${models.length} run${models.length === 1 ? '' : 's'}: ${[...by].map(([v, k]) => `${k} ${v}`).join(', ')}\n`);
      for (const m of models.filter((x) => x.verdict === 'INCONCLUSIVE')) {
        const d = diagnose(ModelErrors.ModelRunInconclusive, { file: m.packet }, { packet: m.packet, reason: m.reason });
        sayErr(`${d.code} ${d.message}\n  hint: ${d.hint}\n`);
      }
    }
    const reportFile = path.resolve(io.cwd, values.report);
    const text = JSON.stringify({ ...report, ...(report.models ? { models: sortKeys(report.models) } : {}) }, null, 2) + '\n';
    await writeFileAtomic(reportFile, apiKey ? redact(text, [apiKey]) : text);
    say(`report: ${path.relative(io.cwd, reportFile)}\n`);
    return exitCodeOf(report);
  } finally {
    await server.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
    await environment.dispose();
  }
}
