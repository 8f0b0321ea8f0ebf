import path from 'node:path';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { forJson, forTerminal as t } from '../errors/escape.ts';
import type { WaitPlan } from '../llm/retry.ts';
import { messagesTo, type RunMessages } from '../runs/reporter.ts';
import type { MutantRecord, MutationReport } from './report.ts';
import { describeSummary } from './report.ts';
import { RUN_FILES } from './write-reports.ts';

/** Observes a mutation run (or an adoption). Every hook is optional; the run never depends on one. */
export interface MutateReporter extends RunMessages {
  /** A call waits before it is retried. */
  onWait?(plan: WaitPlan, retry: number): void;
  /** The run's reports are written in `dir`. */
  onRunEnd?(report: MutationReport, dir: string): void;
  /** A mutant became a failure mode: `wrote` relative to the working directory. */
  onAdopted?(a: { n: number; mutant: MutantRecord; modeId: string; wrote: string[]; packet: string }): void;
}

/** Where the mutate reporters write. */
export interface MutateStreams {
  out(text: string): void;
  err(text: string): void;
  /** Paths printed are relative to it. */
  cwd: string;
  /** The packets' diagnostics as the CLI prints them. */
  list(diagnostics: readonly Diagnostic[]): string;
}

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

/** The console summary of a run. */
export function consoleSummary(r: MutationReport, rel: (p: string) => string, dir: string): string {
  const lines: string[] = [];
  lines.push(`mutate ${t(r.packet)} ${t(r.version)}: ${t(r.model)} at ${t(r.endpoint)}${r.scripted ? ' (the embedded scripted endpoint)' : ''}`);
  lines.push(`  sample: ${t(r.baseline.tests)} (${r.baseline.durationMs} ms)`);
  for (const c of r.calls) {
    if (c.status === 'ok') lines.push(`  call ${c.turn}: ${r.summary.proposed} item${r.summary.proposed === 1 ? '' : 's'} proposed (asked for ${r.summary.asked})${c.notes?.length ? `; ${c.notes.map((n) => t(n)).join('; ')}` : ''}`);
    else lines.push(`  call ${c.turn}: INCONCLUSIVE: ${t(String(c.reason))}`);
  }
  for (const m of r.mutants) {
    const status = m.status === 'duplicate' ? `duplicate of #${m.duplicateOf}` : m.status;
    const time = m.durationMs !== undefined ? ` (${m.durationMs} ms)` : '';
    lines.push(`  #${pad(String(m.id), 3)} ${pad(status, 9)} ${t(m.path || '(no file)')}: ${t(m.fault || '(no fault stated)')}${time}`);
    if (m.status === 'killed') lines.push(`        killed by ${m.killedBy!.slice(0, 3).map((k) => t(k)).join(', ')}${m.killedBy!.length > 3 ? ` and ${m.killedBy!.length - 3} more` : ''}${m.onlyHidden ? ' (held-out tests only)' : ''}`);
    else if (m.status !== 'survived' && m.status !== 'duplicate') lines.push(`        ${t(m.reason)}`);
    for (const n of m.notes ?? []) lines.push(`        note: ${t(n)}`);
  }
  lines.push(`${r.verdict === 'INCONCLUSIVE' ? 'INCONCLUSIVE ' : ''}${t(r.packet)}: ${describeSummary(r.summary)}`);
  const perMutant = r.timing.perMutantMs !== null ? `, ${r.timing.perMutantMs} ms per judged mutant` : '';
  const tokens = r.spend.tokens === null ? `${r.spend.promptTokens + r.spend.completionTokens}+ tokens (${r.spend.unknownCalls} call${r.spend.unknownCalls === 1 ? '' : 's'} without usage)` : `${r.spend.tokens} tokens`;
  lines.push(`  ${r.spend.calls} call${r.spend.calls === 1 ? '' : 's'}, ${tokens}; ${(r.timing.wallMs / 1000).toFixed(1)} s${perMutant}`);
  lines.push(`report: ${t(rel(path.join(dir, RUN_FILES.html)))} (and ${RUN_FILES.schemaReport}, ${RUN_FILES.report}; receipts ${RUN_FILES.usage}, ${RUN_FILES.ledger}${r.receipts.giveUp ? `, ${RUN_FILES.giveUp}` : ''})`);
  return lines.join('\n') + '\n';
}

/** A path relative to `cwd`, with forward slashes (`.` for `cwd` itself). */
export function relativeTo(cwd: string): (p: string) => string {
  return (p) => path.relative(cwd, p).split(path.sep).join('/') || '.';
}

/** Lines shared by both formats: retries and messages on the error stream, an adoption on the output. */
function common(s: MutateStreams): MutateReporter {
  return {
    ...messagesTo(s.err, s.list),
    onWait: (plan, retry) => s.err(`  retry ${retry} in ${(plan.ms / 1000).toFixed(1)} s (${t(plan.from ?? plan.source)}${plan.ignored ? `; ${t(plan.ignored)}` : ''})\n`),
    onAdopted: (a) => {
      s.out(`adopted mutant #${a.n} (${a.mutant.status}: ${t(a.mutant.fault)}) as the failure mode "${t(a.modeId)}":\n`);
      for (const w of a.wrote) s.out(`  wrote ${t(w)}\n`);
      s.out(`Fill in its signal and caps in failures.mdx; \`npx packet check ${a.packet}\` says what is missing:\n\n`);
    },
  };
}

/** The run in lines (`--format text`): the sample, each call, each mutant, the score, the spend, the reports. */
export function terminalMutateReporter(s: MutateStreams): MutateReporter {
  return { ...common(s), onRunEnd: (report, dir) => s.out(consoleSummary(report, relativeTo(s.cwd), dir)) };
}

/** The run's report.json on the output stream (`--format json`). */
export function jsonMutateReporter(s: MutateStreams): MutateReporter {
  return { ...common(s), onRunEnd: (report) => s.out(forJson(report)) };
}
