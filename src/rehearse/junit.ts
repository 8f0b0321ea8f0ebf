/**
 * The rehearsal as JUnit XML, the format CI systems show as test results: one test suite per
 * packet, one test case per check and per live model run. A case fails exactly when the report's
 * exit code says so (see `exitCodeOf`): a packet defect is a `<failure>`, an inconclusive check
 * or model run an `<error>`; a model run that ends PASS, CAUGHT, FALSE-GREEN or GAVE-UP passes,
 * with its verdict in `<system-out>`. Deterministic: the report's order, no time of writing.
 * Written by `packet report --junit` and, as a reporter, by `packet rehearse --junit`.
 */
import { forXml } from '../errors/escape.ts';
import type { Finding } from '../judge/findings.ts';
import { writeFileAtomic } from './report-file.ts';
import type { RehearsalReporter } from './reporter.ts';
import { variantValuesText, type CheckResult, type ModelRunReport, type PacketReport, type RehearsalReport } from './report.ts';

/** Text for XML content: its lines and tabs kept, any other control shown as an escape (XML 1.0 cannot hold them), the special characters as entities. */
export const xmlText = (text: string): string => forXml(text, { lines: true });

const seconds = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);
const attr = (name: string, value: string | number) => ` ${name}="${forXml(String(value))}"`;

function findingLines(findings: readonly Finding[] | undefined): string[] {
  return (findings ?? []).map((f) => `${f.code} ${f.message}${f.file ? ` (${f.file}${f.line ? `:${f.line}` : ''})` : ''}\n  hint: ${f.hint}`);
}

function checkCase(packet: PacketReport, c: CheckResult): string {
  const open = `    <testcase${attr('classname', packet.id)}${attr('name', c.id)}${attr('time', seconds(c.durationMs))}`;
  if (c.ok) return `${open}/>`;
  const tag = c.inconclusive ? 'error' : 'failure';
  const message = c.defect ?? c.actual;
  const body = [`expected: ${c.expected}`, `actual: ${c.actual}`, ...findingLines(c.findings)].join('\n');
  const out = c.outputTail ? `\n      <system-out>${xmlText(c.outputTail)}</system-out>` : '';
  return `${open}>\n      <${tag}${attr('type', c.code ?? (c.inconclusive ? 'inconclusive' : 'defect'))}${attr('message', message)}>${xmlText(body)}</${tag}>${out}\n    </testcase>`;
}

function modelCase(run: ModelRunReport): string {
  const open = `    <testcase${attr('classname', run.packet)}${attr('name', `model ${run.model}`)}${attr('time', seconds(run.wallMs))}`;
  const t = run.tokens;
  const spend = `${run.calls} call${run.calls === 1 ? '' : 's'}, ${t.total === null ? `${t.prompt + t.completion}+unknown` : t.total} tokens, ${run.bytes.out} B out, ${run.bytes.in} B in`;
  const receipts = [run.receipts.usage, run.receipts.ledger, run.receipts.giveUp].filter((r) => r !== null).join(', ');
  const text = [`${run.verdict}: ${run.reason}`, spend, ...findingLines(run.findings), ...(receipts ? [`receipts: ${receipts}`] : [])].join('\n');
  const out = `\n      <system-out>${xmlText(text)}</system-out>`;
  if (run.verdict !== 'INCONCLUSIVE') return `${open}>${out}\n    </testcase>`;
  return `${open}>\n      <error${attr('type', run.inconclusiveCause ?? 'inconclusive')}${attr('message', run.reason)}>${xmlText(run.failure ? `${run.failure.error}${run.failure.status !== null ? ` HTTP ${run.failure.status}` : ''}: ${run.failure.message ?? ''}\n  hint: ${run.failure.hint}` : run.reason)}</error>${out}\n    </testcase>`;
}

/** The JUnit XML document of a report. */
export function junitXml(report: RehearsalReport): string {
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let errors = 0;
  let time = 0;
  for (const p of report.packets) {
    const runs = (report.models ?? []).filter((m) => m.packet === p.id);
    const cases = [...p.checks.map((c) => checkCase(p, c)), ...runs.map(modelCase)];
    const f = p.checks.filter((c) => !c.ok && !c.inconclusive).length;
    const e = p.checks.filter((c) => !c.ok && c.inconclusive).length + runs.filter((r) => r.verdict === 'INCONCLUSIVE').length;
    const t = p.checks.reduce((s, c) => s + c.durationMs, 0) + runs.reduce((s, r) => s + r.wallMs, 0);
    tests += cases.length;
    failures += f;
    errors += e;
    time += t;
    const props = [
      `      <property${attr('name', 'version')}${attr('value', p.version)}/>`,
      `      <property${attr('name', 'digest')}${attr('value', p.digest)}/>`,
      `      <property${attr('name', 'status')}${attr('value', p.status)}/>`,
      ...(p.variants ?? []).map((v) => `      <property${attr('name', `variant ${v.id}`)}${attr('value', `${variantValuesText(v.values)}; digest ${v.digest}; ${v.status}`)}/>`),
    ].join('\n');
    suites.push(
      `  <testsuite${attr('name', p.id)}${attr('tests', cases.length)}${attr('failures', f)}${attr('errors', e)}${attr('skipped', 0)}${attr('time', seconds(t))}${attr('timestamp', report.date)}>\n` +
        `    <properties>\n${props}\n    </properties>\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites${attr('name', 'packet rehearse')}${attr('tests', tests)}${attr('failures', failures)}${attr('errors', errors)}${attr('time', seconds(time))}${attr('timestamp', report.date)}>\n` +
    `${suites.join('\n')}${suites.length ? '\n' : ''}</testsuites>\n`
  );
}

/** The JUnit output of a rehearsal, as a reporter: the final report written to `file` as JUnit XML, atomically, through `redact`. */
export function junitReportFile(file: string, redact: (text: string) => string = (t) => t): RehearsalReporter {
  return {
    onReport: (report) => writeFileAtomic(file, redact(junitXml(report))),
  };
}
