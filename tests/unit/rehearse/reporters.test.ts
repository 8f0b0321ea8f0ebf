import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { junitReportFile, junitXml } from '../../../src/rehearse/junit.ts';
import { jsonReportFile, reportText } from '../../../src/rehearse/report-file.ts';
import { terminalReporter } from '../../../src/rehearse/terminal-reporter.ts';
import { createSecrets } from '../../../src/runs/secrets.ts';
import { modelRun, packet, report } from '../../support/report-fixtures.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'packet-rehearse-reporters-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function terminal() {
  const out: string[] = [];
  const err: string[] = [];
  const secrets = createSecrets();
  const reporter = terminalReporter({ out: (t) => void out.push(secrets.redact(t)), err: (t) => void err.push(secrets.redact(t)), tty: false, color: false, cwd: dir, list: (l) => `${l.length} diagnostics\n` });
  return { out, err, reporter, secrets };
}

describe('jsonReportFile', () => {
  it('writes the final report whole, through the redaction, with nothing left beside it', async () => {
    const file = path.join(dir, 'out/report.json');
    const r = report([packet('alpha')], { models: [modelRun('alpha', 'sk-secret-model', 'PASS')], live: ['sk-secret-model'] });
    await jsonReportFile(file, (t) => t.replaceAll('sk-secret-model', '[redacted]')).onReport!(r);
    const text = await readFile(file, 'utf8');
    expect(text).toBe(reportText(r).replaceAll('sk-secret-model', '[redacted]'));
    expect(text).not.toContain('sk-secret-model');
    expect(await readdir(path.dirname(file))).toEqual(['report.json']);
  });
});

describe('junitReportFile', () => {
  it('writes the final report as JUnit XML, through the redaction, with nothing left beside it', async () => {
    const file = path.join(dir, 'ci/junit.xml');
    const r = report([packet('alpha'), packet('bravo', 'defect')], { models: [modelRun('alpha', 'sk-secret-model', 'PASS')], live: ['sk-secret-model'] });
    await junitReportFile(file, (t) => t.replaceAll('sk-secret-model', '[redacted]')).onReport!(r);
    const text = await readFile(file, 'utf8');
    expect(text).toBe(junitXml(r).replaceAll('sk-secret-model', '[redacted]'));
    expect(text).toMatch(/<testsuite name="bravo"[^>]* failures="1"/);
    expect(text).not.toContain('sk-secret-model');
    expect(await readdir(path.dirname(file))).toEqual(['junit.xml']);
  });
});

describe('terminalReporter: the live runs', () => {
  it('prints the start, each wait (naming the model when there are several), each pause, and where the report is', () => {
    const t = terminal();
    t.reporter.onModelsStart!({ models: ['a', 'b'], host: '127.0.0.1:9', scripted: true, endpointJobs: 2 });
    t.reporter.onWait!('alpha', { ms: 1500, source: 'backoff', from: null } as never, 1, 'b');
    t.reporter.onPause!({ ms: 2000, from: 'retry-after: 2' } as never, '127.0.0.1:9');
    t.reporter.onReportWritten!(path.join(dir, 'out/report.json'));
    t.reporter.onReportWritten!(path.join(dir, 'out/junit.xml'), 'junit');
    expect(t.out.join('')).toBe(
      '\nmodels a, b at 127.0.0.1:9 (the embedded scripted endpoint), 2 calls at a time\n' +
        '  alpha with b: retry 1 in 1.5 s (backoff)\n' +
        '  endpoint 127.0.0.1:9: every run waits 2.0 s (a rate limit: retry-after: 2)\n' +
        'report: out/report.json\n' +
        'junit: out/junit.xml\n',
    );
  });

  it('sums the verdicts at the end and names each inconclusive run and substituted model as a diagnostic', () => {
    const t = terminal();
    const inconclusive = { ...modelRun('alpha', 'm', 'INCONCLUSIVE'), reason: 'the endpoint gave no usable answer' };
    const served = { ...modelRun('beta', 'm', 'PASS'), servedModels: ['other-model'] };
    t.reporter.onModelsEnd!([inconclusive, served]);
    expect(t.out.join('')).toBe('models: 2 runs: 1 INCONCLUSIVE, 1 PASS\n');
    const err = t.err.join('');
    expect(err).toMatch(/^PK\d+ .*alpha.*\n  hint: /);
    expect(err).toMatch(/\nPK\d+ warning .*other-model/);
  });

  it('prints the shard, messages and diagnostics on their streams', () => {
    const t = terminal();
    t.reporter.onShard!({ index: 2, count: 3 }, 1, 3);
    t.reporter.onMessage!('note: hello\n');
    t.reporter.onPacketDiagnostics!([]);
    expect(t.out).toEqual(['shard 2/3: 1 of 3 packets\n']);
    expect(t.err).toEqual(['note: hello\n', '0 diagnostics\n']);
  });
});
