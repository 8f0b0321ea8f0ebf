import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import type { RehearsalReport } from '../../src/rehearse/report.ts';
import { tempPackets, type TempPackets } from '../support/packet-fixtures.ts';

/** `packet rehearse --junit FILE`: the JUnit reporter writes the run's report as JUnit XML beside the JSON one. */
let t: TempPackets;
let code: number;
let stdout: string;
let report: RehearsalReport;
let xml: string;

function env(): Record<string, string | undefined> {
  const { LLM_ENDPOINT: _a, OPENAI_BASE_URL: _b, LLM_MODEL: _c, ...rest } = process.env;
  return rest;
}

beforeAll(async () => {
  t = await tempPackets();
  await t.add('alpha');
  // A defect: the starter is already the sample, so the floor is green.
  await t.write('alpha', 'starter/src/duration.py', await t.read('alpha', 'sample/src/duration.py'));
  const io = memoryIo(t.root, { env: env() });
  code = await runCli(['rehearse', '--no-cache', '--report', 'out/report.json', '--junit', 'out/ci/junit.xml'], io);
  stdout = io.stdout;
  report = JSON.parse(await readFile(path.join(t.root, 'out/report.json'), 'utf8')) as RehearsalReport;
  xml = await readFile(path.join(t.root, 'out/ci/junit.xml'), 'utf8');
}, 180_000);

afterAll(() => t?.dispose());

describe('packet rehearse --junit', () => {
  it('writes the report as JUnit XML when the run ends: a test case per check, the defect a failure', async () => {
    expect(code).toBe(1);
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as {
      testsuites: { testsuite: { name: string; tests: string; failures: string; testcase: { classname: string; name: string; failure?: { type: string } }[] } };
    };
    const suite = doc.testsuites.testsuite;
    const checks = report.packets[0]!.checks;
    expect(suite.name).toBe('alpha');
    expect(suite.testcase.map((c) => c.name)).toEqual(checks.map((c) => c.id));
    expect(Number(suite.tests)).toBe(checks.length);
    expect(Number(suite.failures)).toBe(checks.filter((c) => !c.ok && !c.inconclusive).length);
    expect(suite.testcase.filter((c) => c.failure).map((c) => c.failure!.type)).toContain('PK440');
    expect(stdout).toContain('junit: out/ci/junit.xml\n');
    // Written atomically: no temporary file is left beside it.
    await expect(stat(path.join(t.root, `out/ci/junit.xml.${process.pid}.tmp`))).rejects.toThrow();
  });
});
