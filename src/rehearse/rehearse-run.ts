/**
 * `packet rehearse` as a library call, from its flags to its exit code: the numeric flags and
 * the shard checked, the run context opened (the model, the endpoint, the key, the budget, the
 * sandbox in a scratch root of its own), the packets loaded, the rehearsal run, the context
 * disposed of. Every line it has to say goes to the reporter; the command only parses and prints.
 */
import path from 'node:path';
import { sortDiagnostics } from '../errors/diagnostic.ts';
import { diagnose } from '../errors/catalog.ts';
import { ModelErrors } from '../errors/model-catalog.ts';
import { KIT_ROOT, kitFingerprint } from '../kit/fingerprint.ts';
import { kitIdentity } from '../kit/identity.ts';
import { loadPackets } from '../packets/load.ts';
import { codePackets } from '../packets/packet.ts';
import { openRunContext, type RunHost } from '../runs/context.ts';
import { BUDGET_FLAGS, budgetFlags, poolOptions, wholeNumbers } from '../runs/flag-numbers.ts';
import { fanOut } from '../runs/reporter.ts';
import { directoryCache, noCache } from './cache.ts';
import { folderTimestamp } from './model-run-report.ts';
import type { RehearsalReporter } from './reporter.ts';
import { jsonReportFile } from './report-file.ts';
import { runRehearsal } from './run-rehearsal.ts';
import { parseShard, selectShard } from './shard.ts';

/** The flags of `packet rehearse`, as parsed. */
export interface RehearseFlags {
  /** The packet ids named; none: every packet. */
  ids: readonly string[];
  packets: string;
  jobs?: string | number | undefined;
  timeout?: string | number | undefined;
  report: string;
  'no-cache': boolean;
  unconfined: boolean;
  shard?: string | undefined;
  endpoint?: string | undefined;
  model?: string | undefined;
  'endpoint-jobs'?: string | number | undefined;
  'api-key-env': string;
  out?: string | undefined;
  feedback?: string | number | undefined;
  stall?: string | number | undefined;
  'attempt-timeout'?: string | number | undefined;
  'max-reply-tokens'?: string | number | undefined;
  'max-calls'?: string | number | undefined;
  'max-tokens'?: string | number | undefined;
  'max-seconds'?: string | number | undefined;
  'max-identical-errors'?: string | number | undefined;
}

/** The whole-number flags of a rehearsal and their least values. */
const NUMBERS = [...BUDGET_FLAGS, ['feedback', 0], ['stall', 1], ['attempt-timeout', 1], ['max-reply-tokens', 1], ['endpoint-jobs', 1]] as const;

/** Rehearse as `packet rehearse` does; returns its exit code (2: a wrong flag, no sandbox, an endpoint that cannot be used). */
export async function rehearseRun(flags: RehearseFlags, host: RunHost, reporter: RehearsalReporter): Promise<number> {
  const pool = poolOptions('rehearse', flags);
  const numbers = pool.ok ? wholeNumbers('rehearse', flags as unknown as Record<string, unknown>, NUMBERS) : pool;
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  if (!numbers.ok || !pool.ok || (shard && 'error' in shard)) {
    reporter.onMessage?.(!numbers.ok ? numbers.error : `packet rehearse: --shard ${(shard as { error: string }).error}.\n`);
    return 2;
  }
  const { n } = numbers;
  const budget = budgetFlags(n);
  const model = { endpoint: flags.endpoint, model: flags.model, apiKeyEnv: flags['api-key-env'], modelList: true, keyAlways: true, scriptedOnly: 'rehearsing the scripted replies only' };
  const ctx = openRunContext('rehearse', host, { unconfined: flags.unconfined, packets: flags.packets, model, budget }, reporter);
  if (!ctx) return 2;
  try {
    const loaded = await loadPackets({ packetsDir: flags.packets, cwd: host.cwd, ids: flags.ids as string[] });
    const withCode = codePackets(loaded.packets);
    const errors = sortDiagnostics(loaded.diagnostics.filter((d) => d.severity === 'error'));
    if (errors.length) {
      reporter.onPacketDiagnostics?.(errors);
      reporter.onMessage?.(`packet rehearse: fix the errors above first (\`npx packet check\` lists them).\n`);
      return 1;
    }
    if (ctx.models) {
      const ignored = new Set<string>();
      for (const p of withCode) for (const i of ctx.budget(p.prompt.data.budget).ignored) ignored.add(`${p.id}: ${i}`);
      if (ignored.size) reporter.onDiagnostic?.(diagnose(ModelErrors.BudgetFlagIgnored, { file: 'flags' }, { detail: [...ignored].join('; ') }));
    }
    const sandbox = await ctx.sandbox();
    if (!sandbox.ok) {
      reporter.onDiagnostic?.(sandbox.diagnostic);
      return 2;
    }
    const { ready } = sandbox;
    const packetsDir = path.resolve(host.cwd, flags.packets);
    const selected = shard ? selectShard(withCode, (p) => p.id, shard) : withCode;
    if (shard) reporter.onShard?.(shard, selected.length, withCode.length);
    const fingerprint = kitFingerprint(KIT_ROOT);
    const timeoutMs = pool.timeout * 1000;
    const reportFile = path.resolve(host.cwd, flags.report);
    const { exitCode } = await runRehearsal({
      packets: selected,
      ...(shard ? { shard } : {}),
      kit: kitIdentity(KIT_ROOT, fingerprint),
      packetDirs: new Map(loaded.sources.map((s) => [s.id, path.join(packetsDir, s.folder)])),
      ctx,
      sandbox: ready,
      jobs: pool.jobs,
      timeoutMs,
      cache: flags['no-cache'] ? noCache : directoryCache(path.resolve(host.cwd, 'node_modules/.cache/packet-kit/rehearse'), fingerprint),
      // The labs' tables go to the cache the build reads (with --no-cache they are computed again, and still kept).
      labTables: ready.labTables({ dir: 'node_modules/.cache/packet-kit/labs', kit: fingerprint, timeoutMs, fresh: flags['no-cache'] }),
      reporter: fanOut([jsonReportFile(reportFile, ctx.redact), reporter]),
      outDir: path.resolve(host.cwd, flags.out ?? path.join('out', 'rehearsals', folderTimestamp(host.now()))),
      cwd: host.cwd,
      date: host.now,
      ...(ctx.models
        ? {
            live: {
              models: ctx.models,
              endpointJobs: n['endpoint-jobs']!,
              ...(ctx.live ? { endpoint: ctx.live } : {}),
              apiKey: ctx.apiKey,
              flags: budget,
              feedbackTurns: n.feedback!,
              stallCalls: n.stall!,
              attemptTimeoutMs: n['attempt-timeout']! * 1000,
              maxReplyTokens: n['max-reply-tokens']!,
            },
          }
        : {}),
    });
    reporter.onReportWritten?.(reportFile);
    return exitCode;
  } finally {
    await ctx.dispose();
  }
}
