import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { exitCodeOf, type RehearsalReport } from '../../src/rehearse/report.ts';
import { shardOf } from '../../src/rehearse/shard.ts';
import { report as handMadeReport, packet as handMadePacket } from '../support/report-fixtures.ts';
import { tempPackets, type TempPackets } from '../support/packet-fixtures.ts';
import { expand, readWorkflow, runStep } from '../support/workflow.ts';

/**
 * The workflow's own commands, run here: each shard of the matrix as a separate process (the
 * exact script of the shard job's rehearse step, its expressions filled in as GitHub would),
 * then the merge job's merge and report steps; the merged report must equal an unsharded run's
 * in everything but timings and dates.
 */
const KIT = path.resolve(import.meta.dirname, '../..');
let t: TempPackets;
let shardRuns: { shard: number; code: number | null; stdout: string; stderr: string }[];
let whole: RehearsalReport;
let wholeExit: number;
let merged: RehearsalReport;
let mergeCode: number | null;
let reportCode: number | null;
let reportOut: string;

function env(): Record<string, string | undefined> {
  const { LLM_ENDPOINT: _a, OPENAI_BASE_URL: _b, LLM_MODEL: _c, ...rest } = process.env;
  return rest;
}

/** Run a step's script with bash in the fixture project, `npx packet` being this kit's CLI on the pinned Node. */
function runScript(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: t.root,
      env: { ...env(), PATH: `${path.join(t.root, '.shim')}:${process.env.PATH}`, PACKET_NODE: process.execPath, PACKET_KIT: KIT },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** What must be equal between the merged and the unsharded report: all but timings, dates and the cache. */
function verdicts(r: RehearsalReport) {
  return {
    schemaVersion: r.schemaVersion,
    kit: r.kit,
    sandbox: r.sandbox,
    interpreter: r.interpreter,
    packets: r.packets.map((p) => ({
      id: p.id,
      version: p.version,
      digest: p.digest,
      status: p.status,
      defects: p.defects,
      checks: p.checks.map((c) => ({ id: c.id, kind: c.kind, ok: c.ok, inconclusive: c.inconclusive, code: c.code, defect: c.defect, findings: c.findings?.map((f) => [f.code, f.file, f.line]), tests: c.tests, verdict: c.model?.verdict })),
    })),
    counts: { packets: r.summary.packets, failsClosed: r.summary.failsClosed, defects: r.summary.defects, inconclusive: r.summary.inconclusive },
    exit: exitCodeOf(r),
  };
}

const IDS = ['alpha', 'charlie', 'echo'];
/** The packet with a defect. */
const BAD = 'alpha';

beforeAll(async () => {
  t = await tempPackets();
  for (const id of IDS) await t.add(id);
  // One packet with a defect: its starter is already the sample, so the floor is green.
  await t.write(BAD, 'starter/src/duration.py', await t.read(BAD, 'sample/src/duration.py'));
  // `npx packet` as the runner would have it after `npm ci`: this kit's bin.
  await mkdir(path.join(t.root, '.shim'));
  await writeFile(path.join(t.root, '.shim', 'npx'), '#!/bin/sh\n[ "$1" = packet ] || { echo "unexpected: npx $*" >&2; exit 127; }\nshift\nexec "$PACKET_NODE" "$PACKET_KIT/src/cli/bin.js" "$@"\n');
  await chmod(path.join(t.root, '.shim', 'npx'), 0o755);

  const { workflow } = readWorkflow();
  const shardJob = workflow.jobs.shard!;
  const shards = shardJob.strategy!.matrix.shard as number[];
  const rehearseStep = runStep(shardJob, 'npx packet rehearse').run;
  // The shards side by side, as the matrix runs them, each a process of its own.
  shardRuns = await Promise.all(
    shards.map(async (shard) => ({ shard, ...(await runScript(expand(rehearseStep, { 'matrix.shard': shard, 'strategy.job-total': shards.length }))) })),
  );
  // The unsharded run of the same packets, without the cache the shards filled.
  const io = memoryIo(t.root, { env: env() });
  wholeExit = await runCli(['rehearse', '--no-cache', '--report', 'whole.json'], io);
  whole = JSON.parse(await readFile(path.join(t.root, 'whole.json'), 'utf8'));

  // The merge job: merge, then the HTML report over a history holding one older run.
  const mergeJob = workflow.jobs.merge!;
  const m = await runScript(runStep(mergeJob, 'npx packet merge-reports').run);
  mergeCode = m.code;
  merged = JSON.parse(await readFile(path.join(t.root, 'out/rehearsal/report.json'), 'utf8'));
  await mkdir(path.join(t.root, 'out/history'), { recursive: true });
  const older = handMadeReport(
    IDS.map((id) => ({ ...handMadePacket(id, id === 'charlie' ? 'defect' : 'fails-closed'), digest: whole.packets.find((p) => p.id === id)!.digest })),
    { date: '2026-11-01T09:00:00.000Z', kit: whole.kit },
  );
  await writeFile(path.join(t.root, 'out/history/older.json'), JSON.stringify(older));
  await writeFile(path.join(t.root, 'out/history/notes.json'), '{"not": "a report"}');
  const r = await runScript(runStep(mergeJob, 'npx packet report').run);
  reportCode = r.code;
  reportOut = r.stdout + r.stderr;
}, 300_000);

afterAll(() => t?.dispose());

describe('the workflow\'s shard commands, run as separate processes', () => {
  it('puts each packet in exactly one shard, every shard with work', () => {
    for (const run of shardRuns) expect(run.stderr, `shard ${run.shard}`).not.toMatch(/Error|unexpected/);
    const perShard = shardRuns.map((r) => IDS.filter((id) => shardOf(id, 3) === r.shard));
    expect(perShard.every((ids) => ids.length > 0)).toBe(true);
    for (const r of shardRuns) expect(r.stdout).toContain(`shard ${r.shard}/3: ${IDS.filter((id) => shardOf(id, 3) === r.shard).length} of ${IDS.length} packets`);
    // A shard's exit code is its own packets': only the shard holding the defect fails.
    expect(shardRuns.map((r) => r.code)).toEqual(shardRuns.map((r) => (shardOf(BAD, 3) === r.shard ? 1 : 0)));
  });

  it('merges to exactly the unsharded verdicts, defects, counts and exit code', () => {
    expect(wholeExit).toBe(1);
    expect(mergeCode).toBe(1);
    expect(whole.packets.find((p) => p.id === BAD)!.status).toBe('defect');
    expect(verdicts(merged)).toEqual(verdicts(whole));
    expect(merged.merged!.shards.map((s) => [s.index, s.count, s.packets])).toEqual([1, 2, 3].map((i) => [i, 3, IDS.filter((id) => shardOf(id, 3) === i).length]));
  });

  it('reuses the cache in a shard run again', async () => {
    const io = memoryIo(t.root, { env: env() });
    const shard = shardOf('charlie', 3);
    expect(await runCli(['rehearse', '--shard', `${shard}/3`, '--report', 'again.json'], io)).toBe(shardOf(BAD, 3) === shard ? 1 : 0);
    const again = JSON.parse(await readFile(path.join(t.root, 'again.json'), 'utf8')) as RehearsalReport;
    expect(again.summary.cached).toBe(again.packets.length);
    expect(again.shard).toEqual({ index: shard, count: 3 });
  });

  it('writes the HTML report with a history chart per packet, JUnit XML, and notes what is not a report', async () => {
    expect(reportCode, reportOut).toBe(0);
    expect(reportOut).toMatch(/history of 2 reports/);
    expect(reportOut).toMatch(/note: 1 file under out\/history is not a rehearsal report/);
    const html = await readFile(path.join(t.root, 'out/report/index.html'), 'utf8');
    for (const id of IDS) expect(html).toContain(`id="history-${id}"`);
    expect(html.match(/<svg /g)!.length).toBe(IDS.length);
    // Readable from file:// without JavaScript: no script, no absolute link, styles inline.
    expect(html).not.toMatch(/<script/);
    expect(html).not.toMatch(/(href|src)="\//);
    expect(html).toMatch(/<style>/);
    // The scripted replies' receipts are copied beside it and linked.
    expect(html).toMatch(/href="receipts\/out\/rehearsals\/[^"]+\/echo\/replies\/sample\/usage\.jsonl"/);
    const junit = await readFile(path.join(t.root, 'out/report/junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuite name="alpha" tests="12" failures="1" errors="0"/);
    expect(junit).toMatch(/<failure type="PK440"/);
    expect(JSON.parse(await readFile(path.join(t.root, 'out/report/report.json'), 'utf8'))).toEqual(merged);
  });
});
