import { describe, expect, it } from 'vitest';
import type { CheckResult, PacketReport } from '../../../src/rehearse/report.ts';
import { labColumnOf, reportView } from '../../../src/report/view.ts';
import { check, labPacket, modelRun, packet, report, testFinding as finding } from '../../support/report-fixtures.ts';

/**
 * The view of the HTML report: the findings that need a look apart from the expected failures
 * (a clean run's starters red and mutants caught are the packets working, not alarms), and a
 * lab's or a drill's own checks in their own columns rather than "none" under the take-home's.
 */
const caught = (id: string, ...codes: string[]): CheckResult => ({ ...check(id), findings: codes.map((c) => finding(c, `${id} caught`)) });
const noLinks = () => [];

function takehome(id: string): PacketReport {
  const checks = [caught('floor', 'PK415', 'PK416'), check('sample'), caught('mutant:drops-minutes', 'PK415'), caught('mutant:off-by-one', 'PK416')];
  return { id, version: '1.0.0', digest: 'a'.repeat(64), status: 'fails-closed', checks, defects: [], cached: false, durationMs: 900 };
}

describe('the report view of a clean run', () => {
  const view = reportView(report([takehome('alpha'), labPacket('lab-one')]), [], noLinks);

  it('counts every finding of a passing check as an expected failure, folded by packet, and leaves nothing to look at', () => {
    expect(view.findings).toHaveLength(7);
    expect(view.attention).toEqual([]);
    expect(view.expected.count).toBe(7);
    expect(view.expected.byWhy).toEqual([
      ['mutant caught', 2],
      ['starter red', 2],
      ['wrong choice caught', 2],
      ['all offered caught', 1],
    ]);
    expect(view.expected.packets.map((g) => [g.packet, g.count])).toEqual([
      ['alpha', 4],
      ['lab-one', 3],
    ]);
  });

  it("puts a lab's own checks in the lab's columns, the take-home kinds only over take-homes", () => {
    expect(view.kinds).toEqual(['floor', 'sample', 'mutant']);
    expect(view.labColumns.map((c) => c.id)).toEqual(['key', 'wrong', 'all-offered', 'plausible', 'calibration', 'table']);
    const [alpha, labOne] = view.packets;
    expect(alpha!.family).toBe('takehome');
    expect(labOne!.family).toBe('lab');
    expect(labOne!.labCells.wrong).toMatchObject({ total: 2, ok: 2, defects: 0 });
    expect(labOne!.labCells.key).toMatchObject({ total: 1, ok: 1 });
    expect(alpha!.labCells).toEqual({});
  });
});

describe('the report view of a run with a defect', () => {
  it('shows a defect\'s findings to look at, and keeps the expected failures beside them counted', () => {
    const view = reportView(report([takehome('alpha'), labPacket('lab-one', { wrongGreen: true })]), [], noLinks);
    expect(view.attention.map((f) => [f.packet, f.where, f.code, f.why])).toEqual([['lab-one', 'check lab:wrong:bucket:accept', 'PK416', 'defect']]);
    expect(view.expected.count).toBe(6);
    expect(view.packets[1]!.labCells.wrong).toMatchObject({ total: 2, ok: 1, defects: 1, codes: ['PK472'] });
  });

  it("counts a model's caught answer as expected, and a false green or an endpoint failure as worth a look", () => {
    const runs = [modelRun('alpha', 'free-model', 'CAUGHT'), { ...modelRun('alpha', 'other-model', 'FALSE-GREEN'), findings: [finding('PK416', 'held-out only')] }];
    const failed = { ...modelRun('alpha', 'dead-model', 'INCONCLUSIVE'), failure: { error: 'server-error' as const, status: 503, message: 'down', hint: 'Try again later.' } };
    const view = reportView(report([packet('alpha')], { live: ['free-model', 'other-model', 'dead-model'], models: [...runs, failed] }), [], noLinks);
    expect(view.expected.byWhy).toEqual([['model answer caught', 1]]);
    expect(view.attention.map((f) => [f.where, f.why])).toEqual([
      ['model other-model', 'notice'],
      ['model dead-model', 'inconclusive'],
    ]);
  });
});

describe('labColumnOf', () => {
  it.each([
    ['lab:key', 'key'],
    ['lab:reject:bucket', 'wrong'],
    ['lab:wrong:staff-first:revise', 'wrong'],
    ['lab:all-offered', 'all-offered'],
    ['lab:table', 'table'],
    ['lab:something-new', null],
  ])('%s is %s', (id, column) => expect(labColumnOf(id)).toBe(column));
});
