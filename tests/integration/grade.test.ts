import { execFileSync } from 'node:child_process';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import type { GradeSummary } from '../../src/grade/grade.ts';
import type { Scorecard } from '../../src/judge/scorecard.ts';
import { codeDigest } from '../../src/judge/receipts.ts';
import { loadPackets } from '../../src/packets/load.ts';
import { createInterpreterResolver } from '../../src/sandbox/interpreters.ts';
import { tempPackets, type TempPackets } from '../support/packet-fixtures.ts';

/**
 * `packet grade` on a batch: a good zip, one from an older version, a hostile archive, a folder
 * that edits a protected test, and receipts that disagree with their ledger. The hostile one is
 * refused by name without stopping the batch; every scorecard lands in its own folder.
 */
let t: TempPackets;
let subs: string;
let exitCode: number;
let stdout: string;
let digest: string;

async function zipFolder(dir: string, root: string, file: string): Promise<void> {
  const zip = new yazl.ZipFile();
  const walk = async (rel: string) => {
    for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(r);
      else zip.addBuffer(await readFile(path.join(dir, r)), `${root}/${r}`);
    }
  };
  await walk('');
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  await writeFile(file, Buffer.concat(chunks));
}

/** The starter with the sample laid over it, as a candidate's folder. */
async function candidateFolder(name: string, readme: string): Promise<string> {
  const dir = path.join(subs, name);
  await cp(path.join(t.packets, 'scaffold', 'starter'), dir, { recursive: true });
  await cp(path.join(t.packets, 'scaffold', 'sample'), dir, { recursive: true });
  await writeFile(path.join(dir, 'README.md'), readme);
  return dir;
}

const card = async (name: string, packet = 'scaffold') => JSON.parse(await readFile(path.join(t.root, 'out/grades', packet, name, 'scorecard.json'), 'utf8')) as Scorecard;

beforeAll(async () => {
  t = await tempPackets();
  await t.add('scaffold');
  // A workspace row beside the tests row: it must fail for the submission that edits a protected test.
  const contractRow = ['  - id: contract', '    criterion: Only the files the ticket allows are changed.', '    max: 1', '    auto: workspace', '    levels:', '      0: A file outside the contract changed.', '      1: Only allowed files changed.'];
  await t.edit('scaffold', 'rubric.mdx', 'hireBar: 6', [...contractRow, 'hireBar: 6'].join('\n'));
  await t.add('receipted');
  await t.edit('receipted', 'prompt.mdx', 'allow: ["src/**", "NOTES.md"]', 'allow: ["src/**", "NOTES.md", "receipts/**"]');
  await t.edit('receipted', 'prompt.mdx', 'budget:', 'receipts: { dir: receipts }\nbudget:');
  const loaded = await loadPackets({ packetsDir: t.packets, cwd: t.root });
  digest = loaded.packets.find((p) => p.id === 'scaffold')!.digest;
  subs = path.join(t.root, 'submissions');
  await mkdir(subs);
  const readme = (version: string, d: string) => `# Fixture\n\n- Packet: \`scaffold\`, version \`${version}\`\n- Digest: \`${d}\`\n`;
  await zipFolder(await candidateFolder('good', readme('0.1.0', digest)), 'scaffold-0.1.0', path.join(subs, 'good.zip'));
  await zipFolder(await candidateFolder('old', readme('0.0.9', 'f'.repeat(64))), 'scaffold-0.0.9', path.join(subs, 'old.zip'));
  const protectedEdit = await candidateFolder('protected', readme('0.1.0', digest));
  await writeFile(path.join(protectedEdit, 'tests', 'test_duration.py'), 'import unittest\n');
  const resolver = createInterpreterResolver({ searchPath: process.env.PATH ?? '', env: process.env, tmpDir: tmpdir() });
  const python = await resolver.python();
  if ('error' in python) throw new Error(python.error);
  const hostile = path.join(subs, 'hostile');
  await mkdir(hostile);
  execFileSync(python.executable, [path.resolve(import.meta.dirname, '../fixtures/grade/make-archives.py'), hostile]);
  await cp(path.join(hostile, 'traversal.zip'), path.join(subs, 'eve.zip'));
  await rm(hostile, { recursive: true });
  await resolver.dispose();

  const io = memoryIo(t.root, { env: process.env });
  exitCode = await runCli(['grade', 'scaffold', 'submissions/good.zip', 'submissions/old.zip', 'submissions/eve.zip', 'submissions/protected', '--jobs', '2'], io);
  stdout = io.stdout;
}, 120_000);

afterAll(() => t.dispose());

describe('packet grade', () => {
  it('grades the batch and exits 1 because one submission could not be graded', () => {
    expect(exitCode).toBe(1);
    expect(stdout).toMatch(/grading 4 submissions/);
    expect(stdout).toMatch(/eve: REFUSED, tests not run, PK502/);
    expect(stdout).toMatch(/good: PASS, tests 6\/6 expected passed; auto 4, pending/);
    expect(stdout).toMatch(/summary: out\/grades\/scaffold\/summary\.csv/);
    // The next step, once, at the end: the rubric page and the summary to import as a queue.
    expect(stdout.trimEnd().split('\n').filter((l) => l.includes('/rubric/'))).toHaveLength(1);
    expect(stdout.trimEnd().split('\n').at(-1)).toMatch(/^next: .*open \/packets\/scaffold\/rubric\/ on the site .* import out\/grades\/scaffold\/summary\.json /);
  });

  it('writes one scorecard per submission in its own folder, and nothing else', async () => {
    expect((await readdir(path.join(t.root, 'out'))).sort()).toEqual(['grades']);
    expect((await readdir(path.join(t.root, 'out/grades/scaffold'))).sort()).toEqual(['eve', 'good', 'old', 'protected', 'summary.csv', 'summary.json']);
    for (const name of ['eve', 'good', 'old', 'protected']) expect((await readdir(path.join(t.root, 'out/grades/scaffold', name))).sort()).toEqual(['scorecard.json', 'scorecard.md']);
    expect((await readdir(t.root)).sort()).toEqual(['out', 'packets', 'submissions']);
  });

  it('passes a good submission, with its tests and the automatic rows scored from evidence', async () => {
    const c = await card('good');
    expect(c).toMatchObject({ schemaVersion: 1, graded: true, verdict: 'PASS', sandbox: 'bubblewrap', packet: { id: 'scaffold', version: '0.1.0', digest } });
    expect(c.submission).toMatchObject({ kind: 'zip', stripped: 'scaffold-0.1.0', stated: { version: '0.1.0', digest } });
    expect(c.submission.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(c.tests).toMatchObject({ ran: 6, failed: 0, expected: { visible: 3, hidden: 3 } });
    expect(c.findings).toEqual([]);
    const auto = c.rows.filter((r) => r.auto);
    expect(auto.length).toBeGreaterThan(0);
    for (const r of auto) expect(r.score).toBe(r.max);
    expect(c.rows.filter((r) => !r.auto).every((r) => r.score === null)).toBe(true);
  });

  it('grades an older version against the current packet, and says so', async () => {
    const c = await card('old');
    expect(c.verdict).toBe('PASS');
    expect(c.findings.map((f) => [f.code, f.severity])).toEqual([['PK511', 'warning']]);
    expect(c.findings[0]!.message).toContain('version 0.0.9');
  });

  it('names a protected test the candidate edited, and runs the packet\'s own', async () => {
    const c = await card('protected');
    expect(c.verdict).toBe('CAUGHT');
    expect(c.findings.map((f) => [f.code, f.file])).toEqual([['PK424', 'tests/test_duration.py']]);
    expect(c.tests!.ran).toBe(6);
  });

  it('fails the workspace row of a submission that edited a protected test, quoting the edit beside the row', async () => {
    const c = await card('protected');
    const row = c.rows.find((r) => r.id === 'contract')!;
    expect(row).toMatchObject({ auto: 'workspace', score: 0, findings: [0] });
    expect(row.evidence).toMatch(/^PK424 tests\/test_duration\.py is protected, and the submission changed it/);
    expect(c.rows.find((r) => r.id === 'correctness')).toMatchObject({ score: 3, findings: [] });
    const md = await readFile(path.join(t.root, 'out/grades/scaffold/protected/scorecard.md'), 'utf8');
    expect(md).not.toContain('only allowed files changed');
    expect(md).toContain('- **PK424** (row contract) tests/test\\_duration.py');
    expect(md.trimEnd().split('\n').at(-1)).toContain('open `/packets/scaffold/rubric/` on the site');
    expect((await card('good')).rows.find((r) => r.id === 'contract')).toMatchObject({ score: 1, evidence: 'only allowed files changed (none protected), no forbidden pattern, no runner hook' });
  });

  it('refuses the hostile archive with a scorecard that names why', async () => {
    const c = await card('eve');
    expect(c).toMatchObject({ graded: false, verdict: 'REFUSED', tests: null });
    expect(c.findings.map((f) => f.code)).toEqual(['PK502']);
    expect(await readFile(path.join(t.root, 'out/grades/scaffold/eve/scorecard.md'), 'utf8')).toContain('climbs out');
  });

  it('summarises the batch in CSV and JSON', async () => {
    const summary = JSON.parse(await readFile(path.join(t.root, 'out/grades/scaffold/summary.json'), 'utf8')) as GradeSummary;
    expect(summary.rows.map((r) => [r.name, r.graded, r.verdict, r.tests, r.codes])).toEqual([
      ['good', true, 'PASS', '6/6 expected passed', []],
      ['old', true, 'PASS', '6/6 expected passed', ['PK511']],
      ['eve', false, 'REFUSED', 'not run', ['PK502']],
      ['protected', true, 'CAUGHT', '6/6 expected passed', ['PK424']],
    ]);
    expect(summary.kind).toBe('packet-kit/grade-summary');
    for (const r of summary.rows) expect(r.scorecard).toEqual(await card(r.name));
    const csv = await readFile(path.join(t.root, 'out/grades/scaffold/summary.csv'), 'utf8');
    expect(csv.split('\n')[0]).toBe('name,sha256,graded,verdict,tests,errors,warnings,codes,auto_points,max_points,decision,scorecard');
    expect(csv.split('\n').filter(Boolean)).toHaveLength(5);
  });

  it('checks receipts when the prompt asks for them: a ledger that disagrees is a finding', async () => {
    const dir = await candidateFolder('receipts', '');
    await rm(path.join(dir, 'README.md'));
    const code = new Map<string, string>();
    for (const f of ['src/duration.py', 'src/__init__.py', 'NOTES.md']) code.set(f, await readFile(path.join(dir, f), 'utf8'));
    await mkdir(path.join(dir, 'receipts'));
    const line = (p: number, c: number) => JSON.stringify({ ts: '2026-11-30T10:00:00Z', model: 'm', prompt_tokens: p, completion_tokens: c, status: 200, error: null });
    await writeFile(path.join(dir, 'receipts', 'usage.jsonl'), `${line(1000, 200)}\n${line(1500, 300)}\n`);
    const ledger = { calls: 2, tokens: 1200, code_digest: codeDigest(code, { dir: 'receipts', allow: ['src/**', 'NOTES.md', 'receipts/**'] }) };
    await writeFile(path.join(dir, 'receipts', 'ledger.json'), JSON.stringify(ledger));
    const io = memoryIo(t.root, { env: process.env });
    expect(await runCli(['grade', 'receipted', 'submissions/receipts'], io)).toBe(0);
    const c = await card('receipts', 'receipted');
    expect(c.findings.map((f) => f.code)).toEqual(['PK522', 'PK512']);
    expect(c.findings[0]!.message).toContain('tokens 1200; the lines of usage.jsonl add up to 3000');
    expect(c.verdict).toBe('CAUGHT');
  });

  it('exits 2 for an unknown packet', async () => {
    const io = memoryIo(t.root, { env: process.env });
    expect(await runCli(['grade', 'nope', 'submissions/good.zip'], io)).toBe(2);
    expect(io.stderr).toMatch(/PK530 There is no packet "nope"/);
  });

  it('refuses a JSON file given for a take-home, by name', async () => {
    await writeFile(path.join(subs, 'answers.json'), '{}');
    const io = memoryIo(t.root, { env: process.env });
    expect(await runCli(['grade', 'scaffold', 'submissions/answers.json', '--out', 'out/json-grades'], io)).toBe(1);
    const c = JSON.parse(await readFile(path.join(t.root, 'out/json-grades/scaffold/answers/scorecard.json'), 'utf8')) as Scorecard;
    expect(c).toMatchObject({ graded: false, verdict: 'REFUSED' });
    expect(c.findings.map((f) => f.code)).toEqual(['PK565']);
    expect(c.findings[0]!.message).toContain('answers.json is a JSON file, but "scaffold" is a take-home');
  });
});
