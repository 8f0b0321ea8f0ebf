/**
 * The history of each packet over a series of rehearsal reports (`packet report --history DIR`
 * and the current one): per report, the packet's offline status and duration, and per model its
 * verdict, tokens and wall time. Pure; the reports are read elsewhere.
 */
import type { ModelVerdict, PacketStatus } from '../rehearse/report.ts';
import type { ReadReport } from '../rehearse/report-file.ts';

/** One model's run on one packet, in one report. */
export interface HistoryRun {
  verdict: ModelVerdict;
  /** Tokens as reported; null when some call's usage was unknown. */
  tokens: number | null;
  wallMs: number;
  calls: number;
}

/** One report, as one packet's history sees it. */
export interface HistoryPoint {
  /** The report's date (ISO). */
  date: string;
  /** A short, unique label for the chart's axis: `11-29 12:00` (UTC). */
  label: string;
  /** The offline rehearsal's status and duration; null when the report holds only model runs of it. */
  status: PacketStatus | null;
  durationMs: number | null;
  /** The packet's version in that report. */
  version: string | null;
  /** Model runs by model (as named on the command line). */
  runs: Record<string, HistoryRun>;
}

/** The history of one packet, oldest report first. */
export interface PacketHistory {
  packet: string;
  /** The models seen in any report, in order of first appearance. */
  models: string[];
  points: HistoryPoint[];
}

/** The reports in date order, each date once (the later file in `reports` wins a tie). */
export function historyOrder(reports: readonly ReadReport[]): ReadReport[] {
  const byDate = new Map<string, ReadReport>();
  for (const r of reports) byDate.set(r.date, r);
  return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
}

function shortDate(iso: string): string {
  const m = /^\d{4}-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(iso);
  return m ? `${m[1]}-${m[2]} ${m[3]}:${m[4]}` : iso;
}

/** The history of each of `packets` over `reports` (any order); a report that does not hold a packet is not a point of its history. */
export function packetHistories(reports: readonly ReadReport[], packets: readonly string[]): PacketHistory[] {
  const ordered = historyOrder(reports);
  const labels: string[] = [];
  for (const r of ordered) {
    const base = shortDate(r.date);
    let label = base;
    for (let k = 2; labels.includes(label); k++) label = `${base} (${k})`;
    labels.push(label);
  }
  return packets.map((packet) => {
    const models: string[] = [];
    const points: HistoryPoint[] = [];
    ordered.forEach((r, i) => {
      const p = r.packets.find((x) => x.id === packet);
      const runs: Record<string, HistoryRun> = {};
      for (const m of r.models ?? []) {
        if (m.packet !== packet) continue;
        const name = m.named ?? m.model;
        if (!models.includes(name)) models.push(name);
        runs[name] = { verdict: m.verdict, tokens: m.tokens.total, wallMs: m.wallMs, calls: m.calls };
      }
      if (!p && !Object.keys(runs).length) return;
      points.push({ date: r.date, label: labels[i]!, status: p?.status ?? null, durationMs: p ? p.durationMs : null, version: p?.version ?? null, runs });
    });
    return { packet, models, points };
  });
}
