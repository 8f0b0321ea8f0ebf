import { tmpdir } from 'node:os';
import path from 'node:path';
import { diagnose, Errors } from '../../errors/catalog.ts';
import type { Diagnostic } from '../../errors/diagnostic.ts';
import { sortDiagnostics } from '../../errors/diagnostic.ts';
import { ModelErrors } from '../../errors/model-catalog.ts';
import { effectiveBudget, type BudgetLimits } from '../../llm/budget.ts';
import { DEFAULT_MAX_REPLY_TOKENS } from '../../llm/client.ts';
import { endpointFrom, parseEndpoint } from '../../llm/endpoint.ts';
import { classInfo } from '../../llm/error-class.ts';
import { redact } from '../../llm/stable-json.ts';
import { loadPackets } from '../../packets/load.ts';
import { codePackets } from '../../packets/packet.ts';
import { directoryCache, noCache } from '../../rehearse/cache.ts';
import { KIT_ROOT, kitFingerprint } from '../../kit/fingerprint.ts';
import { prepareRunEnvironment } from '../../rehearse/environment.ts';
import { createScratchRoot } from '../../sandbox/scratch.ts';
import { folderTimestamp } from '../../rehearse/model-run-report.ts';
import { runRehearsal } from '../../rehearse/run-rehearsal.ts';
import { parseShard, selectShard } from '../../rehearse/shard.ts';
import { kitIdentity } from '../../kit/identity.ts';
import { labTables } from '../../labs/table-cache.ts';
import { terminalReporter } from '../../rehearse/terminal-reporter.ts';
import { formatDiagnosticsText } from '../format-diagnostics.ts';
import { rehearseSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';
import { parsePoolOptions } from '../pool-options.ts';

export { writeFileAtomic } from '../../rehearse/run-rehearsal.ts';

function wholeNumber(value: string | undefined, min: number): number | undefined | null {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= min ? n : null;
}

function printDiagnostic(io: CliIo, d: Diagnostic): void {
  io.err(`${d.code} ${d.severity === 'warning' ? 'warning ' : ''}${d.message}\n  hint: ${d.hint}\n`);
}

/** The numeric flags of live runs, checked; null after printing what is wrong. */
function parseModelNumbers(values: Record<string, string | boolean | undefined>, io: CliIo): { n: Record<string, number | undefined>; budgetFlags: Partial<BudgetLimits> } | null {
  const numeric: [string, number][] = [
    ['max-calls', 1],
    ['max-tokens', 1],
    ['max-seconds', 1],
    ['max-identical-errors', 1],
    ['feedback', 0],
    ['stall', 1],
    ['attempt-timeout', 1],
    ['max-reply-tokens', 1],
    ['endpoint-jobs', 1],
  ];
  const n: Record<string, number | undefined> = {};
  for (const [flag, min] of numeric) {
    const value = values[flag] as string | undefined;
    const v = wholeNumber(value, min);
    if (v === null) {
      io.err(`packet rehearse: --${flag} must be a whole number of at least ${min}, not "${value}".\n`);
      return null;
    }
    n[flag] = v;
  }
  const budgetFlags: Partial<BudgetLimits> = {
    ...(n['max-calls'] !== undefined ? { modelCalls: n['max-calls'] } : {}),
    ...(n['max-tokens'] !== undefined ? { tokens: n['max-tokens'] } : {}),
    ...(n['max-seconds'] !== undefined ? { wallSeconds: n['max-seconds'] } : {}),
    ...(n['max-identical-errors'] !== undefined ? { identicalErrors: n['max-identical-errors'] } : {}),
  };
  return { n, budgetFlags };
}

/** `a, b,a` -> [a, b]: the models of `--model` or $LLM_MODEL, in order, each once; null when none is named. */
export function parseModelList(text: string): string[] | null {
  const models = [...new Set(text.split(',').map((m) => m.trim()).filter(Boolean))];
  return models.length ? models : null;
}

/**
 * The models to run: `--model`, or $LLM_MODEL when an endpoint is set (flag or environment); a
 * model in the environment alone is not run against the embedded endpoint.
 */
function resolveModels(values: { endpoint?: string | undefined; model?: string | undefined }, io: CliIo): { models?: string[] } | null {
  const fromEnv = io.env.LLM_MODEL?.trim() || undefined;
  const endpoint = endpointFrom(values.endpoint, io.env);
  if (values.model === undefined && fromEnv && !endpoint) {
    io.err('note: $LLM_MODEL is set but no endpoint is (--endpoint, $LLM_ENDPOINT or $OPENAI_BASE_URL); rehearsing the scripted replies only.\n');
  }
  const text = values.model ?? (endpoint ? fromEnv : undefined);
  if (text === undefined) return {};
  const models = parseModelList(text);
  if (!models) {
    io.err(`packet rehearse: ${values.model !== undefined ? '--model' : '$LLM_MODEL'} names no model ("${text}"); give one or more ids, comma-separated.\n`);
    return null;
  }
  return { models };
}

/** The live endpoint from the flag or the environment (none: the embedded one); null after printing what is wrong. */
function resolveEndpoint(values: { endpoint?: string | undefined; model?: string | undefined }, io: CliIo): { live?: { baseURL: string; host: string; defaultQuery: Record<string, string> } } | null {
  let from = endpointFrom(values.endpoint, io.env);
  if (from && from.source !== 'flag' && !values.model) {
    // An endpoint in the environment is for live runs; without a model there is none to make.
    io.err(`note: $${from.source} is set but no --model (or $LLM_MODEL) is given; rehearsing the scripted replies only.\n`);
    from = undefined;
  }
  if (!from) return {};
  const parsed = parseEndpoint(from.url, from.source);
  const source = from.source === 'flag' ? '--endpoint' : `$${from.source}`;
  if (!parsed.ok) {
    printDiagnostic(io, diagnose(ModelErrors.EndpointInvalid, { file: source }, { source, reason: parsed.reason }));
    return null;
  }
  if (!values.model) {
    printDiagnostic(io, diagnose(ModelErrors.ModelMissing, { file: source }, { source }));
    return null;
  }
  return { live: parsed.endpoint };
}

/** The console lines of the live model runs: the start, the verdicts, and each inconclusive run, failed endpoint and substituted model as a coded diagnostic. */
function modelEventPrinter(say: (text: string) => void, sayErr: (text: string) => void): NonNullable<Parameters<typeof runRehearsal>[0]['onModels']> {
  return (event) => {
    if ('start' in event) {
      const s = event.start;
      return say(`\nmodel${s.models.length === 1 ? '' : 's'} ${s.models.join(', ')} at ${s.host}${s.scripted ? ' (the embedded scripted endpoint)' : ''}, ${s.endpointJobs} call${s.endpointJobs === 1 ? '' : 's'} at a time\n`);
    }
    const by = new Map<string, number>();
    for (const m of event.end) by.set(m.verdict, (by.get(m.verdict) ?? 0) + 1);
    say(`models: ${event.end.length} run${event.end.length === 1 ? '' : 's'}: ${[...by].map(([v, k]) => `${k} ${v}`).join(', ')}\n`);
    for (const m of event.end) {
      if (m.verdict === 'INCONCLUSIVE') {
        const tooSmall = m.inconclusiveCause === 'budget';
        const d = tooSmall
          ? diagnose(ModelErrors.TokenBudgetTooSmall, { file: m.packet }, { packet: m.packet, detail: m.reason.replace(/^no answer could be judged: /, '') })
          : diagnose(ModelErrors.ModelRunInconclusive, { file: m.packet }, { packet: m.packet, reason: m.reason });
        sayErr(`${d.code} ${d.message}\n  hint: ${d.hint}\n`);
      }
      if (m.failure) {
        const f = m.failure;
        const server = f.status !== null ? `The server answered HTTP ${f.status}${f.message ? `: "${f.message}".` : '.'}` : `No response arrived${f.message ? ` (${f.message})` : ''}.`;
        const d = diagnose(ModelErrors.EndpointFailed, { file: m.packet }, { packet: m.packet, error: f.error, meaning: classInfo(f.error).meaning, server, fix: f.hint });
        sayErr(`${d.code} ${d.message}\n  hint: ${d.hint}\n`);
      }
      for (const served of m.servedModels ?? []) {
        const d = diagnose(ModelErrors.ServedModelDiffers, { file: m.packet }, { packet: m.packet, asked: m.model, served });
        sayErr(`${d.code} warning ${d.message}\n  hint: ${d.hint}\n`);
      }
    }
  };
}

/**
 * The sandbox of a rehearsal in a scratch root of its own (workspaces, the interpreter shim, the
 * self-test), removed at the end, on Ctrl-C or SIGTERM, or by a later run; an exit code after
 * printing why when there is none, or when live replies would run unconfined.
 */
async function prepareSandbox(io: CliIo, values: { packets: string; unconfined: boolean }, live: { host: string } | undefined) {
  const bwrapPath = io.env.PACKET_KIT_BWRAP;
  const scratchRoot = await createScratchRoot({ parent: tmpdir() });
  const prepared = await prepareRunEnvironment({ env: io.env, tmpDir: scratchRoot.dir, allowUnconfined: values.unconfined, ...(bwrapPath ? { bwrapPath } : {}) });
  if (!prepared.ok) {
    const d = diagnose(Errors.SandboxUnavailable, { file: values.packets }, { reason: prepared.message });
    io.err(`${d.code} ${d.message}\n  hint: ${d.hint}\n`);
    await scratchRoot.dispose();
    return 2;
  }
  const { environment } = prepared;
  if (live && environment.sandbox.kind !== 'bubblewrap') {
    printDiagnostic(io, diagnose(ModelErrors.UnconfinedModelRefused, { file: '--unconfined' }, { host: live.host }));
    await environment.dispose();
    await scratchRoot.dispose();
    return 2;
  }
  return { environment, scratchRoot };
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
  const numbers = parseModelNumbers(values, io);
  if (!numbers) return 2;
  const { n, budgetFlags } = numbers;

  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  if (shard && 'error' in shard) {
    io.err(`packet rehearse: --shard ${shard.error}.\n`);
    return 2;
  }
  // The models: the flag, or the environment's with an endpoint.
  const chosen = resolveModels(values, io);
  if (!chosen) return 2;
  const models = chosen.models;
  // The endpoint: a flag or the environment; none means the embedded scripted endpoint.
  const resolved = resolveEndpoint({ endpoint: values.endpoint, model: models?.join(',') }, io);
  if (!resolved) return 2;
  const { live } = resolved;
  const keyVar = values['api-key-env'];
  const apiKey = io.env[keyVar] || null;
  if (live && !apiKey) printDiagnostic(io, diagnose(ModelErrors.ApiKeyMissing, { file: keyVar }, { variable: keyVar }));
  const say = (text: string) => io.out(apiKey ? redact(text, [apiKey]) : text);
  const sayErr = (text: string) => io.err(apiKey ? redact(text, [apiKey]) : text);

  const loaded = await loadPackets({ packetsDir: values.packets, cwd: io.cwd, ids: positionals });
  const withCode = codePackets(loaded.packets);
  const errors = sortDiagnostics(loaded.diagnostics.filter((d) => d.severity === 'error'));
  if (errors.length) {
    io.err(formatDiagnosticsText(errors, { cwd: io.cwd, frames: false, color: false }));
    io.err(`packet rehearse: fix the errors above first (\`npx packet check\` lists them).\n`);
    return 1;
  }
  if (models) {
    const ignored = new Set<string>();
    for (const p of withCode) for (const i of effectiveBudget(p.prompt.data.budget, budgetFlags).ignored) ignored.add(`${p.id}: ${i}`);
    if (ignored.size) printDiagnostic(io, diagnose(ModelErrors.BudgetFlagIgnored, { file: 'flags' }, { detail: [...ignored].join('; ') }));
  }
  const sandbox = await prepareSandbox(io, values, live);
  if (typeof sandbox === 'number') return sandbox;
  const { environment, scratchRoot } = sandbox;
  const packetsDir = path.resolve(io.cwd, values.packets);
  const reportFile = path.resolve(io.cwd, values.report);
  const packets = shard ? selectShard(withCode, (p) => p.id, shard) : withCode;
  if (shard) say(`shard ${shard.index}/${shard.count}: ${packets.length} of ${withCode.length} packet${withCode.length === 1 ? '' : 's'}\n`);
  const fingerprint = kitFingerprint(KIT_ROOT);
  try {
    const reporter = terminalReporter(say, { tty: io.isTTY, color: io.isTTY });
    const { exitCode } = await runRehearsal({
      packets,
      ...(shard ? { shard } : {}),
      kit: kitIdentity(KIT_ROOT, fingerprint),
      packetDirs: new Map(loaded.sources.map((s) => [s.id, path.join(packetsDir, s.folder)])),
      environment,
      jobs,
      timeoutMs: timeout * 1000,
      cache: values['no-cache'] ? noCache : directoryCache(path.resolve(io.cwd, 'node_modules/.cache/packet-kit/rehearse'), fingerprint),
      // The labs' tables go to the cache the build reads (with --no-cache they are computed again, and still kept).
      labTables: labTables({
        runner: { sandbox: environment.sandbox, mounts: environment.interpreter.mounts, timeoutMs: timeout * 1000 },
        scratchDir: scratchRoot.dir,
        dir: path.resolve(io.cwd, 'node_modules/.cache/packet-kit/labs'),
        interpreter: environment.interpreter.version,
        kit: fingerprint,
        fresh: values['no-cache'],
      }),
      reporter,
      scratchDir: scratchRoot.dir,
      outDir: path.resolve(io.cwd, values.out ?? path.join('out', 'rehearsals', folderTimestamp(io.now()))),
      reportFile,
      cwd: io.cwd,
      date: io.now,
      ...(models
        ? {
            live: {
              models,
              endpointJobs: n['endpoint-jobs']!,
              ...(live ? { endpoint: live } : {}),
              apiKey,
              flags: budgetFlags,
              feedbackTurns: n.feedback!,
              stallCalls: n.stall!,
              attemptTimeoutMs: n['attempt-timeout']! * 1000,
              maxReplyTokens: n['max-reply-tokens']!,
            },
          }
        : {}),
      onWait: (packet, plan, retry, model) =>
        say(`  ${packet}${models && models.length > 1 ? ` with ${model}` : ''}: retry ${retry} in ${(plan.ms / 1000).toFixed(1)} s (${plan.from ?? plan.source}${plan.ignored ? `; ${plan.ignored}` : ''})\n`),
      onPause: (pause, host) => say(`  endpoint ${host}: every run waits ${(pause.ms / 1000).toFixed(1)} s (a rate limit: ${pause.from})\n`),
      onModels: modelEventPrinter(say, sayErr),
    });
    say(`report: ${path.relative(io.cwd, reportFile)}\n`);
    return exitCode;
  } finally {
    await environment.dispose();
    await scratchRoot.dispose();
  }
}
