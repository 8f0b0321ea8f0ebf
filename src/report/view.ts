/**
 * What the HTML report shows, computed once from the report and its history: the summary, the
 * packet x check table, the packet x model matrix, the findings with their hints and receipts,
 * and a history chart per packet. Plain data (JSON), handed to the report's Astro page, which
 * only lays it out. Links are relative to the report's folder, so it works from file://.
 */
import { ModelErrors } from '../errors/model-catalog.ts';
import type { Finding } from '../judge/findings.ts';
import { exitCodeOf, type CheckKind, type CheckResult, type ModelRunReport, type ModelVerdict, type PacketStatus, type RehearsalReport } from '../rehearse/report.ts';
import type { ReadReport } from '../rehearse/report-file.ts';
import { historyChartSvg, VERDICT_SYMBOLS } from './charts.ts';
import { packetHistories, type HistoryPoint } from './history.ts';

/** A link to a receipt file, or its path when it was not found to copy. */
export interface ReceiptLink {
  /** `usage.jsonl`, `ledger.json`, `give_up.json`. */
  label: string;
  /** The path the report names. */
  path: string;
  /** Relative to the report's folder; null when the file was not there to copy. */
  href: string | null;
}

/** One check of one packet. */
export interface CheckView {
  id: string;
  kind: CheckKind;
  state: 'ok' | 'defect' | 'inconclusive';
  code: string | null;
  durationMs: number;
  expected: string;
  actual: string;
  defect: string | null;
  outputTail: string | null;
  /** For reply checks: the scripted model run's receipts. */
  receipts: ReceiptLink[];
  /** The anchor of its row. */
  anchor: string;
}

/** The checks of one kind for one packet: a cell of the packet x check table. */
export interface KindCell {
  total: number;
  ok: number;
  defects: number;
  inconclusive: number;
  durationMs: number;
  codes: string[];
}

/** One live model run: a cell of the packet x model matrix. */
export interface ModelCell {
  model: string;
  verdict: ModelVerdict;
  reason: string;
  calls: number;
  turns: number;
  /** Reported tokens; null when some call's usage was unknown (then `knownTokens` and `unknownCalls` say what is known). */
  tokens: number | null;
  knownTokens: number;
  unknownCalls: number;
  bytesOut: number;
  bytesIn: number;
  wallMs: number;
  possibleLeak: boolean;
  failure: string | null;
  receipts: ReceiptLink[];
  anchor: string;
}

/** One packet's row. */
export interface PacketView {
  id: string;
  version: string;
  digest: string;
  status: PacketStatus;
  cached: boolean;
  durationMs: number;
  kinds: Partial<Record<CheckKind, KindCell>>;
  checks: CheckView[];
  defects: string[];
  /** One cell per model column; null when that model did not run on this packet. */
  models: (ModelCell | null)[];
  anchor: string;
}

/** One finding, where it was found, and what to do. */
export interface FindingView {
  packet: string;
  /** `check mutant:drops-minutes` or `model <id>`. */
  where: string;
  code: string;
  name: string;
  message: string;
  hint: string;
  place: string | null;
  /** The row of the check or the cell of the model run. */
  anchor: string;
  receipts: ReceiptLink[];
}

/** One packet's history: the chart and its numbers. */
export interface HistoryView {
  packet: string;
  svg: string;
  models: string[];
  points: HistoryPoint[];
}

/** Everything the report page shows. */
export interface ReportView {
  date: string;
  kit: { version: string; fingerprint: string } | null;
  sandbox: { kind: string; notice: string | null };
  python: string | null;
  shards: { index: number; count: number; durationMs: number; packets: number }[];
  summary: RehearsalReport['summary'] & { exitCode: 0 | 1 | 2; exitMeaning: string; modelRuns: number; verdicts: Partial<Record<ModelVerdict, number>> };
  endpoint: string | null;
  /** Check kinds that occur, in the order they run: the columns of the packet x check table. */
  kinds: CheckKind[];
  /** The model columns, as named on the command line. */
  models: string[];
  packets: PacketView[];
  findings: FindingView[];
  history: { reports: number; first: string | null; packets: HistoryView[] };
  /** The marker of each verdict in the history charts. */
  verdictSymbols: Record<string, string>;
}

const KIND_ORDER: CheckKind[] = ['floor', 'sample', 'mutant', 'signal', 'calibration', 'reply'];
const EXIT_MEANING = {
  0: 'every packet fails closed, and every model run ended PASS, CAUGHT, FALSE-GREEN or GAVE-UP',
  1: 'some packet has a defect',
  2: 'something is inconclusive: a check or a model run could not be judged',
} as const;

/** A stable anchor from parts: lower-case letters, digits and dashes. */
export function anchorOf(...parts: string[]): string {
  return parts.map((p) => p.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')).join('--');
}

function placeOf(f: Finding): string | null {
  return f.file ? `${f.file}${f.line ? `:${f.line}` : ''}` : null;
}

/** Turns receipt paths into links: the report's folder holds copies where the files were found. */
export type ReceiptLinker = (paths: ModelRunReport['receipts']) => ReceiptLink[];

function stateOf(c: CheckResult): CheckView['state'] {
  return c.ok ? 'ok' : c.inconclusive ? 'inconclusive' : 'defect';
}

function modelCell(m: ModelRunReport, linker: ReceiptLinker): ModelCell {
  const f = m.failure;
  return {
    model: m.model,
    verdict: m.verdict,
    reason: m.reason,
    calls: m.calls,
    turns: m.turns,
    tokens: m.tokens.total,
    knownTokens: m.tokens.prompt + m.tokens.completion,
    unknownCalls: m.tokens.unknownCalls,
    bytesOut: m.bytes.out,
    bytesIn: m.bytes.in,
    wallMs: m.wallMs,
    possibleLeak: m.possibleLeak,
    failure: f ? `${f.error}${f.status !== null ? `, HTTP ${f.status}` : ''}${f.message ? `: ${f.message}` : ''}` : null,
    receipts: linker(m.receipts),
    anchor: anchorOf('run', m.packet, m.named ?? m.model),
  };
}

/** The view of `report`, with `history` (older reports, any order) for the charts. */
export function reportView(report: RehearsalReport, history: readonly ReadReport[], linker: ReceiptLinker): ReportView {
  const models = report.live?.models ?? [...new Set((report.models ?? []).map((m) => m.named ?? m.model))];
  const kinds = KIND_ORDER.filter((k) => report.packets.some((p) => p.checks.some((c) => c.kind === k)));
  const findings: FindingView[] = [];
  const packets = report.packets.map((p): PacketView => {
    const checks = p.checks.map((c): CheckView => {
      const anchor = anchorOf('check', p.id, c.id);
      const receipts = c.model ? linker(c.model.receipts) : [];
      for (const f of c.findings ?? []) {
        findings.push({ packet: p.id, where: `check ${c.id}`, code: f.code, name: f.name, message: f.message, hint: f.hint, place: placeOf(f), anchor, receipts });
      }
      return {
        id: c.id,
        kind: c.kind,
        state: stateOf(c),
        code: c.code ?? null,
        durationMs: c.durationMs,
        expected: c.expected,
        actual: c.actual,
        defect: c.defect ?? null,
        outputTail: c.outputTail ?? null,
        receipts,
        anchor,
      };
    });
    const cells: Partial<Record<CheckKind, KindCell>> = {};
    for (const c of p.checks) {
      const cell = (cells[c.kind] ??= { total: 0, ok: 0, defects: 0, inconclusive: 0, durationMs: 0, codes: [] });
      cell.total++;
      cell.durationMs += c.durationMs;
      if (c.ok) cell.ok++;
      else if (c.inconclusive) cell.inconclusive++;
      else cell.defects++;
      if (!c.ok && c.code && !cell.codes.includes(c.code)) cell.codes.push(c.code);
    }
    const runs = models.map((named) => (report.models ?? []).find((m) => m.packet === p.id && (m.named ?? m.model) === named) ?? null);
    const modelCells = runs.map((m) => (m ? modelCell(m, linker) : null));
    runs.forEach((m, k) => {
      if (!m) return;
      const cell = modelCells[k]!;
      for (const f of m.findings) {
        findings.push({ packet: p.id, where: `model ${m.model}`, code: f.code, name: f.name, message: f.message, hint: f.hint, place: placeOf(f), anchor: cell.anchor, receipts: cell.receipts });
      }
      if (m.failure) {
        const e = ModelErrors.EndpointFailed;
        findings.push({ packet: p.id, where: `model ${m.model}`, code: e.code, name: e.name, message: `the endpoint failed a call for good: ${cell.failure!}`, hint: m.failure.hint, place: null, anchor: cell.anchor, receipts: cell.receipts });
      }
    });
    return { id: p.id, version: p.version, digest: p.digest, status: p.status, cached: p.cached, durationMs: p.durationMs, kinds: cells, checks, defects: p.defects, models: modelCells, anchor: anchorOf('packet', p.id) };
  });
  const verdicts: Partial<Record<ModelVerdict, number>> = {};
  for (const m of report.models ?? []) verdicts[m.verdict] = (verdicts[m.verdict] ?? 0) + 1;
  const exitCode = exitCodeOf(report);
  const all = [...history, report];
  const histories = packetHistories(all, report.packets.map((p) => p.id));
  const dates = [...new Set(all.map((r) => r.date))].sort();
  return {
    date: report.date,
    kit: report.kit,
    sandbox: report.sandbox,
    python: report.interpreter.python,
    shards: (report.merged?.shards ?? []).map((s) => ({ index: s.index, count: s.count, durationMs: s.durationMs, packets: s.packets })),
    summary: { ...report.summary, exitCode, exitMeaning: EXIT_MEANING[exitCode], modelRuns: report.models?.length ?? 0, verdicts },
    endpoint: report.live?.endpoint ?? null,
    kinds,
    models,
    packets,
    findings,
    history: { reports: dates.length, first: dates[0] ?? null, packets: histories.map((h) => ({ packet: h.packet, svg: historyChartSvg(h), models: h.models, points: h.points })) },
    verdictSymbols: VERDICT_SYMBOLS,
  };
}
