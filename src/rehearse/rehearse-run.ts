/**
 * `packet rehearse` as a library call, from its flags to its exit code: the shard checked (the
 * numbers come checked by the flag spec; a flag not given takes its default), the run context
 * opened (the model, the endpoint, the key, the budget, the sandbox in a scratch root of its
 * own), the packets loaded, the rehearsal run, the context disposed of. Every line it has to say goes to the reporter; the command only parses and prints.
 */
import path from 'node:path';
import { sortDiagnostics } from '../errors/diagnostic.ts';
import { diagnose } from '../errors/catalog.ts';
import { fsFault, type FsFault } from '../errors/fs-fault.ts';
import { RehearsalRunErrors } from '../errors/judge-catalog.ts';
import { ModelErrors } from '../errors/model-catalog.ts';
import { KIT_ROOT, kitFingerprint } from '../kit/fingerprint.ts';
import { kitIdentity } from '../kit/identity.ts';
import { loadPackets } from '../packets/load.ts';
import { fsPacketFiles } from '../lint/files.ts';
import { codePackets } from '../packets/packet.ts';
import { checkVariants } from '../packets/variants-check.ts';
import { openRunContext, type RunHost } from '../runs/context.ts';
import { folderFault } from '../runs/output-folder.ts';
import { budgetFlags, poolOf, type BudgetFlagValues, type PoolFlags } from '../runs/run-flags.ts';
import { fanOut } from '../runs/reporter.ts';
import { directoryCache, noCache } from './cache.ts';
import { folderTimestamp } from './model-run-report.ts';
import type { RehearsalReporter } from './reporter.ts';
import { junitReportFile } from './junit.ts';
import { jsonReportFile } from './report-file.ts';
import { runRehearsal } from './run-rehearsal.ts';
import { parseShard, selectShard } from './shard.ts';

/** The flags of `packet rehearse`, as parsed: numbers within the bounds of the flag spec. */
export interface RehearseFlags extends PoolFlags, BudgetFlagValues {
  /** The packet ids named; none: every packet. */
  ids: readonly string[];
  packets: string;
  report: string;
  /** Also write the report as JUnit XML to this file. */
  junit?: string | undefined;
  'no-cache': boolean;
  unconfined: boolean;
  shard?: string | undefined;
  /** `--variants N`: the variants proven of every packet with parameters, over its `variants.count` (checked: PK153). */
  variants?: number | undefined;
  endpoint?: string | undefined;
  model?: string | undefined;
  'endpoint-jobs'?: number | undefined;
  'api-key-env': string;
  out?: string | undefined;
  feedback?: number | undefined;
  stall?: number | undefined;
  'attempt-timeout'?: number | undefined;
  'max-reply-tokens'?: number | undefined;
}

/** The live-model flags' values when not given (the flag spec shows the same defaults). */
export const REHEARSE_DEFAULTS = { 'endpoint-jobs': 2, feedback: 2, stall: 2, 'attempt-timeout': 120, 'max-reply-tokens': 4096 } as const;

/** Rehearse as `packet rehearse` does; returns its exit code (2: a wrong flag, no sandbox, an endpoint that cannot be used, a report that cannot be written). */
export async function rehearseRun(flags: RehearseFlags, host: RunHost, reporter: RehearsalReporter): Promise<number> {
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  if (shard && 'error' in shard) {
    reporter.onMessage?.(`packet rehearse: --shard ${shard.error}.\n`);
    return 2;
  }
  const reportFile = path.resolve(host.cwd, flags.report);
  const junitFile = flags.junit === undefined ? undefined : path.resolve(host.cwd, flags.junit);
  const unwritable = (file: string, fault: FsFault) => {
    const shown = path.relative(host.cwd, file) || file;
    reporter.onDiagnostic?.(diagnose(RehearsalRunErrors.RehearsalReportUnwritable, { file: shown }, { file: shown, reason: fault.reason, fix: fault.fix }));
    return 2;
  };
  // The report's folders are tried before any packet is rehearsed: a report that cannot be kept is not worth the run.
  for (const file of [reportFile, ...(junitFile ? [junitFile] : [])]) {
    const fault = await folderFault(path.dirname(file));
    if (fault) return unwritable(file, fault);
  }
  const pool = poolOf(flags);
  const d = REHEARSE_DEFAULTS;
  const budget = budgetFlags(flags);
  const model = { endpoint: flags.endpoint, model: flags.model, apiKeyEnv: flags['api-key-env'], modelList: true, keyAlways: true, scriptedOnly: 'rehearsing the scripted replies only' };
  const ctx = openRunContext('rehearse', host, { unconfined: flags.unconfined, packets: flags.packets, model, budget }, reporter);
  if (!ctx) return 2;
  try {
    const loaded = await loadPackets({ packetsDir: flags.packets, cwd: host.cwd, ids: flags.ids as string[] });
    const withCode = codePackets(loaded.packets);
    const errors = sortDiagnostics(loaded.diagnostics.filter((d) => d.severity === 'error'));
    const selected = shard ? selectShard(withCode, (p) => p.id, shard) : withCode;
    // The variants of each packet with parameters, checked as the build's check step does (PK150-PK156, PK153 for `--variants N`), before any sandbox.
    const files = fsPacketFiles(host.cwd);
    for (const p of selected) if (p.prompt.data.variants) errors.push(...(await checkVariants(p, (rel) => files.read(p, rel), flags.variants)).filter((d) => d.severity === 'error'));
    if (errors.length) {
      reporter.onPacketDiagnostics?.(sortDiagnostics(errors));
      reporter.onMessage?.(`packet rehearse: fix the errors above first (\`npx packet check\` lists them).\n`);
      return 1;
    }
    if (ctx.models) {
      const ignored = new Set<string>();
      for (const p of withCode) for (const i of ctx.budget(p.prompt.data.budget).ignored) ignored.add(`${p.id}: ${i}`);
      if (ignored.size) reporter.onDiagnostic?.(diagnose(ModelErrors.BudgetFlagIgnored, { file: 'flags' }, { detail: [...ignored].join('; ') }));
    }
    const outDir = path.resolve(host.cwd, flags.out ?? path.join('out', 'rehearsals', folderTimestamp(host.now())));
    const outUnwritable = (fault: FsFault) => {
      const folder = `${path.relative(host.cwd, outDir) || outDir}/`;
      reporter.onDiagnostic?.(diagnose(RehearsalRunErrors.RehearsalOutUnwritable, { file: folder.slice(0, -1) }, { folder, reason: fault.reason, fix: fault.fix }));
      return 2;
    };
    // The model runs' folder is tried before any model is called: receipts that cannot be kept are not worth the calls.
    if (ctx.models) {
      const fault = await folderFault(outDir);
      if (fault) return outUnwritable(fault);
    }
    const sandbox = await ctx.sandbox();
    if (!sandbox.ok) {
      reporter.onDiagnostic?.(sandbox.diagnostic);
      return 2;
    }
    const { ready } = sandbox;
    const packetsDir = path.resolve(host.cwd, flags.packets);
    if (shard) reporter.onShard?.(shard, selected.length, withCode.length);
    const fingerprint = kitFingerprint(KIT_ROOT);
    const { timeoutMs } = pool;
    const rehearsal = runRehearsal({
      packets: selected,
      ...(shard ? { shard } : {}),
      kit: kitIdentity(KIT_ROOT, fingerprint),
      packetDirs: new Map(loaded.sources.map((s) => [s.id, path.join(packetsDir, s.folder)])),
      ctx,
      sandbox: ready,
      jobs: pool.jobs,
      timeoutMs,
      ...(flags.variants !== undefined ? { variants: flags.variants } : {}),
      cache: flags['no-cache'] ? noCache : directoryCache(path.resolve(host.cwd, 'node_modules/.cache/packet-kit/rehearse'), fingerprint),
      // The labs' tables go to the cache the build reads (with --no-cache they are computed again, and still kept).
      labTables: ready.labTables({ dir: 'node_modules/.cache/packet-kit/labs', kit: fingerprint, timeoutMs, fresh: flags['no-cache'] }),
      reporter: fanOut([jsonReportFile(reportFile, ctx.redact), ...(junitFile ? [junitReportFile(junitFile, ctx.redact)] : []), reporter]),
      outDir,
      cwd: host.cwd,
      date: host.now,
      ...(ctx.models
        ? {
            live: {
              models: ctx.models,
              endpointJobs: flags['endpoint-jobs'] ?? d['endpoint-jobs'],
              ...(ctx.live ? { endpoint: ctx.live } : {}),
              apiKey: ctx.apiKey,
              flags: budget,
              feedbackTurns: flags.feedback ?? d.feedback,
              stallCalls: flags.stall ?? d.stall,
              attemptTimeoutMs: (flags['attempt-timeout'] ?? d['attempt-timeout']) * 1000,
              maxReplyTokens: flags['max-reply-tokens'] ?? d['max-reply-tokens'],
            },
          }
        : {}),
    });
    let exitCode: number;
    try {
      ({ exitCode } = await rehearsal);
    } catch (err) {
      // The report (or the JUnit file) written at the end: a disk that filled or a folder that vanished meanwhile.
      const fault = fsFault(err);
      const at = fault?.path && path.resolve(fault.path);
      const file = at && [reportFile, junitFile].find((f) => f && (at.startsWith(f) || f.startsWith(`${at}${path.sep}`)));
      if (fault && file) return unwritable(file, fault);
      // Or a model run's receipts, written as it goes.
      if (fault && at && (at === outDir || at.startsWith(`${outDir}${path.sep}`) || outDir.startsWith(`${at}${path.sep}`))) return outUnwritable(fault);
      throw err;
    }
    reporter.onReportWritten?.(reportFile);
    if (junitFile) reporter.onReportWritten?.(junitFile, 'junit');
    return exitCode;
  } finally {
    await ctx.dispose();
  }
}

