import { describe, expect, it } from 'vitest';
import { GRADE_SUMMARY_KIND } from '../../../src/judge/scorecard-format.ts';
import { isGradeSummary, readGradeSummary } from '../../../src/site/grade-queue.ts';
import type { ScoringCard } from '../../../src/site/scored-sheet.ts';

const card: ScoringCard = {
  id: 'red-log-gate',
  version: '1.0.0',
  digest: 'd'.repeat(64),
  rubric: {
    hireBar: 4,
    rows: [
      { id: 'tests', criterion: 'Tests pass.', max: 3, auto: 'tests', levels: { '0': 'red', '3': 'green' } },
      { id: 'notes', criterion: 'Notes.', max: 3, levels: { '0': 'none', '3': 'sharp' } },
    ],
    vetoes: [],
  },
};
const packet = { id: 'red-log-gate', version: '1.0.0', digest: card.digest };
const scorecard = (name: string, sha: string) => ({
  schemaVersion: 1,
  kind: 'packet-kit/scorecard',
  packet,
  submission: { name, source: `${name}.zip`, kind: 'zip', sha256: sha, stripped: null, dropped: [], stated: { version: null, digest: null } },
  graded: true,
  verdict: 'PASS',
  findings: [],
  rows: [
    { id: 'tests', criterion: 'Tests pass.', max: 3, auto: 'tests', score: 3, evidence: 'green', cap: null, findings: [] },
    { id: 'notes', criterion: 'Notes.', max: 3, auto: null, score: null, evidence: null, cap: null, findings: [] },
  ],
  decision: { state: 'pending', reason: '1 row for the reviewer' },
});
const summary = (over: Record<string, unknown> = {}) => ({
  kind: GRADE_SUMMARY_KIND,
  schemaVersion: 1,
  packet,
  rows: [
    { name: 'ada', sha256: 'a'.repeat(64), verdict: 'PASS', decision: 'pending', codes: [], scorecard: scorecard('ada', 'a'.repeat(64)) },
    { name: 'bob', sha256: null, verdict: 'REFUSED', decision: 'not-graded', codes: ['PK401'], scorecard: null, cardError: 'the disk is full' },
  ],
  ...over,
});

describe("a batch's summary.json as the rubric page's queue", () => {
  it('is one item per submission, each with its scorecard read onto the card; one without stays listed and cannot open', () => {
    expect(isGradeSummary(summary())).toBe(true);
    expect(isGradeSummary({ ...summary(), kind: 'packet-kit/scorecard' })).toBe(false);
    const r = readGradeSummary(summary(), card);
    if (!r.ok) throw new Error(r.message);
    expect(r.items.map((i) => [i.name, i.verdict, i.decision, i.codes, i.card.ok])).toEqual([
      ['ada', 'PASS', 'pending', [], true],
      ['bob', 'REFUSED', 'not-graded', ['PK401'], false],
    ]);
    expect(r.items[0]!.card).toMatchObject({ ok: true, scores: { tests: 3 }, submission: { name: 'ada', sha256: 'a'.repeat(64) } });
    expect(r.items[1]!.card).toMatchObject({ ok: false, message: expect.stringContaining('(the disk is full)') });
  });

  it('refuses a batch of another packet or version, or one without rows', () => {
    expect(readGradeSummary(summary({ packet: { ...packet, digest: 'e'.repeat(64), version: '0.9.0' } }), card)).toMatchObject({ ok: false, message: expect.stringMatching(/another version .*version 0\.9\.0, digest eeeeeeeeeeee/) });
    expect(readGradeSummary(summary({ packet: { ...packet, id: 'other' } }), card)).toMatchObject({ ok: false, message: expect.stringMatching(/grades the packet "other"/) });
    expect(readGradeSummary(summary({ rows: [] }), card)).toMatchObject({ ok: false, message: expect.stringMatching(/no submissions/) });
  });
});
