import type { CheckResult, ModelRunReport, ModelVerdict, PacketReport, PacketStatus, RehearsalReport } from '../../src/rehearse/report.ts';

/** Small, hand-made rehearsal reports for tests of merging and reporting (no sandbox involved). */

const KIT = { version: '0.1.0', fingerprint: 'a'.repeat(64) };

/** A check; `code` makes it a defect. */
export function check(id: string, o: { ok?: boolean; code?: string; durationMs?: number; inconclusive?: boolean } = {}): CheckResult {
  const ok = o.ok ?? !o.code;
  return {
    id,
    kind: id.split(':')[0] as CheckResult['kind'],
    ...(id.includes(':') ? { mode: id.split(':')[1]! } : {}),
    expected: 'what it must be',
    actual: ok ? 'as expected' : 'not as expected',
    ok,
    ...(o.inconclusive ? { inconclusive: true } : {}),
    ...(o.code ? { code: o.code, defect: `${o.code} the defect in words` } : {}),
    ...(o.code
      ? { findings: [{ code: 'PK415', name: 'TestsFailed', kind: 'tests' as const, severity: 'error' as const, message: '1 visible test failed: test_minutes', hint: 'Make the failing test pass.', file: 'tests/test_duration.py', line: 12 }] }
      : {}),
    durationMs: o.durationMs ?? 120,
  };
}

/** A packet report with a floor, a sample and one mutant; `status` plants a defect or an inconclusive check. */
export function packet(id: string, status: PacketStatus = 'fails-closed', digest = `${id}-digest`.padEnd(64, '0')): PacketReport {
  const checks = [check('floor'), check('sample'), status === 'defect' ? check('mutant:drops-minutes', { code: 'PK446' }) : status === 'inconclusive' ? check('mutant:drops-minutes', { ok: false, inconclusive: true, code: 'PK455' }) : check('mutant:drops-minutes')];
  return { id, version: '1.0.0', digest, status, checks, defects: checks.filter((c) => !c.ok).map((c) => c.defect!), cached: false, durationMs: 400 };
}

/** A failing test's finding, as the judge reports it on a check's workspace. */
export function testFinding(code: string, message: string): NonNullable<CheckResult['findings']>[number] {
  return { code, name: code === 'PK416' ? 'HiddenTestsFailed' : 'TestsFailed', kind: 'tests', severity: 'error', message, hint: 'Make the failing test pass.' };
}

/**
 * A lab's report: its own checks (`lab:<rule>`), the wrong choices caught with their findings;
 * `wrongGreen` plants a wrong choice that passes (a PK472 defect).
 */
export function labPacket(id: string, o: { wrongGreen?: boolean } = {}): PacketReport {
  const labCheck = (rule: string, c: Partial<CheckResult> = {}): CheckResult => ({ id: `lab:${rule}`, kind: 'lab', expected: 'as it must be', actual: 'as expected', ok: true, durationMs: 50, ...c });
  const checks = [
    labCheck('key'),
    labCheck('reject:bucket', { findings: [testFinding('PK415', '1 visible test failed: test_bucket')] }),
    o.wrongGreen
      ? labCheck('wrong:bucket:accept', { ok: false, actual: 'green', code: 'PK472', defect: 'PK472 accepting bucket as offered passes every test', findings: [testFinding('PK416', '1 held-out test failed: test_bucket_edges')] })
      : labCheck('wrong:bucket:accept', { findings: [testFinding('PK416', '1 held-out test failed: test_bucket_edges')] }),
    labCheck('all-offered', { findings: [testFinding('PK415', '2 visible tests failed')] }),
    labCheck('plausible'),
    labCheck('calibration'),
    labCheck('table'),
  ];
  const status: PacketStatus = o.wrongGreen ? 'defect' : 'fails-closed';
  return { id, version: '2.0.0', digest: `${id}-digest`.padEnd(64, '0'), status, checks, defects: checks.filter((c) => !c.ok).map((c) => c.defect!), cached: false, durationMs: 700 };
}

/** A live model run. */
export function modelRun(packetId: string, named: string, verdict: ModelVerdict, o: { tokens?: number; wallMs?: number; calls?: number } = {}): ModelRunReport {
  const tokens = o.tokens ?? 1200;
  return {
    date: '2026-11-29T12:00:00.000Z',
    packet: packetId,
    version: '1.0.0',
    digest: `${packetId}-digest`.padEnd(64, '0'),
    model: named.replaceAll('{packet}', packetId),
    named,
    endpoint: '127.0.0.1:4000',
    verdict,
    reason: `${verdict} in words`,
    possibleLeak: false,
    caughtBy: verdict === 'CAUGHT' ? ['visible-tests'] : [],
    findings: verdict === 'CAUGHT' ? [{ code: 'PK415', name: 'TestsFailed', kind: 'tests', severity: 'error', message: '1 visible test failed', hint: 'Make it pass.' }] : [],
    signals: [],
    calls: o.calls ?? 2,
    turns: 1,
    tokens: { prompt: tokens - 200, completion: 200, total: tokens, unknownCalls: 0 },
    bytes: { out: 5000, in: 900 },
    wallMs: o.wallMs ?? 3000,
    errors: {},
    stop: null,
    budget: { modelCalls: 12, tokens: 40000, wallSeconds: 600, identicalErrors: 3 },
    receipts: { usage: `out/rehearsals/x/${packetId}/usage.jsonl`, ledger: `out/rehearsals/x/${packetId}/ledger.json`, giveUp: null },
  };
}

/** A whole report over `packets`, with model runs when given. */
export function report(packets: PacketReport[], o: { date?: string; models?: ModelRunReport[]; live?: string[]; durationMs?: number; kit?: typeof KIT } = {}): RehearsalReport {
  const sorted = [...packets].sort((a, b) => a.id.localeCompare(b.id));
  const count = (s: PacketStatus) => sorted.filter((p) => p.status === s).length;
  return {
    schemaVersion: 3,
    date: o.date ?? '2026-11-29T12:00:00.000Z',
    kit: o.kit ?? KIT,
    sandbox: { kind: 'bubblewrap', notice: null },
    interpreter: { python: '3.12.0' },
    jobs: 2,
    packets: sorted,
    summary: { packets: sorted.length, failsClosed: count('fails-closed'), defects: count('defect'), inconclusive: count('inconclusive'), cached: 0, durationMs: o.durationMs ?? 5000 },
    ...(o.live ? { live: { endpoint: '127.0.0.1:4000', models: o.live } } : {}),
    ...(o.models ? { models: o.models } : {}),
  };
}
