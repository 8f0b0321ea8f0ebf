import { describe, expect, it } from 'vitest';
import { junitXml } from '../../../src/rehearse/junit.ts';
import { reportText } from '../../../src/rehearse/report-file.ts';
import { terminalReporter } from '../../../src/rehearse/terminal-reporter.ts';
import type { ModelRunReport } from '../../../src/rehearse/report.ts';
import { check, modelRun, packet, report } from '../../support/report-fixtures.ts';

/**
 * A rehearsal whose texts come from outside the kit and are written to pass for its own: a
 * model's reply quoted in a run's reason and notes, a server's error message, the model name a
 * server says answered, a check's output. The terminal, the JSON report and the JUnit XML show
 * them escaped: no raw control character, no line of their own, nothing XML 1.0 cannot hold.
 */
const HOSTILE = '\u001b[2J\u001b[32mPASS\u0007\rPASS alpha 1.0.0\n\u202eCAUGHT\u0000\u009b';
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/u;

function hostileReport() {
  const run: ModelRunReport = {
    ...modelRun('alpha', 'model-a', 'INCONCLUSIVE'),
    reason: `the reply said ${HOSTILE}`,
    failure: { error: 'server-error', status: 500, message: `boom ${HOSTILE}`, hint: `retry ${HOSTILE}` },
    servedModels: [`other${HOSTILE}`],
    notes: [`ignored text ${HOSTILE}`],
  } as ModelRunReport;
  const p = packet('alpha', 'defect');
  const defect = { ...check('mutant:drops-minutes', { code: 'PK446' }), actual: `printed ${HOSTILE}`, defect: `PK446 ${HOSTILE}`, hint: `look ${HOSTILE}`, outputTail: `tail ${HOSTILE}` };
  const hostilePacket = { ...p, checks: [p.checks[0]!, p.checks[1]!, defect], defects: [defect.defect] };
  return report([hostilePacket], { models: [run], live: ['model-a'] });
}

describe('a rehearsal carrying hostile text', () => {
  it('prints it on the terminal escaped, each line the kit\'s own', () => {
    const out: string[] = [];
    const reporter = terminalReporter({ out: (t) => void out.push(t), err: (t) => void out.push(t), tty: false, color: false, cwd: '/', list: (l) => `${l.length} diagnostics\n` });
    const r = hostileReport();
    reporter.onCheckEnd!('alpha', r.packets[0]!.checks[2]!);
    reporter.onPacketEnd!(r.packets[0]!);
    reporter.onModelRunEnd!(r.models![0]!);
    reporter.onRunEnd!(r);
    const text = out.join('');
    expect(text).not.toMatch(RAW);
    expect(text).toContain('\\u001b[2J\\u001b[32mPASS\\u0007\\rPASS alpha 1.0.0\\n\\u202eCAUGHT\\u0000\\u009b');
    expect(text.split('\n').filter((l) => /^PASS alpha/.test(l) || /^\s*\u202e?CAUGHT/.test(l))).toEqual([]);
  });

  it('writes the JSON report with every character escaped, the same value read back', () => {
    const r = hostileReport();
    const text = reportText(r);
    expect(text).not.toMatch(RAW);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(r)));
  });

  it('writes JUnit XML a parser accepts: no control character at all, the hostile text shown as escapes', () => {
    const xml = junitXml(hostileReport());
    expect(xml).not.toMatch(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u);
    expect(xml).not.toMatch(RAW);
    expect(xml).toContain('\\u001b[2J\\u001b[32mPASS\\u0007\\rPASS alpha 1.0.0');
  });
});
