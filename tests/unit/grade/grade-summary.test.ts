import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GRADE_SUMMARY_KIND, gradeSubmissions, type GradeReporter, type GradeSummary } from '../../../src/grade/grade.ts';
import { terminalGradeReporter } from '../../../src/grade/grade-reporters.ts';
import { GRADE_SUMMARY_KIND as FORMAT_KIND } from '../../../src/judge/scorecard-format.ts';
import { loadPacketFiles, type PacketFiles } from '../../../src/judge/workspace.ts';
import { loadPackets } from '../../../src/packets/load.ts';
import { codePackets } from '../../../src/packets/packet.ts';
import type { Sandbox } from '../../../src/sandbox/types.ts';
import { tempPackets, type TempPackets } from '../../support/packet-fixtures.ts';

/**
 * summary.json as the rubric page reads it: its kind, and on every row the very scorecard
 * written beside it (null when it could not be written), so a batch imports as a queue; and the
 * next step `packet grade` prints once at its end. The submissions do not exist, so each is
 * refused at intake without any sandbox.
 */
let t: TempPackets;
let files: PacketFiles;
let out: string;
const noSandbox: Sandbox = {
  kind: 'unconfined',
  run: async () => {
    throw new Error('no submission here reaches the sandbox');
  },
};

beforeEach(async () => {
  t = await tempPackets();
  const dir = await t.add('scaffold');
  const { packets } = await loadPackets({ packetsDir: t.packets, cwd: t.root });
  files = await loadPacketFiles(codePackets(packets).find((p) => p.id === 'scaffold')!, dir);
  out = path.join(t.root, 'out', 'grades', 'scaffold');
  await mkdir(out, { recursive: true });
});
afterEach(() => t.dispose());

const grade = (names: string[], reporter: GradeReporter = {}) =>
  gradeSubmissions({
    files,
    submissions: names.map((n) => path.join(t.root, 'subs', `${n}.zip`)),
    outDir: out,
    runner: { sandbox: noSandbox, mounts: { pathPrepend: [], readOnlyPaths: [] }, timeoutMs: 10_000 },
    sandboxKind: 'unconfined',
    scratchDir: t.root,
    jobs: 1,
    kitVersion: '0.0.0-test',
    date: () => new Date('2026-12-01T12:00:00Z'),
    now: () => 0,
    random: () => 0.5,
    reporter,
  });

describe('summary.json of a batch', () => {
  it('names its kind and carries each scorecard exactly as written, null for one not written', async () => {
    await writeFile(path.join(out, 'bob'), 'a file where bob/ must be');
    await grade(['alice', 'bob', 'carol']);
    const summary = JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8')) as GradeSummary;
    expect(GRADE_SUMMARY_KIND).toBe('packet-kit/grade-summary');
    expect(FORMAT_KIND).toBe(GRADE_SUMMARY_KIND);
    expect(summary.kind).toBe('packet-kit/grade-summary');
    expect(summary.rows.map((r) => [r.name, r.cardWritten, r.scorecard === null])).toEqual([
      ['alice', true, false],
      ['bob', false, true],
      ['carol', true, false],
    ]);
    for (const row of summary.rows.filter((r) => r.cardWritten)) {
      expect(row.scorecard).toEqual(JSON.parse(await readFile(path.join(out, row.card), 'utf8')));
    }
    expect(summary.rows[0]!.scorecard).toMatchObject({ kind: 'packet-kit/scorecard', verdict: 'REFUSED', submission: { name: 'alice' } });
    // Every row of a card says which findings bear on it; the refusal bears on none.
    expect(summary.rows[0]!.scorecard!.rows.every((r) => Array.isArray(r.findings) && r.findings.length === 0)).toBe(true);
  });
});

describe('the end of packet grade on a terminal', () => {
  it('prints the next step once: the rubric page, and the summary.json to import', async () => {
    let said = '';
    const reporter = terminalGradeReporter({ out: (s) => void (said += s), err: (s) => void (said += s), color: false, cwd: t.root, list: () => '' });
    await grade(['alice', 'bob'], reporter);
    const lines = said.trimEnd().split('\n');
    expect(lines.filter((l) => l.includes('/rubric/'))).toHaveLength(1);
    expect(lines.slice(-2)).toEqual([
      'summary: out/grades/scaffold/summary.csv',
      "next: Score the reviewer's rows on the rubric page: open /packets/scaffold/rubric/ on the site (npx packet preview serves it) and import out/grades/scaffold/summary.json to score the batch's submissions one after another, or one out/grades/scaffold/<name>/scorecard.json for a single submission.",
    ]);
  });
});
