import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { packetHistories } from '../../../src/report/history.ts';
import { copyReceipts, safeReceiptPath } from '../../../src/report/receipts.ts';
import { reportView } from '../../../src/report/view.ts';
import { junitXml, xmlText } from '../../../src/rehearse/junit.ts';
import { exitCodeOf } from '../../../src/rehearse/report.ts';
import { modelRun, packet, report } from '../../support/report-fixtures.ts';

const M = ['scripted:{packet}/sample', 'other-model'];
const current = report([packet('alpha'), packet('bravo', 'defect'), packet('charlie', 'inconclusive')], {
  live: M,
  models: [modelRun('alpha', M[0]!, 'PASS'), modelRun('alpha', M[1]!, 'CAUGHT'), modelRun('bravo', M[0]!, 'INCONCLUSIVE'), modelRun('charlie', M[1]!, 'FALSE-GREEN')],
});

describe('JUnit XML', () => {
  const xml = junitXml(current);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as {
    testsuites: { tests: string; failures: string; errors: string; testsuite: { name: string; failures: string; errors: string; testcase: { name: string; failure?: { type: string }; error?: { type: string } }[] }[] };
  };

  it('is well-formed XML', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
  });

  it('fails exactly what makes the exit code non-zero: defects are failures, inconclusive checks and runs are errors', () => {
    expect(exitCodeOf(current)).toBe(2);
    expect(doc.testsuites).toMatchObject({ tests: '13', failures: '1', errors: '2' });
    const suite = (name: string) => doc.testsuites.testsuite.find((s) => s.name === name)!;
    expect(suite('alpha')).toMatchObject({ failures: '0', errors: '0' });
    expect(suite('bravo').testcase.find((c) => c.name === 'mutant:drops-minutes')!.failure!.type).toBe('PK446');
    expect(suite('bravo').testcase.find((c) => c.name === 'model scripted:bravo/sample')!.error).toBeDefined();
    expect(suite('charlie').testcase.find((c) => c.name === 'mutant:drops-minutes')!.error!.type).toBe('PK455');
    // FALSE-GREEN is a finding about the packet, not a failure of the rehearsal (as exitCodeOf has it).
    expect(suite('charlie').testcase.find((c) => c.name === 'model other-model')!.failure).toBeUndefined();
  });

  it('escapes text and shows what XML cannot hold as escapes', () => {
    expect(xmlText('a<b & "c" \u0007\u001b[31m\r\n\ud800')).toBe('a&lt;b &amp; &quot;c&quot; \\u0007\\u001b[31m\\r\n\\ud800');
  });
});

describe('the report view', () => {
  it('holds the packet x check cells, the packet x model matrix and every finding with its hint', () => {
    const view = reportView(current, [], (r) => [{ label: 'usage.jsonl', path: r.usage!, href: `receipts/${r.usage}` }]);
    expect(view.kinds).toEqual(['floor', 'sample', 'mutant']);
    expect(view.models).toEqual(M);
    expect(view.packets.find((p) => p.id === 'bravo')!.kinds.mutant).toEqual({ total: 1, ok: 0, defects: 1, inconclusive: 0, durationMs: 120, codes: ['PK446'] });
    expect(view.packets.map((p) => p.models.map((c) => c?.verdict ?? null))).toEqual([
      ['PASS', 'CAUGHT'],
      ['INCONCLUSIVE', null],
      [null, 'FALSE-GREEN'],
    ]);
    const f = view.findings.find((x) => x.where === 'model other-model')!;
    expect(f).toMatchObject({ packet: 'alpha', code: 'PK415', hint: 'Make it pass.', receipts: [{ href: 'receipts/out/rehearsals/x/alpha/usage.jsonl' }] });
    expect(view.findings.find((x) => x.where === 'check mutant:drops-minutes' && x.packet === 'bravo')).toMatchObject({ place: 'tests/test_duration.py:12', anchor: 'check--bravo--mutant-drops-minutes' });
    expect(view.summary).toMatchObject({ exitCode: 2, modelRuns: 4, verdicts: { PASS: 1, CAUGHT: 1, INCONCLUSIVE: 1, 'FALSE-GREEN': 1 } });
  });

  it('names an endpoint that failed for good as a finding, with the class\'s hint', () => {
    const down = { ...modelRun('alpha', M[0]!, 'INCONCLUSIVE'), failure: { error: 'rate-limit' as const, status: 429, message: 'slow down', hint: 'Wait, or lower --endpoint-jobs.' } };
    const view = reportView(report([packet('alpha')], { live: [M[0]!], models: [down] }), [], () => []);
    expect(view.findings).toEqual([expect.objectContaining({ code: 'PK608', name: 'EndpointFailed', message: 'the endpoint failed a call for good: rate-limit, HTTP 429: slow down', hint: 'Wait, or lower --endpoint-jobs.' })]);
  });

  it('draws a history per packet over the reports, in date order, each date once', () => {
    const older = report([packet('alpha', 'defect')], { date: '2026-11-01T08:00:00.000Z', live: [M[0]!], models: [modelRun('alpha', M[0]!, 'CAUGHT', { tokens: 900 })] });
    const legacy = { ...report([packet('alpha')], { date: '2026-10-01T08:00:00.000Z' }), schemaVersion: 2 as const, kit: undefined };
    const h = packetHistories([current, older, legacy, older], ['alpha', 'charlie']);
    expect(h[0]!.points.map((p) => [p.label, p.status, Object.entries(p.runs).map(([m, r]) => `${m} ${r.verdict} ${r.tokens}`)])).toEqual([
      ['10-01 08:00', 'fails-closed', []],
      ['11-01 08:00', 'defect', [`${M[0]} CAUGHT 900`]],
      ['11-29 12:00', 'fails-closed', [`${M[0]} PASS 1200`, `${M[1]} CAUGHT 1200`]],
    ]);
    expect(h[1]!.points).toHaveLength(1);
    const view = reportView(current, [older, legacy], () => []);
    expect(view.history.reports).toBe(3);
    const svg = view.history.packets[0]!.svg;
    expect(svg).toMatch(/^<svg role="img" aria-label="History of alpha over 3 reports: verdict, tokens and wall time of scripted:\{packet\}\/sample, other-model\. Latest: scripted:\{packet\}\/sample PASS; other-model CAUGHT\." /);
    expect(svg).toMatch(/<title>History of alpha/);
  });

  it('keeps names from a report as text in the chart: a report is data from elsewhere', () => {
    const name = '<script>alert(1)</script>';
    const hostile = report([packet('alpha')], { live: [name], models: [modelRun('alpha', name, 'PASS')] });
    const svg = reportView(hostile, [], () => []).history.packets[0]!.svg;
    expect(svg).not.toMatch(/<script/);
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('receipts beside the report', () => {
  it('follows no link on the way to a receipt', async () => {
    const base = await mkdtemp(path.join(tmpdir(), 'receipts-'));
    try {
      await mkdir(path.join(base, 'run/alpha'), { recursive: true });
      await writeFile(path.join(base, 'run/alpha/usage.jsonl'), '{}\n');
      await mkdir(path.join(base, 'elsewhere'));
      await writeFile(path.join(base, 'elsewhere/secret.txt'), 'not a receipt\n');
      await symlink(path.join(base, 'elsewhere'), path.join(base, 'run/link'));
      const out = path.join(base, 'report');
      const { copied, missing } = await copyReceipts(['run/alpha/usage.jsonl', 'run/link/secret.txt'], { baseDir: path.join(base, 'run', '..'), outDir: out });
      expect({ copied, missing }).toEqual({ copied: 1, missing: ['run/link/secret.txt'] });
      expect(await readFile(path.join(out, 'receipts/run/alpha/usage.jsonl'), 'utf8')).toBe('{}\n');
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  it('copies only plain relative paths, never out of the working directory', async () => {
    expect(['out/a/usage.jsonl', 'a.json'].map(safeReceiptPath)).toEqual([true, true]);
    expect(['../etc/passwd', '/etc/passwd', 'a/../../b', 'a//b', './a', 'a\\b', ''].map(safeReceiptPath).every((x) => !x)).toBe(true);
    const { linker, copied, missing } = await copyReceipts(['../../etc/passwd', 'nowhere/usage.jsonl'], { baseDir: '/tmp', outDir: '/tmp/never-written' });
    expect({ copied, missing }).toEqual({ copied: 0, missing: ['../../etc/passwd', 'nowhere/usage.jsonl'] });
    expect(linker({ usage: 'nowhere/usage.jsonl', ledger: null, giveUp: null })).toEqual([{ label: 'usage.jsonl', path: 'nowhere/usage.jsonl', href: null }]);
  });
});
