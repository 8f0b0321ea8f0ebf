/**
 * `packet merge-reports`: shard reports joined into the report one unsharded run would have
 * written: the same packets and checks, verdicts, defects, model runs, counts and exit code;
 * only the timings and dates are the shards' own. Pure: the reports come in, a report or the
 * reasons it cannot be made come out. It refuses, naming the files:
 * - reports of different kits (version or code fingerprint), sandboxes or interpreters;
 * - the same packet with different digests (two shards rehearsed different contents), or twice;
 * - shards of different counts, a shard twice, a shard missing, sharded and unsharded reports
 *   mixed; different live models or endpoints.
 */
import { REPORT_SCHEMA_VERSION, type ModelRunReport, type PacketReport, type RehearsalReport, type ShardRun } from '../rehearse/report.ts';

/** One input: the report and the file it came from (named in refusals). */
export interface MergeInput {
  file: string;
  report: RehearsalReport;
}

/** The merged report, or every reason it cannot be made. */
export type MergeResult = { ok: true; report: RehearsalReport } | { ok: false; problems: string[] };

const short = (fingerprint: string) => fingerprint.slice(0, 12);

/** Every input whose `key` differs from the first's, as a problem in words. */
function sameAcross(inputs: readonly MergeInput[], what: string, key: (r: RehearsalReport) => string, say: (r: RehearsalReport) => string): string[] {
  const first = inputs[0]!;
  const others = inputs.filter((i) => key(i.report) !== key(first.report));
  if (!others.length) return [];
  const list = [first, ...others].map((i) => `${i.file}: ${say(i.report)}`).join('; ');
  return [`the reports come from different ${what} (${list}); merge reports of one run only`];
}

/** Join shard reports into one. */
export function mergeReports(inputs: readonly MergeInput[]): MergeResult {
  if (!inputs.length) return { ok: false, problems: ['no report to merge'] };
  const problems: string[] = [];
  for (const i of inputs) {
    if (i.report.schemaVersion !== REPORT_SCHEMA_VERSION) problems.push(`${i.file} has schemaVersion ${String(i.report.schemaVersion)}; this kit merges version ${REPORT_SCHEMA_VERSION}`);
  }
  if (problems.length) return { ok: false, problems };
  problems.push(
    ...sameAcross(inputs, 'kit versions', (r) => `${r.kit.version}\0${r.kit.fingerprint}`, (r) => `packet-kit ${r.kit.version}, code ${short(r.kit.fingerprint)}`),
    ...sameAcross(inputs, 'sandboxes', (r) => r.sandbox.kind, (r) => r.sandbox.kind),
    ...sameAcross(inputs, 'interpreters', (r) => r.interpreter.python ?? 'none', (r) => `python ${r.interpreter.python ?? 'none'}`),
    ...sameAcross(inputs, 'live models', (r) => JSON.stringify(r.live ?? null), (r) => (r.live ? `${r.live.models.join(', ')} at ${r.live.endpoint}` : 'no live models')),
  );

  // Shards: all or none, one count, each index once, none missing.
  const sharded = inputs.filter((i) => i.report.shard);
  if (sharded.length && sharded.length < inputs.length) {
    const plain = inputs.filter((i) => !i.report.shard).map((i) => i.file);
    problems.push(`${plain.join(', ')} ${plain.length === 1 ? 'is not a shard report' : 'are not shard reports'} while ${sharded.map((i) => i.file).join(', ')} are; merge the shards of one run`);
  } else if (sharded.length) {
    const counts = [...new Set(sharded.map((i) => i.report.shard!.count))];
    if (counts.length > 1) {
      problems.push(`the shards split the packets differently (${sharded.map((i) => `${i.file}: ${i.report.shard!.index}/${i.report.shard!.count}`).join('; ')}); merge the shards of one run`);
    } else {
      const count = counts[0]!;
      const byIndex = new Map<number, string[]>();
      for (const i of sharded) byIndex.set(i.report.shard!.index, [...(byIndex.get(i.report.shard!.index) ?? []), i.file]);
      for (const [index, files] of [...byIndex].sort((a, b) => a[0] - b[0])) if (files.length > 1) problems.push(`shard ${index}/${count} is given twice (${files.join(', ')})`);
      const missing = Array.from({ length: count }, (_, k) => k + 1).filter((k) => !byIndex.has(k));
      if (missing.length) problems.push(`shard${missing.length === 1 ? '' : 's'} ${missing.map((k) => `${k}/${count}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing: a merged report must hold every packet an unsharded run would`);
    }
  }

  // Packets: each once; the same packet with two digests is two different contents.
  const seen = new Map<string, { file: string; packet: PacketReport }>();
  for (const i of inputs) {
    for (const p of i.report.packets) {
      const before = seen.get(p.id);
      if (!before) {
        seen.set(p.id, { file: i.file, packet: p });
        continue;
      }
      if (before.packet.digest !== p.digest) {
        problems.push(`packet "${p.id}" was rehearsed with digest ${p.digest.slice(0, 12)} in ${i.file} and ${before.packet.digest.slice(0, 12)} in ${before.file}: two different contents; rehearse every shard from one checkout`);
      } else {
        problems.push(`packet "${p.id}" is in both ${before.file} and ${i.file}; each packet belongs to one shard`);
      }
    }
  }
  const cells = new Map<string, string>();
  for (const i of inputs) {
    for (const m of i.report.models ?? []) {
      const key = `${m.packet}\0${m.named ?? m.model}`;
      const file = cells.get(key);
      if (file && file !== i.file) problems.push(`the run of "${m.named ?? m.model}" on "${m.packet}" is in both ${file} and ${i.file}`);
      cells.set(key, i.file);
    }
  }
  if (problems.length) return { ok: false, problems };

  const first = inputs[0]!.report;
  const packets = [...seen.values()].map((s) => s.packet).sort((a, b) => a.id.localeCompare(b.id));
  const columns = first.live?.models ?? [];
  const column = (m: ModelRunReport) => {
    const k = columns.indexOf(m.named ?? m.model);
    return k < 0 ? columns.length : k;
  };
  const models = inputs.flatMap((i) => i.report.models ?? []).sort((a, b) => a.packet.localeCompare(b.packet) || column(a) - column(b) || a.model.localeCompare(b.model));
  const count = (s: PacketReport['status']) => packets.filter((p) => p.status === s).length;
  const dates = inputs.map((i) => i.report.date).sort();
  const shards: ShardRun[] = sharded
    .map((i) => ({ index: i.report.shard!.index, count: i.report.shard!.count, date: i.report.date, durationMs: i.report.summary.durationMs, packets: i.report.packets.length }))
    .sort((a, b) => a.index - b.index);
  const report: RehearsalReport = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    date: dates[0]!,
    kit: first.kit,
    ...(shards.length ? { merged: { shards } } : {}),
    sandbox: { kind: first.sandbox.kind, notice: inputs.map((i) => i.report.sandbox.notice).find((n) => n !== null) ?? null },
    interpreter: first.interpreter,
    jobs: Math.max(...inputs.map((i) => i.report.jobs)),
    packets,
    summary: {
      packets: packets.length,
      failsClosed: count('fails-closed'),
      defects: count('defect'),
      inconclusive: count('inconclusive'),
      cached: packets.filter((p) => p.cached).length,
      durationMs: Math.max(...inputs.map((i) => i.report.summary.durationMs)),
    },
  };
  if (first.live) report.live = first.live;
  if (inputs.some((i) => i.report.models)) report.models = models;
  return { ok: true, report };
}
