/**
 * `packet mutate` as a library call, from its flags to its exit code (the numbers come checked by
 * the flag spec): the packet loaded (a take-home, clean), then either an adoption of a mutant of the last run
 * as a failure mode, or a run: the run context opened (the model, the endpoint, the key, the
 * budget, the sandbox in a scratch root of its own with its Ctrl-C and stale-run cleanup, the
 * embedded scripted endpoint), the model's mutants judged, the reports written, the context
 * disposed of. Everything said goes to the reporter.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import { diagnose } from '../errors/catalog.ts';
import { sortDiagnostics } from '../errors/diagnostic.ts';
import { fsFault, type FsFault } from '../errors/fs-fault.ts';
import { ModelErrors } from '../errors/model-catalog.ts';
import { loadPacketFiles } from '../judge/workspace.ts';
import { KIT_ROOT } from '../kit/fingerprint.ts';
import { kitVersion } from '../kit/identity.ts';
import { createModelClient } from '../llm/client.ts';
import { endpointHost } from '../llm/endpoint.ts';
import { createLedger } from '../llm/ledger.ts';
import { loadPackets } from '../packets/load.ts';
import { MUTANTS_REPLY, type Takehome } from '../packets/packet.ts';
import { packetVariants } from '../packets/variants-render.ts';
import { openRunContext, type RunHost } from '../runs/context.ts';
import { folderFault } from '../runs/output-folder.ts';
import { budgetFlags, poolOf, type BudgetFlagValues, type PoolFlags } from '../runs/run-flags.ts';
import { systemClock } from '../runs/turn-loop.ts';
import { adoptMutant } from './adopt.ts';
import { relativeTo, type MutateReporter } from './mutate-reporters.ts';
import { readMutationReport } from './report.ts';
import { runMutate } from './run-mutate.ts';
import { readSampleTree, sampleLayer, sampleSources } from './sources.ts';
import { clearRunFolder, RUN_FILES, writeMutationReports } from './write-reports.ts';

/** The flags of `packet mutate`, as parsed: numbers within the bounds of the flag spec. */
export interface MutateFlags extends PoolFlags, BudgetFlagValues {
  /** The packet's id. */
  id: string;
  packets: string;
  out?: string | undefined;
  count?: number | undefined;
  feedback?: number | undefined;
  unconfined: boolean;
  endpoint?: string | undefined;
  model?: string | undefined;
  'api-key-env': string;
  'max-reply-tokens'?: number | undefined;
  'attempt-timeout'?: number | undefined;
  adopt?: number | undefined;
  as?: string | undefined;
}

/** What a mutate command did: its exit code, and, after an adoption, the mutant's fate (the CLI checks the packet then). */
export interface MutateOutcome {
  exitCode: number;
  adopted?: { survived: boolean };
}

/** The values of the flags not given (the flag spec shows the same defaults). */
export const MUTATE_DEFAULTS = { count: 5, feedback: 1, 'attempt-timeout': 120 } as const;

/** Mutate (or adopt) as `packet mutate` does: 0 classified or adopted, 1 cannot be mutated or an adoption refused, 2 inconclusive or a bad flag. */
export async function mutateRun(flags: MutateFlags, host: RunHost, reporter: MutateReporter): Promise<MutateOutcome> {
  const { id } = flags;
  const done = (exitCode: number): MutateOutcome => ({ exitCode });
  const outDir = path.resolve(host.cwd, flags.out ?? path.join('out', 'mutate', id));
  const rel = relativeTo(host.cwd);
  const loaded = await loadPackets({ packetsDir: flags.packets, cwd: host.cwd, ids: [id] });
  const errors = sortDiagnostics(loaded.diagnostics.filter((d) => d.severity === 'error'));
  const packet = loaded.packets.find((p) => p.id === id);
  if (errors.length || !packet) {
    reporter.onPacketDiagnostics?.(errors);
    reporter.onMessage?.(`packet mutate: fix the errors above first (\`npx packet check ${id}\` lists them).\n`);
    return done(1);
  }
  if (packet.kind !== 'takehome') {
    reporter.onMessage?.(`packet mutate: "${id}" is a ${packet.kind}; mutants are proposed against a take-home's sample (kind: takehome).\n`);
    return done(1);
  }
  const packetDir = path.join(path.resolve(host.cwd, flags.packets), loaded.sources.find((s) => s.id === id)!.folder);
  if (flags.adopt !== undefined || flags.as !== undefined) {
    const n = flags.adopt;
    if (n === undefined || !flags.as) {
      reporter.onMessage?.('packet mutate: --adopt N and --as MODE-ID go together.\n');
      return done(2);
    }
    if (packet.prompt.data.variants) {
      // The report's mutant holds variant v1's values; written as it is, it would be wrong in every other variant.
      reporter.onMessage?.(`packet mutate: "${id}" has variants, and --adopt would write variant v1's values into mutants/${flags.as}/. Copy the mutant there by hand with its [[variant.NAME]] placeholders, then run \`npx packet rehearse ${id}\`.\n`);
      return done(1);
    }
    const reportFile = path.join(outDir, RUN_FILES.report);
    const report = await readMutationReport(reportFile);
    if (!report) {
      reporter.onDiagnostic?.(diagnose(ModelErrors.MutationReportMissing, { file: rel(reportFile) }, { file: rel(reportFile), packet: id }));
      return done(1);
    }
    const files = await loadPacketFiles(packet, packetDir);
    const layer = sampleLayer(files, await readSampleTree(files));
    let adopted: Awaited<ReturnType<typeof adoptMutant>>;
    try {
      adopted = await adoptMutant({ packet, packetDir, report, n, modeId: flags.as, sampleLayer: layer });
    } catch (err) {
      // The packet's folder cannot be written (read-only, full): nothing of the mutant is left in it.
      const fault = fsFault(err);
      if (!fault || !fault.path?.startsWith(`${packetDir}${path.sep}`)) throw err;
      const folder = `${rel(packetDir)}/`;
      reporter.onDiagnostic?.(diagnose(ModelErrors.AdoptUnwritable, { file: rel(packetDir) }, { packet: id, n, folder, reason: fault.reason, fix: fault.fix }));
      return done(2);
    }
    if (!adopted.ok) {
      reporter.onDiagnostic?.(diagnose(ModelErrors.AdoptRefused, { file: rel(reportFile) }, { packet: id, n, reason: adopted.reason, fix: adopted.fix }));
      return done(1);
    }
    reporter.onAdopted?.({ n, mutant: adopted.mutant, modeId: flags.as, wrote: adopted.wrote.map((w) => rel(path.join(packetDir, w))), packet: id });
    return { exitCode: 0, adopted: { survived: adopted.mutant.status === 'survived' } };
  }
  // A packet with variants is mutated as its variant v1: its files rendered into a scratch folder.
  let target: { packet: Takehome; packetDir: string; scratch?: string } = { packet, packetDir };
  if (packet.prompt.data.variants) {
    const [first] = await packetVariants(packet, (p) => readFile(path.join(packetDir, p)).catch(() => undefined), 1);
    if (!first?.variant || first.variant.packet.kind !== 'takehome') {
      reporter.onPacketDiagnostics?.(sortDiagnostics((first?.diagnostics ?? []).filter((d) => d.severity === 'error')));
      reporter.onMessage?.(`packet mutate: variant v1 of "${id}" is not a valid packet (\`npx packet check ${id}\` lists why).\n`);
      return done(1);
    }
    const scratch = await mkdtemp(path.join(tmpdir(), 'packet-kit-mutate-'));
    for (const [relPath, bytes] of first.variant.files) {
      await mkdir(path.dirname(path.join(scratch, relPath)), { recursive: true });
      await writeFile(path.join(scratch, relPath), bytes);
    }
    target = { packet: first.variant.packet, packetDir: scratch, scratch };
    reporter.onMessage?.(`note: "${id}" has variants; mutants are proposed against variant v1's sample.\n`);
  }
  try {
    return await mutateTarget(flags, host, reporter, target.packet, target.packetDir, outDir, rel);
  } finally {
    if (target.scratch) await rm(target.scratch, { recursive: true, force: true });
  }
}

/** Mutate one packet's sample, its files read from `packetDir`. */
async function mutateTarget(flags: MutateFlags, host: RunHost, reporter: MutateReporter, packet: Takehome, packetDir: string, outDir: string, rel: (p: string) => string): Promise<MutateOutcome> {
  const done = (exitCode: number): MutateOutcome => ({ exitCode });
  const model = { endpoint: flags.endpoint, model: flags.model, apiKeyEnv: flags['api-key-env'], scriptedOnly: 'using the embedded scripted endpoint' };
  const unwritable = (fault: FsFault) => {
    const folder = `${rel(outDir)}/`;
    reporter.onDiagnostic?.(diagnose(ModelErrors.MutateOutUnwritable, { file: rel(outDir) }, { folder, reason: fault.reason, fix: fault.fix }));
    return done(2);
  };
  // The run's folder is tried before any model is called or sandbox made.
  const fault = await folderFault(outDir);
  if (fault) return unwritable(fault);
  const ctx = openRunContext('mutate', host, { unconfined: flags.unconfined, packets: flags.packets, model, budget: budgetFlags(flags) }, reporter);
  if (!ctx) return done(2);
  try {
    return done(await mutateOn(ctx, { flags, packet, packetDir, outDir, host, reporter }));
  } catch (err) {
    // A disk that filled, or the folder removed, while the run wrote its ledger or reports.
    const fault = fsFault(err);
    if (!fault || !(fault.path === outDir || fault.path?.startsWith(`${outDir}${path.sep}`))) throw err;
    return unwritable(fault);
  } finally {
    await ctx.dispose();
  }
}

/** The run itself, on an open context. */
async function mutateOn(
  ctx: NonNullable<ReturnType<typeof openRunContext>>,
  r: { flags: MutateFlags; packet: Takehome; packetDir: string; outDir: string; host: RunHost; reporter: MutateReporter },
): Promise<number> {
  const { flags, packet, packetDir, outDir, reporter } = r;
  const id = packet.id;
  const rel = relativeTo(r.host.cwd);
  const { live } = ctx;
  const scriptedModel = `scripted:${id}/${MUTANTS_REPLY.replace(/\.md$/, '')}`;
  const model = flags.model ?? scriptedModel;
  if (!live && model === scriptedModel && !packet.trees.replies.includes(MUTANTS_REPLY)) {
    reporter.onDiagnostic?.(diagnose(ModelErrors.MutantsReplyMissing, { file: `${packet.dir}/replies/mutants.md` }, { packet: id }));
    return 1;
  }
  const { limits, ignored } = ctx.budget(packet.prompt.data.budget);
  if (ignored.length) reporter.onDiagnostic?.(diagnose(ModelErrors.BudgetFlagIgnored, { file: 'flags' }, { detail: ignored.join('; ') }));
  const pool = poolOf(flags);
  const sandbox = await ctx.sandbox();
  if (!sandbox.ok) {
    reporter.onDiagnostic?.(sandbox.diagnostic);
    return 2;
  }
  const { ready } = sandbox;
  if (ready.environment.notice) reporter.onMessage?.(`note: ${ready.environment.notice}\n`);
  const server = live ? undefined : await ctx.scriptedServer([{ id, dir: packetDir, replies: packet.trees.replies }]);
  const host = live?.host ?? endpointHost(server!.url);
  const client = createModelClient({
    baseURL: live?.baseURL ?? server!.url,
    apiKey: ctx.apiKey,
    attemptTimeoutMs: (flags['attempt-timeout'] ?? MUTATE_DEFAULTS['attempt-timeout']) * 1000,
    ...(live && Object.keys(live.defaultQuery).length ? { defaultQuery: live.defaultQuery } : {}),
  });
  await clearRunFolder(outDir);
  const ledger = await createLedger({ dir: outDir, header: { packet: id, version: packet.prompt.data.version, digest: packet.digest, model, endpoint: host }, secrets: ctx.secrets.list() });
  const files = await loadPacketFiles(packet, packetDir);
  const sample = await readSampleTree(files);
  const limit = pLimit(pool.jobs);
  const result = await runMutate({
    files,
    sample,
    client,
    model,
    endpoint: host,
    scripted: !live,
    limits,
    count: flags.count ?? MUTATE_DEFAULTS.count,
    feedbackTurns: flags.feedback ?? MUTATE_DEFAULTS.feedback,
    ...(flags['max-reply-tokens'] !== undefined ? { maxReplyTokens: flags['max-reply-tokens'] } : {}),
    runner: ready.runner(pool.timeoutMs),
    schedule: (fn) => limit(fn),
    scratchDir: ready.scratchDir,
    ledger,
    clock: systemClock,
    date: r.host.now(),
    relative: (p) => (p ? rel(p) : null),
    reporter,
  });
  if (!result.ok) {
    const entry = result.kind === 'sample-red' ? ModelErrors.MutateSampleRed : result.kind === 'no-sources' ? ModelErrors.MutateNothing : ModelErrors.MutateInconclusive;
    reporter.onDiagnostic?.(diagnose(entry, { file: packet.dir }, { packet: id, reason: result.reason }));
    return result.kind === 'sandbox' ? 2 : 1;
  }
  const report = result.report;
  await writeMutationReports(outDir, report, { sources: sampleSources(files, sample), tests: files.expected.all, language: packet.prompt.data.language, kitVersion: kitVersion(KIT_ROOT), scrub: ctx.redact });
  reporter.onRunEnd?.(report, outDir);
  for (const c of report.calls) {
    if (c.status === 'INCONCLUSIVE' && c.reason?.startsWith('the reply is malformed: ')) {
      reporter.onDiagnostic?.(diagnose(ModelErrors.MutantReplyMalformed, { file: rel(path.join(outDir, RUN_FILES.usage)) }, { packet: id, turn: c.turn, reason: c.reason }));
    }
  }
  for (const m of report.mutants.filter((x) => x.status === 'survived')) {
    reporter.onDiagnostic?.(diagnose(ModelErrors.ProposedMutantSurvived, { file: `${packet.dir}/${m.path}` }, { packet: id, n: m.id, fault: m.fault, path: m.path }));
  }
  if (report.verdict === 'INCONCLUSIVE') {
    reporter.onDiagnostic?.(diagnose(ModelErrors.MutateInconclusive, { file: packet.dir }, { packet: id, reason: report.inconclusive!.reason }));
    return 2;
  }
  return 0;
}
