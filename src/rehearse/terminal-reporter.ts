import pc from 'picocolors';
import type { Reporter } from './reporter.ts';
import type { CheckResult, ModelRunReport, PacketReport, RehearsalReport } from './report.ts';

/** Live progress on a terminal (one line per packet, rewritten), a plain log otherwise, and a summary in words. */
export function terminalReporter(out: (text: string) => void, options: { tty: boolean; color: boolean }): Reporter {
  const c = options.color ? pc : pc.createColors(false);
  const done = new Map<string, number>();
  let total = 0;
  let finished = 0;
  const progress = (id: string) => {
    if (!options.tty) return;
    out(`\r\x1b[2K${c.dim(`[${finished}/${total}]`)} ${id}: ${done.get(id) ?? 0} checks done`);
  };
  const mark = (check: CheckResult) => (check.inconclusive ? c.yellow('?') : check.ok ? c.green('ok') : c.red('DEFECT'));
  return {
    onRunStart(plan) {
      total = plan.packets.length;
      if (!options.tty) out(`rehearsing ${total} packet${total === 1 ? '' : 's'} on ${plan.jobs} worker${plan.jobs === 1 ? '' : 's'}\n`);
    },
    onCheckEnd(id, check) {
      done.set(id, (done.get(id) ?? 0) + 1);
      if (options.tty) progress(id);
      else out(`${id} ${check.id} ${check.inconclusive ? 'inconclusive' : check.ok ? 'ok' : 'DEFECT'} (${Math.round(check.durationMs)} ms): ${check.actual}\n`);
    },
    onPacketEnd(report: PacketReport) {
      finished++;
      const status =
        report.status === 'fails-closed' ? c.green('fails closed') : report.status === 'defect' ? c.red('DEFECT') : c.yellow('INCONCLUSIVE');
      const line = `${status} ${report.id} ${report.version} (${report.checks.length} checks, ${report.cached ? 'cached' : `${Math.round(report.durationMs)} ms`})`;
      if (options.tty) out(`\r\x1b[2K${line}\n`);
      else out(`${line}\n`);
      for (const check of report.checks.filter((x) => !x.ok)) {
        out(`  ${mark(check)} ${check.id}: ${check.code ? `${check.code} ` : ''}${check.defect ?? check.actual}\n`);
        if (check.hint) out(`    hint: ${check.hint}\n`);
      }
    },
    onModelRunEnd(run: ModelRunReport) {
      const colour = run.verdict === 'INCONCLUSIVE' ? c.yellow : run.verdict === 'PASS' || run.verdict === 'CAUGHT' ? c.green : run.verdict === 'GAVE-UP' ? c.cyan : c.red;
      const t = run.tokens;
      const tokens = t.total === null ? `${t.prompt + t.completion}+unknown tokens (${t.unknownCalls} call${t.unknownCalls === 1 ? '' : 's'} without usage)` : `${t.total} tokens`;
      out(
        `${colour(run.verdict)} ${run.packet} ${run.version} with ${run.model} at ${run.endpoint}: ${run.calls} call${run.calls === 1 ? '' : 's'}, ${tokens}, ` +
          `${run.bytes.out} B out, ${run.bytes.in} B in, ${(run.wallMs / 1000).toFixed(1)} s\n  ${run.reason}\n`,
      );
      if (run.failure) {
        const f = run.failure;
        out(c.yellow(`  endpoint: ${f.error}${f.status !== null ? `, HTTP ${f.status}` : ''}${f.message ? `: "${f.message}"` : ''}\n`));
      }
      if (run.servedModels?.length) out(c.yellow(`  note: answered by ${run.servedModels.map((m) => `"${m}"`).join(', ')}, not "${run.model}"\n`));
      if (run.reasoning) out(c.dim(`  reasoning kept apart from the answer in ${run.reasoning.turns} turn${run.reasoning.turns === 1 ? '' : 's'} (${run.reasoning.chars} characters, not parsed)\n`));
      for (const n of run.notes ?? []) out(c.dim(`  reply ${n}\n`));
      if (run.possibleLeak) out(c.yellow(`  note: passed on the first answer; the packet may leak its answer\n`));
      if (run.receipts.ledger) out(c.dim(`  receipts: ${run.receipts.usage}, ${run.receipts.ledger}${run.receipts.giveUp ? `, ${run.receipts.giveUp}` : ''}\n`));
    },
    onRunEnd(report: RehearsalReport) {
      const s = report.summary;
      if (report.sandbox.notice) out(c.yellow(`note: ${report.sandbox.notice}\n`));
      out(
        `\n${s.packets} packet${s.packets === 1 ? '' : 's'}: ${s.failsClosed} fail closed, ${s.defects} with defects, ${s.inconclusive} inconclusive` +
          ` (${s.cached} cached) in ${(s.durationMs / 1000).toFixed(1)} s\n`,
      );
      for (const p of report.packets.filter((x) => x.status !== 'fails-closed')) {
        out(`\n${p.id}:\n${p.defects.map((d) => `  - ${d}`).join('\n')}\n`);
      }
    },
  };
}
