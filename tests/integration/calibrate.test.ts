import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalibrationKey } from '../../src/calibrate/calibration-set.ts';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import type { GradeSummary } from '../../src/grade/grade.ts';
import { CALIBRATION_KEY_KIND } from '../../src/judge/scorecard-format.ts';
import type { Scorecard } from '../../src/judge/scorecard.ts';
import { loadPackets } from '../../src/packets/load.ts';
import { tempPackets, type TempPackets } from '../support/packet-fixtures.ts';

/**
 * `packet calibrate` on the scaffold take-home (a sample and two mutants): three anonymous zips
 * graded in the sandbox, their scorecards and summary.json for the reviewer, the key apart for
 * the hiring lead; a folder already used is refused, and a packet whose mutant still clears the
 * hire bar gets no key.
 */
let t: TempPackets;
let exitCode: number;
let stdout: string;
let stderr: string;
let digest: string;
const dir = () => path.join(t.root, 'out/calibration/scaffold');
const json = async <T>(rel: string) => JSON.parse(await readFile(path.join(dir(), rel), 'utf8')) as T;

/** The entry names of a zip. */
function entries(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => (names.push(e.fileName), zip.readEntry()));
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

beforeAll(async () => {
  t = await tempPackets();
  await t.add('scaffold');
  await t.add('lenient');
  // A hire bar a mutant clears with every reviewer row at its best: the rehearsal's calibration would call it a defect.
  await t.edit('lenient', 'rubric.mdx', 'hireBar: 6', 'hireBar: 5');
  digest = (await loadPackets({ packetsDir: t.packets, cwd: t.root })).packets.find((p) => p.id === 'scaffold')!.digest;
  const io = memoryIo(t.root, { env: process.env });
  exitCode = await runCli(['calibrate', 'scaffold', '--jobs', '2'], io);
  ({ stdout, stderr } = io);
}, 120_000);

afterAll(() => t.dispose());

describe('packet calibrate', () => {
  it('grades the sample and both mutants and says which folder goes where', () => {
    expect(stderr.replace(/^note: .*\n/gm, '')).toBe('');
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/grading 3 submissions/);
    expect(stdout).toContain('calibration set: 3 submissions');
    expect(stdout).toContain('give the reviewer out/calibration/scaffold/reviewer/ (import out/calibration/scaffold/reviewer/grades/scaffold/summary.json on /packets/scaffold/rubric/)');
    expect(stdout).toContain('keep out/calibration/scaffold/lead/calibration-key.json');
  });

  it('writes anonymous zips for the reviewer, their scorecards and a summary, and the key apart', async () => {
    expect((await readdir(dir())).sort()).toEqual(['README.md', 'lead', 'reviewer']);
    expect(await readdir(path.join(dir(), 'lead'))).toEqual(['calibration-key.json']);
    expect((await readdir(path.join(dir(), 'reviewer'))).sort()).toEqual(['grades', 'submissions']);
    expect((await readdir(path.join(dir(), 'reviewer/submissions'))).sort()).toEqual(['cal-01.zip', 'cal-02.zip', 'cal-03.zip']);
    expect((await readdir(path.join(dir(), 'reviewer/grades/scaffold'))).sort()).toEqual(['cal-01', 'cal-02', 'cal-03', 'summary.csv', 'summary.json']);
    const summary = await json<GradeSummary>('reviewer/grades/scaffold/summary.json');
    expect(summary.rows.map((r) => r.name)).toEqual(['cal-01', 'cal-02', 'cal-03']);
    // Zipped as a candidate sends them: the candidate zip's files at the root, the README naming the version.
    const names = await entries(path.join(dir(), 'reviewer/submissions/cal-01.zip'));
    expect(names).toEqual(expect.arrayContaining(['README.md', 'PROMPT.md', 'RUBRIC.md']));
    expect(names.some((n) => /mutant|sample|hidden/.test(n))).toBe(false);
  });

  it('keys every submission by the sha256 of its zip, the sample a hire and each mutant a no-hire', async () => {
    const key = await json<CalibrationKey>('lead/calibration-key.json');
    expect(key).toMatchObject({ kind: CALIBRATION_KEY_KIND, schemaVersion: 1, packet: { id: 'scaffold', version: '0.1.0', digest } });
    expect(key.submissions.map((s) => s.name)).toEqual(['cal-01', 'cal-02', 'cal-03']);
    expect(key.submissions.map((s) => s.source).sort()).toEqual(['mutant:accepts-garbage', 'mutant:drops-minutes', 'sample']);
    for (const s of key.submissions) {
      const zip = await readFile(path.join(dir(), 'reviewer/submissions', `${s.name}.zip`));
      expect(s.sha256).toBe(createHash('sha256').update(zip).digest('hex'));
      const card = await json<Scorecard>(`reviewer/grades/scaffold/${s.name}/scorecard.json`);
      expect(card.submission.sha256).toBe(s.sha256);
      // The README of the candidate zip names this version and digest: no version finding.
      expect(card.findings.map((f) => f.code)).not.toEqual(expect.arrayContaining(['PK511']));
      expect(card.findings.map((f) => f.code)).not.toEqual(expect.arrayContaining(['PK512']));
      expect(s.expected.decision).toBe(s.source === 'sample' ? 'hire' : 'no-hire');
    }
    const bySource = Object.fromEntries(key.submissions.map((s) => [s.source, s.expected]));
    // Only the rows the key is sure of: the automatic row, and the rows a mode caps (at the cap).
    expect(bySource.sample!.scores).toEqual({ correctness: 3 });
    expect(bySource['mutant:drops-minutes']!.scores).toEqual({ correctness: 0 });
    expect(bySource['mutant:accepts-garbage']!.scores).toMatchObject({ refusal: 0 });
    expect(bySource['mutant:accepts-garbage']!.reason).toMatch(/^the mutant of failure mode "accepts-garbage", graded CAUGHT; .*veto on refusal/);
  });

  it('says in its README which folder goes to the reviewer and which stays with the hiring lead', async () => {
    const readme = await readFile(path.join(dir(), 'README.md'), 'utf8');
    expect(readme).toContain('`reviewer/`: give this folder to the reviewer');
    expect(readme).toContain('`lead/`: keep this folder yourself; never send it to a reviewer');
    expect(readme).toContain('/packets/scaffold/rubric/');
    expect(readme).toContain('--key lead/calibration-key.json');
  });

  it('refuses a folder that already holds a set, writing nothing', async () => {
    const io = memoryIo(t.root, { env: process.env });
    expect(await runCli(['calibrate', 'scaffold'], io)).toBe(2);
    expect(io.stderr).toContain('PK570');
    expect((await readdir(path.join(dir(), 'reviewer/submissions'))).length).toBe(3);
  });

  it('writes no key when a mutant is not decided as the rehearsal expects', async () => {
    const io = memoryIo(t.root, { env: process.env });
    expect(await runCli(['calibrate', 'lenient', '--jobs', '2'], io)).toBe(1);
    expect(io.stderr).toContain('PK572');
    expect(io.stderr).toContain('(mutant:drops-minutes) is decided hire');
    expect((await readdir(path.join(t.root, 'out/calibration/lenient'))).sort()).toEqual(['reviewer']);
  }, 120_000);

  it('refuses a file where the folder should be, naming it and the fix', async () => {
    const taken = memoryIo(t.root, { env: process.env });
    await mkdir(path.join(t.root, 'as-file'));
    await writeFile(path.join(t.root, 'as-file', 'scaffold'), 'a file\n');
    expect(await runCli(['calibrate', 'scaffold', '--out', 'as-file'], taken)).toBe(2);
    expect(taken.stderr).toContain('PK573');
    expect(taken.stderr).toContain('as-file/scaffold/');
  });

  it('refuses a packet that is not a take-home as packet grade does', async () => {
    const io = memoryIo(t.root, { env: process.env });
    expect(await runCli(['calibrate', 'nothing-here'], io)).toBe(2);
    expect(io.stderr).toContain('PK5');
  });
});
