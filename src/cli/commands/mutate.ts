import { tmpdir } from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import { diagnose, Errors } from '../../errors/catalog.ts';
import { sortDiagnostics, type Diagnostic } from '../../errors/diagnostic.ts';
import { ModelErrors } from '../../errors/model-catalog.ts';
import { loadPacketFiles } from '../../judge/workspace.ts';
import { KIT_ROOT } from '../../kit/fingerprint.ts';
import { kitVersion } from '../../kit/identity.ts';
import { effectiveBudget, type BudgetLimits } from '../../llm/budget.ts';
import { createModelClient } from '../../llm/client.ts';
import { endpointFrom, endpointHost, parseEndpoint } from '../../llm/endpoint.ts';
import { createLedger } from '../../llm/ledger.ts';
import { replyStoreFromDirs, startScriptedServer, type ScriptedServer } from '../../llm/scripted-server.ts';
import { redact } from '../../llm/stable-json.ts';
import { adoptMutant } from '../../mutate/adopt.ts';
import { describeSummary, readMutationReport, type MutationReport } from '../../mutate/report.ts';
import { MAX_COUNT } from '../../mutate/request.ts';
import { runMutate } from '../../mutate/run-mutate.ts';
import { readSampleTree, sampleLayer, sampleSources } from '../../mutate/sources.ts';
import { clearRunFolder, RUN_FILES, writeMutationReports } from '../../mutate/write-reports.ts';
import { loadPackets } from '../../packets/load.ts';
import { MUTANTS_REPLY } from '../../packets/packet.ts';
import { prepareRunEnvironment } from '../../rehearse/environment.ts';
import { formatDiagnosticsText } from '../format-diagnostics.ts';
import { mutateSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';
import { parsePoolOptions } from '../pool-options.ts';


function printDiagnostic(say: (s: string) => void, d: Diagnostic): void {
  say(`${d.code} ${d.severity === 'warning' ? 'warning ' : ''}${d.message}\n  hint: ${d.hint}\n`);
}

function wholeNumber(value: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined | null {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= min && n <= max ? n : null;
}


const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

/** The console summary of a run. */
export function consoleSummary(r: MutationReport, rel: (p: string) => string, dir: string): string {
  const lines: string[] = [];
  lines.push(`mutate ${r.packet} ${r.version}: ${r.model} at ${r.endpoint}${r.scripted ? ' (the embedded scripted endpoint)' : ''}`);
  lines.push(`  sample: ${r.baseline.tests} (${r.baseline.durationMs} ms)`);
  for (const c of r.calls) {
    if (c.status === 'ok') lines.push(`  call ${c.turn}: ${r.summary.proposed} item${r.summary.proposed === 1 ? '' : 's'} proposed (asked for ${r.summary.asked})${c.notes?.length ? `; ${c.notes.join('; ')}` : ''}`);
    else lines.push(`  call ${c.turn}: INCONCLUSIVE: ${c.reason}`);
  }
  for (const m of r.mutants) {
    const status = m.status === 'duplicate' ? `duplicate of #${m.duplicateOf}` : m.status;
    const time = m.durationMs !== undefined ? ` (${m.durationMs} ms)` : '';
    lines.push(`  #${pad(String(m.id), 3)} ${pad(status, 9)} ${m.path || '(no file)'}: ${m.fault || '(no fault stated)'}${time}`);
    if (m.status === 'killed') lines.push(`        killed by ${m.killedBy!.slice(0, 3).join(', ')}${m.killedBy!.length > 3 ? ` and ${m.killedBy!.length - 3} more` : ''}${m.onlyHidden ? ' (held-out tests only)' : ''}`);
    else if (m.status !== 'survived' && m.status !== 'duplicate') lines.push(`        ${m.reason}`);
    for (const n of m.notes ?? []) lines.push(`        note: ${n}`);
  }
  lines.push(`${r.verdict === 'INCONCLUSIVE' ? 'INCONCLUSIVE ' : ''}${r.packet}: ${describeSummary(r.summary)}`);
  const perMutant = r.timing.perMutantMs !== null ? `, ${r.timing.perMutantMs} ms per judged mutant` : '';
  const tokens = r.spend.tokens === null ? `${r.spend.promptTokens + r.spend.completionTokens}+ tokens (${r.spend.unknownCalls} call${r.spend.unknownCalls === 1 ? '' : 's'} without usage)` : `${r.spend.tokens} tokens`;
  lines.push(`  ${r.spend.calls} call${r.spend.calls === 1 ? '' : 's'}, ${tokens}; ${(r.timing.wallMs / 1000).toFixed(1)} s${perMutant}`);
  lines.push(`report: ${rel(path.join(dir, RUN_FILES.html))} (and ${RUN_FILES.schemaReport}, ${RUN_FILES.report}; receipts ${RUN_FILES.usage}, ${RUN_FILES.ledger}${r.receipts.giveUp ? `, ${RUN_FILES.giveUp}` : ''})`);
  return lines.join('\n') + '\n';
}

/** `packet mutate`. */
export async function mutateCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(mutateSpec, args);
  if (values.help) {
    io.out(helpText(mutateSpec));
    return 0;
  }
  if (positionals.length !== 1) {
    io.err(`packet mutate: give exactly one packet id${positionals.length ? `, not ${positionals.length}` : ''}.\nRun "packet mutate --help" for its options.\n`);
    return 2;
  }
  const id = positionals[0]!;
  if (values.format !== 'text' && values.format !== 'json') {
    io.err(`packet mutate: --format must be text or json, not "${values.format}".\n`);
    return 2;
  }
  const numbers: Record<string, number | undefined> = {};
  for (const [flag, min, max] of [
    ['count', 1, MAX_COUNT],
    ['feedback', 0, 10],
    ['max-calls', 1],
    ['max-tokens', 1],
    ['max-seconds', 1],
    ['max-identical-errors', 1],
    ['max-reply-tokens', 1],
    ['attempt-timeout', 1],
    ['adopt', 1],
  ] as [string, number, number?][]) {
    const value = values[flag as keyof typeof values] as string | undefined;
    const n = wholeNumber(value, min, max);
    if (n === null) {
      io.err(`packet mutate: --${flag} must be a whole number ${max !== undefined ? `from ${min} to ${max}` : `of at least ${min}`}, not "${value}".\n`);
      return 2;
    }
    numbers[flag] = n;
  }
  const outDir = path.resolve(io.cwd, values.out ?? path.join('out', 'mutate', id));
  const rel = (p: string) => path.relative(io.cwd, p).split(path.sep).join('/') || '.';

  const loaded = await loadPackets({ packetsDir: values.packets, cwd: io.cwd, ids: [id] });
  const errors = sortDiagnostics(loaded.diagnostics.filter((d) => d.severity === 'error'));
  const packet = loaded.packets.find((p) => p.id === id);
  if (errors.length || !packet) {
    io.err(formatDiagnosticsText(errors, { cwd: io.cwd, frames: false, color: false }));
    io.err(`packet mutate: fix the errors above first (\`npx packet check ${id}\` lists them).\n`);
    return 1;
  }
  if (packet.kind !== 'takehome') {
    io.err(`packet mutate: "${id}" is a ${packet.kind}; mutants are proposed against a take-home's sample (kind: takehome).\n`);
    return 1;
  }
  const packetDir = path.join(path.resolve(io.cwd, values.packets), loaded.sources.find((s) => s.id === id)!.folder);

  if (values.adopt !== undefined || values.as !== undefined) {
    if (values.adopt === undefined || !values.as) {
      io.err('packet mutate: --adopt N and --as MODE-ID go together.\n');
      return 2;
    }
    const n = numbers.adopt!;
    const reportFile = path.join(outDir, RUN_FILES.report);
    const report = await readMutationReport(reportFile);
    if (!report) {
      printDiagnostic((s) => io.err(s), diagnose(ModelErrors.MutationReportMissing, { file: rel(reportFile) }, { file: rel(reportFile), packet: id }));
      return 1;
    }
    const files = await loadPacketFiles(packet, packetDir);
    const adopted = await adoptMutant({ packet, packetDir, report, n, modeId: values.as, sampleLayer: sampleLayer(files, await readSampleTree(files)) });
    if (!adopted.ok) {
      printDiagnostic((s) => io.err(s), diagnose(ModelErrors.AdoptRefused, { file: rel(reportFile) }, { packet: id, n, reason: adopted.reason, fix: adopted.fix }));
      return 1;
    }
    io.out(`adopted mutant #${n} (${adopted.mutant.status}: ${adopted.mutant.fault}) as the failure mode "${values.as}":\n`);
    for (const w of adopted.wrote) io.out(`  wrote ${rel(path.join(packetDir, w))}\n`);
    io.out(`Fill in its signal and caps in failures.mdx; \`npx packet check ${id}\` says what is missing:\n\n`);
    const quiet = { ...io, out: (s: string) => io.out(s), err: (s: string) => io.out(s) };
    // Loaded here only: the lint behind check is heavy, and a mutation run never needs it.
    const { checkCommand } = await import('./check.ts');
    await checkCommand([id, '--packets', values.packets], quiet);
    if (adopted.mutant.status === 'survived') io.out(`\nThe mutant survives the tests: \`npx packet rehearse ${id}\` reports it (PK446) until a test kills it.\n`);
    return 0;
  }

  // The endpoint: a flag or the environment; none means the embedded scripted endpoint.
  let from = endpointFrom(values.endpoint, io.env);
  if (from && from.source !== 'flag' && !values.model) {
    io.err(`note: $${from.source} is set but no --model is given; using the embedded scripted endpoint.\n`);
    from = undefined;
  }
  let live: { baseURL: string; host: string; defaultQuery: Record<string, string> } | undefined;
  if (from) {
    const parsed = parseEndpoint(from.url, from.source);
    const source = from.source === 'flag' ? '--endpoint' : `$${from.source}`;
    if (!parsed.ok) {
      printDiagnostic((s) => io.err(s), diagnose(ModelErrors.EndpointInvalid, { file: source }, { source, reason: parsed.reason }));
      return 2;
    }
    if (!values.model) {
      printDiagnostic((s) => io.err(s), diagnose(ModelErrors.ModelMissing, { file: source }, { source }));
      return 2;
    }
    live = parsed.endpoint;
  }
  const scriptedModel = `scripted:${id}/${MUTANTS_REPLY.replace(/\.md$/, '')}`;
  const model = values.model ?? scriptedModel;
  if (!live && model === scriptedModel && !packet.trees.replies.includes(MUTANTS_REPLY)) {
    printDiagnostic((s) => io.err(s), diagnose(ModelErrors.MutantsReplyMissing, { file: `${packet.dir}/replies/mutants.md` }, { packet: id }));
    return 1;
  }
  const keyVar = values['api-key-env'];
  const apiKey = live ? io.env[keyVar] || null : null;
  if (live && !apiKey) printDiagnostic((s) => io.err(s), diagnose(ModelErrors.ApiKeyMissing, { file: keyVar }, { variable: keyVar }));
  const scrub = (text: string) => (apiKey ? redact(text, [apiKey]) : text);
  const text = values.format === 'text';
  const say = (s: string) => (text ? io.out(scrub(s)) : io.err(scrub(s)));
  const sayErr = (s: string) => io.err(scrub(s));

  const budgetFlags: Partial<BudgetLimits> = {
    ...(numbers['max-calls'] !== undefined ? { modelCalls: numbers['max-calls'] } : {}),
    ...(numbers['max-tokens'] !== undefined ? { tokens: numbers['max-tokens'] } : {}),
    ...(numbers['max-seconds'] !== undefined ? { wallSeconds: numbers['max-seconds'] } : {}),
    ...(numbers['max-identical-errors'] !== undefined ? { identicalErrors: numbers['max-identical-errors'] } : {}),
  };
  const { limits, ignored } = effectiveBudget(packet.prompt.data.budget, budgetFlags);
  if (ignored.length) printDiagnostic(sayErr, diagnose(ModelErrors.BudgetFlagIgnored, { file: 'flags' }, { detail: ignored.join('; ') }));

  const pool = parsePoolOptions('mutate', values, io);
  if (!pool) return 2;
  const bwrapPath = io.env.PACKET_KIT_BWRAP;
  const prepared = await prepareRunEnvironment({ env: io.env, tmpDir: tmpdir(), allowUnconfined: values.unconfined, ...(bwrapPath ? { bwrapPath } : {}) });
  if (!prepared.ok) {
    printDiagnostic(sayErr, diagnose(Errors.SandboxUnavailable, { file: values.packets }, { reason: prepared.message }));
    return 2;
  }
  const { environment } = prepared;
  let server: ScriptedServer | undefined;
  try {
    if (live && environment.sandbox.kind !== 'bubblewrap') {
      printDiagnostic(sayErr, diagnose(ModelErrors.UnconfinedModelRefused, { file: '--unconfined' }, { host: live.host }));
      return 2;
    }
    if (environment.notice) sayErr(`note: ${environment.notice}\n`);
    if (!live) server = await startScriptedServer({ replies: replyStoreFromDirs(new Map([[id, { dir: packetDir, replies: packet.trees.replies }]])) });
    const baseURL = live?.baseURL ?? server!.url;
    const host = live?.host ?? endpointHost(server!.url);
    const client = createModelClient({
      baseURL,
      apiKey,
      attemptTimeoutMs: numbers['attempt-timeout']! * 1000,
      ...(live && Object.keys(live.defaultQuery).length ? { defaultQuery: live.defaultQuery } : {}),
    });
    await clearRunFolder(outDir);
    const ledger = await createLedger({ dir: outDir, header: { packet: id, version: packet.prompt.data.version, digest: packet.digest, model, endpoint: host }, secrets: apiKey ? [apiKey] : [] });
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
      count: numbers.count!,
      feedbackTurns: numbers.feedback!,
      ...(numbers['max-reply-tokens'] !== undefined ? { maxReplyTokens: numbers['max-reply-tokens'] } : {}),
      runner: { sandbox: environment.sandbox, mounts: environment.interpreter.mounts, timeoutMs: pool.timeout * 1000 },
      schedule: (fn) => limit(fn),
      scratchDir: tmpdir(),
      ledger,
      clock: { now: () => performance.now(), nowEpochMs: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)), random: () => Math.random() },
      date: io.now(),
      relative: (p) => (p ? rel(p) : null),
      onWait: (plan, retry) => sayErr(`  retry ${retry} in ${(plan.ms / 1000).toFixed(1)} s (${plan.from ?? plan.source}${plan.ignored ? `; ${plan.ignored}` : ''})\n`),
    });
    if (!result.ok) {
      const entry = result.kind === 'sample-red' ? ModelErrors.MutateSampleRed : result.kind === 'no-sources' ? ModelErrors.MutateNothing : ModelErrors.MutateInconclusive;
      printDiagnostic(sayErr, diagnose(entry, { file: packet.dir }, { packet: id, reason: result.reason }));
      return result.kind === 'sandbox' ? 2 : 1;
    }
    const report = result.report;
    const sources = sampleSources(files, sample);
    await writeMutationReports(outDir, report, { sources, tests: files.expected.all, language: packet.prompt.data.language, kitVersion: kitVersion(KIT_ROOT), scrub });
    if (text) say(consoleSummary(report, rel, outDir));
    else io.out(scrub(JSON.stringify(report, null, 2)) + '\n');
    for (const c of report.calls) {
      if (c.status === 'INCONCLUSIVE' && c.reason?.startsWith('the reply is malformed: ')) {
        printDiagnostic(sayErr, diagnose(ModelErrors.MutantReplyMalformed, { file: rel(path.join(outDir, RUN_FILES.usage)) }, { packet: id, turn: c.turn, reason: c.reason }));
      }
    }
    for (const m of report.mutants.filter((x) => x.status === 'survived')) {
      printDiagnostic(sayErr, diagnose(ModelErrors.ProposedMutantSurvived, { file: `${packet.dir}/${m.path}` }, { packet: id, n: m.id, fault: m.fault, path: m.path }));
    }
    if (report.verdict === 'INCONCLUSIVE') {
      printDiagnostic(sayErr, diagnose(ModelErrors.MutateInconclusive, { file: packet.dir }, { packet: id, reason: report.inconclusive!.reason }));
      return 2;
    }
    return 0;
  } finally {
    await server?.close();
    await environment.dispose();
  }
}
