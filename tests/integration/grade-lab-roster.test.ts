import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import type { GradeSummary } from '../../src/grade/grade.ts';
import { folderReader } from '../../src/grade/grade-variants.ts';
import type { Scorecard } from '../../src/judge/scorecard.ts';
import { loadPackets } from '../../src/packets/load.ts';
import type { Lab } from '../../src/packets/packet.ts';
import { packetVariants, type PacketVariant } from '../../src/packets/variants-render.ts';
import { hardCodedCut, variantSheet } from '../support/lab-variant-sheets.ts';

/**
 * `packet grade --roster` on the answer sheets of a lab with variants (tests/fixtures/variants/
 * packets/variant-lab-sheets), in the sandbox. A sheet's variant comes from the page it was
 * exported from, and the candidate picks the page: with the roster, each sheet is graded against
 * the variant its row names. A candidate sent v2 who exports v1's page (a friend's choices, or
 * v1's limit typed into a hand edit) is graded as v2 and flagged PK585, a no-hire; a sheet the
 * roster does not name is not graded (PK586); a row no sheet matched is listed.
 */
const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/variants/packets/variant-lab-sheets');
const ID = 'variant-lab-sheets';
let root: string;
let v: PacketVariant[];
let run: { code: number; stdout: string; stderr: string };
let summary: GradeSummary;

const card = async (name: string) => JSON.parse(await readFile(path.join(root, 'out/grades', ID, name, 'scorecard.json'), 'utf8')) as Scorecard;
const cli = async (args: string[]) => {
  const io = memoryIo(root, { env: process.env });
  const code = await runCli(args, io);
  return { code, stdout: io.stdout, stderr: io.stderr };
};
const codes = (c: Scorecard) => c.findings.map((f) => f.code);

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'grade-lab-roster-'));
  const dir = path.join(root, 'packets', ID);
  await cp(FIXTURE, dir, { recursive: true });
  const loaded = await loadPackets({ packetsDir: path.join(root, 'packets'), cwd: root });
  const lab = loaded.packets.find((p) => p.id === ID) as Lab;
  v = (await packetVariants(lab, folderReader(dir))).map((r) => r.variant!);
  const [v1, v2] = v as [PacketVariant, PacketVariant];
  expect(v1.values.limit).not.toBe(v2.values.limit);
  const subs = path.join(root, 'sheets');
  await mkdir(subs);
  const write = (name: string, value: unknown) => writeFile(path.join(subs, `${name}.json`), JSON.stringify(value, null, 2));
  // Sent v2, hands in v2's sheet.
  await write('alice', variantSheet(v2));
  // Sent v2, exports v1's page with the key's choices: a sheet of v1 through and through.
  await write('bob', variantSheet(v1));
  // Sent v2, exports v1's page with v1's limit typed into the length cut.
  await write('carol', variantSheet(v1, {}, { 'length-cut': hardCodedCut(v1) }));
  // Sent v2, v1's digest under a `variant` that says v2.
  await write('erin', variantSheet(v2, { digest: v1.digest }));
  // Sent v2, v1's digest and no `variant` field.
  const { variant: _v, ...v1NoField } = variantSheet(v1);
  await write('frank', v1NoField);
  // Not on the roster, with a right sheet of v2.
  await write('mallory', variantSheet(v2, { candidate: 'Mallory' }));
  await writeFile(path.join(root, 'roster.csv'), 'submission,variant\nalice,v2\nbob,v2\ncarol,v2\nerin,v2\nfrank,v2\ndave,v3\n');
  run = await cli(['grade', ID, 'sheets', '--roster', 'roster.csv', '--jobs', '3']);
  summary = JSON.parse(await readFile(path.join(root, 'out/grades', ID, 'summary.json'), 'utf8')) as GradeSummary;
}, 180_000);

afterAll(() => rm(root, { recursive: true, force: true }));

describe('packet grade --roster on the sheets of a lab with variants', () => {
  it('grades the batch and exits 1 (a sheet not on the roster is not graded)', () => {
    expect(run.stderr).not.toMatch(/PK\d{3}/);
    expect(run.stdout).toMatch(/grading 6 submissions/);
    expect(run.code).toBe(1);
  });

  it('passes a v2 sheet from a candidate sent v2', async () => {
    const c = await card('alice');
    expect(c).toMatchObject({ graded: true, verdict: 'PASS', variant: { id: 'v2', digest: v[1]!.digest } });
    expect(c.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(c.decision.state).not.toBe('no-hire');
  });

  it('grades a v1 sheet from a candidate sent v2 as v2, flags it PK585 by its digest: no hire', async () => {
    const c = await card('bob');
    expect(c).toMatchObject({ graded: true, verdict: 'CAUGHT', variant: { id: 'v2', digest: v[1]!.digest } });
    const f = c.findings.find((x) => x.code === 'PK585')!;
    expect(f.message).toContain("its sheet's digest is that of variant v1");
    expect(f.message).toContain('roster.csv');
    expect(c.decision.state).toBe('no-hire');
    expect(c.decision.reason).toContain('PK585');
    // Choices only: v2's key texts are composed, so v2's tests are green and the leak check does not run.
    expect(c.answers!.tests.every((t) => t.outcome === 'pass')).toBe(true);
    expect(c.variant!.leakCheck).toMatchObject({ ran: false });
  });

  it('a v1 sheet whose hand edit carries v1’s limit fails v2, passes v1: PK585 and PK584', async () => {
    const c = await card('carol');
    expect(c).toMatchObject({ graded: true, variant: { id: 'v2', leakCheck: { ran: true, passed: 'v1' } } });
    expect(codes(c)).toEqual(expect.arrayContaining(['PK585', 'PK584']));
    expect(c.answers!.tests.some((t) => t.outcome === 'fail')).toBe(true);
    expect(c.decision.state).toBe('no-hire');
  });

  it('flags a v1 digest under a `variant` of v2, and a v1 digest with no `variant` field', async () => {
    for (const name of ['erin', 'frank']) {
      const c = await card(name);
      expect(c, name).toMatchObject({ graded: true, variant: { id: 'v2' } });
      expect(c.findings.find((f) => f.code === 'PK585')!.message, name).toContain("its sheet's digest is that of variant v1");
      expect(c.decision.state, name).toBe('no-hire');
    }
  });

  it('does not grade a sheet the roster does not name (PK586)', async () => {
    const c = await card('mallory');
    expect(c).toMatchObject({ graded: false, verdict: 'REFUSED' });
    expect(codes(c)).toEqual(['PK586']);
    expect(c.findings[0]!.message).toContain('"mallory"');
  });

  it('lists the row no sheet matched, in summary.json and on the terminal', () => {
    expect(summary.roster).toEqual({ file: 'roster.csv', rows: 6, unmatched: [{ submission: 'dave', variant: 'v3', line: 7 }] });
    expect(run.stdout).toMatch(/roster:.* 1 of 6 rows of roster\.csv matched no submission/);
    expect(run.stdout).toMatch(/dave: sent v3 \(line 7\)/);
    expect(Object.fromEntries(summary.rows.map((r) => [r.name, r.variant]))).toEqual({ alice: 'v2', bob: 'v2', carol: 'v2', erin: 'v2', frank: 'v2', mallory: null });
  });

  it('grades nothing and writes nothing with a roster that cannot be used (PK587, exit 2)', async () => {
    await writeFile(path.join(root, 'bad.csv'), 'submission,variant\nalice,v2\nbob,v9\n');
    const bad = await cli(['grade', ID, 'sheets', '--roster', 'bad.csv', '--out', 'out/bad']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/PK587 The roster bad\.csv, line 3 \(variant\): packet variant-lab-sheets has no variant v9/);
    expect(bad.stdout).not.toMatch(/grading/);
    await expect(stat(path.join(root, 'out/bad'))).rejects.toThrow(/ENOENT/);
  });
});
