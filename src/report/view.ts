/**
 * What the HTML report shows, computed once from the report and its history: the summary, the
 * packet x check tables (take-homes by kind of check, labs and drills by their own checks), the
 * packet x model matrix, the findings with their hints and receipts (those that need a look apart
 * from the expected failures: starters red, mutants and wrong choices caught), and a history
 * chart per packet. Plain data (JSON), handed to the report's Astro page, which
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

/** The columns of a lab's or a drill's checks (`lab:<rule>`, see src/rehearse/rehearse-lab.ts). */
export type LabColumn = 'key' | 'wrong' | 'all-offered' | 'plausible' | 'calibration' | 'table';

/** A column of the labs and drills table: its heading and what its checks prove. */
export interface LabColumnView {
  id: LabColumn;
  label: string;
  means: string;
}

/** Which family of checks a packet has: a take-home's (floor, sample, mutants...) or a lab's and a drill's. */
export type PacketFamily = 'takehome' | 'lab';

/** One packet's row. */
export interface PacketView {
  id: string;
  version: string;
  digest: string;
  status: PacketStatus;
  cached: boolean;
  durationMs: number;
  family: PacketFamily;
  kinds: Partial<Record<CheckKind, KindCell>>;
  /** A lab's or a drill's checks by column (empty for a take-home). */
  labCells: Partial<Record<LabColumn, KindCell>>;
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
  /**
   * The packet working as it must: a finding on a check that passed (a starter red, a mutant or a
   * wrong choice caught) or on a model's answer that was caught. Counted and collapsed on the
   * page; every other finding (a defect, an inconclusive check, a weak test) is shown open.
   */
  expected: boolean;
  /** For an expected finding: what it shows, in words ("mutant caught"); for the others: `defect`, `inconclusive` or `notice`. */
  why: string;
}

/** The expected findings of one packet, counted by what they show. */
export interface ExpectedGroup {
  packet: string;
  count: number;
  /** `[["mutant caught", 12], ["starter red", 2]]`, most first. */
  byWhy: [string, number][];
  findings: FindingView[];
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
  /** The columns of the labs and drills table that occur, in order. */
  labColumns: LabColumnView[];
  /** Every finding, in the order of the packets and their checks. */
  findings: FindingView[];
  /** The findings that need a look (defects, inconclusive checks, notices), shown open. */
  attention: FindingView[];
  /** The expected failures, by packet: counted, collapsed by default. */
  expected: { count: number; byWhy: [string, number][]; packets: ExpectedGroup[] };
  history: { reports: number; first: string | null; packets: HistoryView[] };
  /** The marker of each verdict in the history charts. */
  verdictSymbols: Record<string, string>;
}

const KIND_ORDER: CheckKind[] = ['floor', 'sample', 'mutant', 'signal', 'calibration', 'reply', 'leak', 'variant'];
const LAB_COLUMNS: LabColumnView[] = [
  { id: 'key', label: 'key', means: "the key's answer passes every visible and held-out test" },
  { id: 'wrong', label: 'wrong choices', means: 'each wrong choice on a suggestion or a diff is caught' },
  { id: 'all-offered', label: 'all offered', means: 'accepting everything as offered is caught' },
  { id: 'plausible', label: 'plausible', means: 'some wrong suggestion passes the visible tests as offered' },
  { id: 'calibration', label: 'calibration', means: "the key's answer clears the hire bar; accepting everything does not" },
  { id: 'table', label: 'table', means: "the precomputed test table agrees with every judged run" },
];

/** The column of a lab's check, from its id (`lab:wrong:<suggestion>:<state>` is `wrong`). */
export function labColumnOf(checkId: string): LabColumn | null {
  const rule = checkId.split(':')[1] ?? '';
  if (rule === 'reject' || rule === 'wrong') return 'wrong';
  return LAB_COLUMNS.some((c) => c.id === rule) ? (rule as LabColumn) : null;
}

/** What a finding on a passing check shows: the packet catching what it must catch. */
function expectedWhy(c: CheckResult): string {
  if (c.kind === 'floor') return 'starter red';
  if (c.kind === 'sample') return 'note on the sample';
  if (c.kind === 'mutant') return 'mutant caught';
  if (c.kind === 'signal') return 'signal caught';
  if (c.kind === 'reply') return 'failure reply caught';
  if (c.kind === 'calibration') return 'calibration subject caught';
  const column = labColumnOf(c.id);
  return column === 'all-offered' ? 'all offered caught' : column === 'wrong' ? 'wrong choice caught' : `${column ?? 'lab'} check`;
}

function countBy(items: readonly FindingView[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const f of items) counts.set(f.why, (counts.get(f.why) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function emptyCell(): KindCell {
  return { total: 0, ok: 0, defects: 0, inconclusive: 0, durationMs: 0, codes: [] };
}

function addTo(cell: KindCell, c: CheckResult): void {
  cell.total++;
  cell.durationMs += c.durationMs;
  if (c.ok) cell.ok++;
  else if (c.inconclusive) cell.inconclusive++;
  else cell.defects++;
  if (!c.ok && c.code && !cell.codes.includes(c.code)) cell.codes.push(c.code);
}
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
  const labColumns = LAB_COLUMNS.filter((col) => report.packets.some((p) => p.checks.some((c) => c.kind === 'lab' && labColumnOf(c.id) === col.id)));
  const findings: FindingView[] = [];
  const packets = report.packets.map((p): PacketView => {
    const checks = p.checks.map((c): CheckView => {
      const anchor = anchorOf('check', p.id, c.id);
      const receipts = c.model ? linker(c.model.receipts) : [];
      const why = c.ok ? expectedWhy(c) : c.inconclusive ? 'inconclusive' : 'defect';
      for (const f of c.findings ?? []) {
        findings.push({ packet: p.id, where: `check ${c.id}`, code: f.code, name: f.name, message: f.message, hint: f.hint, place: placeOf(f), anchor, receipts, expected: c.ok, why });
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
    const labCells: Partial<Record<LabColumn, KindCell>> = {};
    for (const c of p.checks) {
      addTo((cells[c.kind] ??= emptyCell()), c);
      const column = c.kind === 'lab' ? labColumnOf(c.id) : null;
      if (column) addTo((labCells[column] ??= emptyCell()), c);
    }
    const family: PacketFamily = p.checks.length > 0 && p.checks.every((c) => c.kind === 'lab') ? 'lab' : 'takehome';
    const runs = models.map((named) => (report.models ?? []).find((m) => m.packet === p.id && (m.named ?? m.model) === named) ?? null);
    const modelCells = runs.map((m) => (m ? modelCell(m, linker) : null));
    runs.forEach((m, k) => {
      if (!m) return;
      const cell = modelCells[k]!;
      // A model's wrong answer that was caught is the packet working; a false green, a give-up or an unjudged run is worth a look.
      const caught = m.verdict === 'CAUGHT';
      const why = caught ? 'model answer caught' : m.verdict === 'INCONCLUSIVE' ? 'inconclusive' : 'notice';
      for (const f of m.findings) {
        findings.push({ packet: p.id, where: `model ${m.model}`, code: f.code, name: f.name, message: f.message, hint: f.hint, place: placeOf(f), anchor: cell.anchor, receipts: cell.receipts, expected: caught, why });
      }
      if (m.failure) {
        const e = ModelErrors.EndpointFailed;
        findings.push({ packet: p.id, where: `model ${m.model}`, code: e.code, name: e.name, message: `the endpoint failed a call for good: ${cell.failure!}`, hint: m.failure.hint, place: null, anchor: cell.anchor, receipts: cell.receipts, expected: false, why: 'inconclusive' });
      }
    });
    return { id: p.id, version: p.version, digest: p.digest, status: p.status, cached: p.cached, durationMs: p.durationMs, family, kinds: cells, labCells, checks, defects: p.defects, models: modelCells, anchor: anchorOf('packet', p.id) };
  });
  const verdicts: Partial<Record<ModelVerdict, number>> = {};
  for (const m of report.models ?? []) verdicts[m.verdict] = (verdicts[m.verdict] ?? 0) + 1;
  const exitCode = exitCodeOf(report);
  const all = [...history, report];
  const histories = packetHistories(all, report.packets.map((p) => p.id));
  const dates = [...new Set(all.map((r) => r.date))].sort();
  const expected = findings.filter((f) => f.expected);
  const expectedGroups = packets.flatMap((p): ExpectedGroup[] => {
    const own = expected.filter((f) => f.packet === p.id);
    return own.length ? [{ packet: p.id, count: own.length, byWhy: countBy(own), findings: own }] : [];
  });
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
    labColumns,
    findings,
    attention: findings.filter((f) => !f.expected),
    expected: { count: expected.length, byWhy: countBy(expected), packets: expectedGroups },
    history: { reports: dates.length, first: dates[0] ?? null, packets: histories.map((h) => ({ packet: h.packet, svg: historyChartSvg(h), models: h.models, points: h.points })) },
    verdictSymbols: VERDICT_SYMBOLS,
  };
}
