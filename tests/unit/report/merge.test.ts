import { describe, expect, it } from 'vitest';
import { mergeReports, type MergeInput } from '../../../src/report/merge.ts';
import { exitCodeOf, type RehearsalReport } from '../../../src/rehearse/report.ts';
import { selectShard } from '../../../src/rehearse/shard.ts';
import { modelRun, packet, report } from '../../support/report-fixtures.ts';

const MODELS = ['scripted:{packet}/sample', 'scripted:{packet}/drops-minutes'];
const IDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'];

/** An unsharded report, and the same run split into `count` shards as `--shard` would split it. */
function runs(count: number): { whole: RehearsalReport; shards: MergeInput[] } {
  const packets = IDS.map((id, k) => packet(id, k === 2 ? 'defect' : 'fails-closed'));
  const models = IDS.flatMap((id) => MODELS.map((m, k) => modelRun(id, m, k === 0 ? 'PASS' : 'CAUGHT')));
  const whole = report(packets, { models, live: MODELS });
  const shards = Array.from({ length: count }, (_, k) => {
    const mine = selectShard(packets, (p) => p.id, { index: k + 1, count });
    const r = report(mine, { models: models.filter((m) => mine.some((p) => p.id === m.packet)), live: MODELS, date: `2026-11-29T12:0${k}:00.000Z`, durationMs: 1000 + k });
    return { file: `shard-${k + 1}.json`, report: { ...r, shard: { index: k + 1, count } } };
  });
  return { whole, shards };
}

/** Everything but timings and dates. */
function verdicts(r: RehearsalReport) {
  return {
    kit: r.kit,
    packets: r.packets.map(({ durationMs: _d, cached: _c, checks, ...p }) => ({ ...p, checks: checks.map(({ durationMs: _x, ...c }) => c) })),
    summary: { ...r.summary, durationMs: 0, cached: 0 },
    live: r.live,
    models: r.models?.map(({ date: _d, wallMs: _w, ...m }) => m),
    exit: exitCodeOf(r),
  };
}

describe('packet merge-reports', () => {
  it('joins three shards into the report of the unsharded run, whatever order they come in', () => {
    const { whole, shards } = runs(3);
    expect(shards.map((s) => s.report.packets.length).every((n) => n > 0)).toBe(true);
    const merged = mergeReports([shards[2]!, shards[0]!, shards[1]!]);
    if (!merged.ok) throw new Error(merged.problems.join('\n'));
    expect(verdicts(merged.report)).toEqual(verdicts(whole));
    expect(exitCodeOf(merged.report)).toBe(1);
    // The models keep the matrix order: by packet, then in the order the models were named.
    expect(merged.report.models!.slice(0, 2).map((m) => [m.packet, m.named])).toEqual([
      ['alpha', MODELS[0]],
      ['alpha', MODELS[1]],
    ]);
    expect(merged.report.date).toBe('2026-11-29T12:00:00.000Z');
    expect(merged.report.summary.durationMs).toBe(1002);
    expect(merged.report.merged!.shards.map((s) => [s.index, s.count, s.durationMs])).toEqual([
      [1, 3, 1000],
      [2, 3, 1001],
      [3, 3, 1002],
    ]);
    expect(merged.report.shard).toBeUndefined();
    expect(Object.keys(merged.report)).toEqual(['schemaVersion', 'date', 'kit', 'merged', 'sandbox', 'interpreter', 'jobs', 'packets', 'summary', 'live', 'models']);
  });

  it('keeps an empty shard and an inconclusive packet: exit 2 as the unsharded run', () => {
    const a = { ...report([packet('alpha'), packet('bravo', 'inconclusive')]), shard: { index: 1, count: 2 } };
    const b = { ...report([]), shard: { index: 2, count: 2 } };
    const merged = mergeReports([{ file: 'a.json', report: a }, { file: 'b.json', report: b }]);
    if (!merged.ok) throw new Error(merged.problems.join('\n'));
    expect(merged.report.summary).toMatchObject({ packets: 2, failsClosed: 1, inconclusive: 1 });
    expect(exitCodeOf(merged.report)).toBe(2);
  });

  it('refuses reports of different kits, naming the files', () => {
    const { shards } = runs(2);
    shards[1]!.report = { ...shards[1]!.report, kit: { version: '0.2.0', fingerprint: 'b'.repeat(64) } };
    expect(mergeReports(shards)).toEqual({
      ok: false,
      problems: ['the reports come from different kit versions (shard-1.json: packet-kit 0.1.0, code aaaaaaaaaaaa; shard-2.json: packet-kit 0.2.0, code bbbbbbbbbbbb); merge reports of one run only'],
    });
    // The same version with other code is another kit too.
    shards[1]!.report = { ...shards[1]!.report, kit: { version: '0.1.0', fingerprint: 'c'.repeat(64) } };
    expect(mergeReports(shards)).toMatchObject({ ok: false, problems: [expect.stringMatching(/packet-kit 0\.1\.0, code cccccccccccc/)] });
  });

  it('refuses one packet rehearsed with two digests, and a packet given twice', () => {
    const a = { ...report([packet('alpha'), packet('bravo')]), shard: { index: 1, count: 2 } };
    const b = { ...report([packet('bravo', 'fails-closed', 'f'.repeat(64))]), shard: { index: 2, count: 2 } };
    expect(mergeReports([{ file: 'a.json', report: a }, { file: 'b.json', report: b }])).toEqual({
      ok: false,
      problems: ['packet "bravo" was rehearsed with digest ffffffffffff in b.json and bravo-digest in a.json: two different contents; rehearse every shard from one checkout'],
    });
    const c = { ...report([packet('bravo')]), shard: { index: 2, count: 2 } };
    expect(mergeReports([{ file: 'a.json', report: a }, { file: 'c.json', report: c }])).toEqual({ ok: false, problems: ['packet "bravo" is in both a.json and c.json; each packet belongs to one shard'] });
  });

  it('refuses a missing shard, a shard given twice, other shard counts, and shards mixed with a whole run', () => {
    const { shards } = runs(3);
    expect(mergeReports([shards[0]!, shards[2]!])).toEqual({ ok: false, problems: ['shard 2/3 is missing: a merged report must hold every packet an unsharded run would'] });
    expect(mergeReports([shards[0]!, shards[1]!, shards[2]!, { ...shards[1]!, file: 'again.json' }]).ok).toBe(false);
    expect(mergeReports([shards[0]!, shards[1]!, shards[2]!, { ...shards[1]!, file: 'again.json' }])).toMatchObject({ problems: expect.arrayContaining(['shard 2/3 is given twice (shard-2.json, again.json)']) });
    const other = { file: 'other.json', report: { ...report([]), live: { endpoint: '127.0.0.1:4000', models: MODELS }, shard: { index: 1, count: 2 } } };
    expect(mergeReports([shards[0]!, shards[1]!, shards[2]!, other])).toMatchObject({ ok: false, problems: expect.arrayContaining([expect.stringMatching(/^the shards split the packets differently/)]) });
    const whole = { file: 'whole.json', report: report([packet('zulu')], { live: MODELS }) };
    expect(mergeReports([...shards, whole])).toMatchObject({ ok: false, problems: expect.arrayContaining(['whole.json is not a shard report while shard-1.json, shard-2.json, shard-3.json are; merge the shards of one run']) });
  });

  it('refuses shards that ran other models', () => {
    const { shards } = runs(2);
    shards[1]!.report = { ...shards[1]!.report, live: { endpoint: '127.0.0.1:4000', models: [MODELS[0]!] } };
    expect(mergeReports(shards)).toMatchObject({ ok: false, problems: [expect.stringMatching(/^the reports come from different live models/)] });
  });
});
