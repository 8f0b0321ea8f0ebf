import path from 'node:path';
import pc from 'picocolors';
import { diagnose } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { forTerminal as t } from '../errors/escape.ts';
import { ModelErrors } from '../errors/model-catalog.ts';
import { classInfo } from '../llm/error-class.ts';
import { messagesTo } from '../runs/reporter.ts';
import type { RehearsalReporter } from './reporter.ts';
import type { CheckResult, ModelRunReport, PacketReport, RehearsalReport } from './report.ts';
import { variantValuesText } from './report.ts';

/** Where the terminal reporter writes, and how. */
export interface TerminalReporterOptions {
  /** The output stream (already redacted). */
  out(text: string): void;
  /** The error stream (already redacted): notes, diagnostics. */
  err(text: string): void;
  tty: boolean;
  color: boolean;
  /** Paths printed are relative to it. */
  cwd: string;
  /** The packets' diagnostics as the CLI prints them. */
  list(diagnostics: readonly Diagnostic[]): string;
}

/** The coded diagnostics of the live runs' end: each inconclusive run, failed endpoint and substituted model. */
function modelRunDiagnostics(runs: readonly ModelRunReport[]): Diagnostic[] {
  const list: Diagnostic[] = [];
  for (const m of runs) {
    if (m.verdict === 'INCONCLUSIVE') {
      const tooSmall = m.inconclusiveCause === 'budget';
      list.push(
        tooSmall
          ? diagnose(ModelErrors.TokenBudgetTooSmall, { file: m.packet }, { packet: m.packet, detail: m.reason.replace(/^no answer could be judged: /, '') })
          : diagnose(ModelErrors.ModelRunInconclusive, { file: m.packet }, { packet: m.packet, reason: m.reason }),
      );
    }
    if (m.failure) {
      const f = m.failure;
      const server = f.status !== null ? `The server answered HTTP ${f.status}${f.message ? `: "${f.message}".` : '.'}` : `No response arrived${f.message ? ` (${f.message})` : ''}.`;
      list.push(diagnose(ModelErrors.EndpointFailed, { file: m.packet }, { packet: m.packet, error: f.error, meaning: classInfo(f.error).meaning, server, fix: f.hint }));
    }
    for (const served of m.servedModels ?? []) list.push(diagnose(ModelErrors.ServedModelDiffers, { file: m.packet }, { packet: m.packet, asked: m.model, served }));
  }
  return list;
}

/**
 * Live progress on a terminal (one line per packet, rewritten), a plain log otherwise, and a
 * summary in words; the live runs' start, waits, pauses and verdicts; notes and diagnostics on
 * the error stream.
 */
export function terminalReporter(options: TerminalReporterOptions): RehearsalReporter {
  const { out } = options;
  const messages = messagesTo(options.err, options.list);
  const c = options.color ? pc : pc.createColors(false);
  let models = 0;
  const done = new Map<string, number>();
  let total = 0;
  let finished = 0;
  const progress = (id: string) => {
    if (!options.tty) return;
    out(`\r\x1b[2K${c.dim(`[${finished}/${total}]`)} ${t(id)}: ${done.get(id) ?? 0} checks done`);
  };
  const mark = (check: CheckResult) => (check.inconclusive ? c.yellow('?') : check.ok ? c.green('ok') : c.red('DEFECT'));
  return {
    ...messages,
    onShard(shard, selected, all) {
      out(`shard ${shard.index}/${shard.count}: ${selected} of ${all} packet${all === 1 ? '' : 's'}\n`);
    },
    onRunStart(plan) {
      total = plan.packets.length;
      if (!options.tty) out(`rehearsing ${total} packet${total === 1 ? '' : 's'} on ${plan.jobs} worker${plan.jobs === 1 ? '' : 's'}\n`);
    },
    onCheckEnd(id, check) {
      done.set(id, (done.get(id) ?? 0) + 1);
      if (options.tty) progress(id);
      else out(`${t(id)} ${t(check.id)} ${check.inconclusive ? 'inconclusive' : check.ok ? 'ok' : 'DEFECT'} (${Math.round(check.durationMs)} ms): ${t(check.actual)}\n`);
    },
    onPacketEnd(report: PacketReport) {
      finished++;
      const status =
        report.status === 'fails-closed' ? c.green('fails closed') : report.status === 'defect' ? c.red('DEFECT') : c.yellow('INCONCLUSIVE');
      const line = `${status} ${t(report.id)} ${t(report.version)} (${report.checks.length} checks, ${report.cached ? 'cached' : `${Math.round(report.durationMs)} ms`})`;
      if (options.tty) out(`\r\x1b[2K${line}\n`);
      else out(`${line}\n`);
      for (const v of report.variants ?? []) out(`  variant ${t(v.id)} (${t(variantValuesText(v.values))}): ${v.status}${v.cached ? ', cached' : ''}, digest ${t(v.digest.slice(0, 12))}\n`);
      for (const check of report.checks.filter((x) => !x.ok)) {
        out(`  ${mark(check)} ${t(check.id)}: ${check.code ? `${check.code} ` : ''}${t(check.defect ?? check.actual)}\n`);
        if (check.hint) out(`    hint: ${t(check.hint, { lines: true }).replace(/\n/g, '\n    ')}\n`);
      }
    },
    onModelsStart(s) {
      models = s.models.length;
      out(`\nmodel${s.models.length === 1 ? '' : 's'} ${s.models.map((m) => t(m)).join(', ')} at ${t(s.host)}${s.scripted ? ' (the embedded scripted endpoint)' : ''}, ${s.endpointJobs} call${s.endpointJobs === 1 ? '' : 's'} at a time\n`);
    },
    onWait(packet, plan, retry, model) {
      out(`  ${t(packet)}${models > 1 ? ` with ${t(model)}` : ''}: retry ${retry} in ${(plan.ms / 1000).toFixed(1)} s (${t(plan.from ?? plan.source)}${plan.ignored ? `; ${t(plan.ignored)}` : ''})\n`);
    },
    onPause(pause, host) {
      out(`  endpoint ${t(host)}: every run waits ${(pause.ms / 1000).toFixed(1)} s (a rate limit: ${t(pause.from)})\n`);
    },
    onModelsEnd(runs) {
      const by = new Map<string, number>();
      for (const m of runs) by.set(m.verdict, (by.get(m.verdict) ?? 0) + 1);
      out(`models: ${runs.length} run${runs.length === 1 ? '' : 's'}: ${[...by].map(([v, k]) => `${k} ${v}`).join(', ')}\n`);
      for (const d of modelRunDiagnostics(runs)) messages.onDiagnostic(d);
    },
    onReportWritten(file, format = 'json') {
      out(`${format === 'junit' ? 'junit' : 'report'}: ${t(path.relative(options.cwd, file))}\n`);
    },
    onModelRunEnd(run: ModelRunReport) {
      const colour = run.verdict === 'INCONCLUSIVE' ? c.yellow : run.verdict === 'PASS' || run.verdict === 'CAUGHT' ? c.green : run.verdict === 'GAVE-UP' ? c.cyan : c.red;
      const tk = run.tokens;
      const tokens = tk.total === null ? `${tk.prompt + tk.completion}+unknown tokens (${tk.unknownCalls} call${tk.unknownCalls === 1 ? '' : 's'} without usage)` : `${tk.total} tokens`;
      out(
        `${colour(run.verdict)} ${t(run.packet)} ${t(run.version)}${run.variant ? ` variant ${t(run.variant.id)}` : ''} with ${t(run.model)} at ${t(run.endpoint)}: ${run.calls} call${run.calls === 1 ? '' : 's'}, ${tokens}, ` +
          `${run.bytes.out} B out, ${run.bytes.in} B in, ${(run.wallMs / 1000).toFixed(1)} s\n  ${t(run.reason)}\n`,
      );
      if (run.failure) {
        const f = run.failure;
        out(c.yellow(`  endpoint: ${f.error}${f.status !== null ? `, HTTP ${f.status}` : ''}${f.message ? `: "${t(f.message)}"` : ''}\n`));
      }
      if (run.servedModels?.length) out(c.yellow(`  note: answered by ${run.servedModels.map((m) => `"${t(m)}"`).join(', ')}, not "${t(run.model)}"\n`));
      if (run.reasoning) out(c.dim(`  reasoning kept apart from the answer in ${run.reasoning.turns} turn${run.reasoning.turns === 1 ? '' : 's'} (${run.reasoning.chars} characters, not parsed)\n`));
      for (const n of run.notes ?? []) out(c.dim(`  reply ${t(n)}\n`));
      if (run.possibleLeak) out(c.yellow(`  note: passed on the first answer; the packet may leak its answer\n`));
      if (run.receipts.ledger) out(c.dim(`  receipts: ${t(String(run.receipts.usage))}, ${t(run.receipts.ledger)}${run.receipts.giveUp ? `, ${t(run.receipts.giveUp)}` : ''}\n`));
    },
    onRunEnd(report: RehearsalReport) {
      const s = report.summary;
      if (report.sandbox.notice) out(c.yellow(`note: ${t(report.sandbox.notice, { lines: true })}\n`));
      out(
        `\n${s.packets} packet${s.packets === 1 ? '' : 's'}: ${s.failsClosed} fail closed, ${s.defects} with defects, ${s.inconclusive} inconclusive` +
          ` (${s.cached} cached) in ${(s.durationMs / 1000).toFixed(1)} s\n`,
      );
      for (const p of report.packets.filter((x) => x.status !== 'fails-closed')) {
        out(`\n${t(p.id)}:\n${p.defects.map((d) => `  - ${t(d)}`).join('\n')}\n`);
      }
    },
  };
}
