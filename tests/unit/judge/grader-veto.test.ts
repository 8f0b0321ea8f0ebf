import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GradeErrors } from '../../../src/errors/grade-catalog.ts';
import { gradeBatch, withVariant, type GradeSummary } from '../../../src/grade/grade.ts';
import { terminalGradeReporter } from '../../../src/grade/grade-reporters.ts';
import type { Finding } from '../../../src/judge/findings.ts';
import type { Judgement } from '../../../src/judge/judge.ts';
import { buildScorecard, scorecardMarkdown, type Scorecard } from '../../../src/judge/scorecard.ts';
import { GRADER_VETO_CODES, graderVeto } from '../../../src/judge/verdict-words.ts';
import { decisionSoFar as pageDecision } from '../../../src/site/decision-so-far.ts';

/**
 * One decision rule for a grader's veto: a card that carries a veto finding (PK584, a submission
 * that passes another variant's tests and not its own; every code of GRADER_VETO_CODES) reads
 * no-hire in scorecard.json and scorecard.md, in summary.json and summary.csv, on the terminal
 * line of `packet grade` and on the rubric page, with the same reason, even where the rubric's
 * rows alone would hire or wait for the reviewer.
 */

// Rows no veto finding bears on, so the rubric alone decides hire (workspace clean, 4 of the bar's 4) or pending.
const packet = (hireBar: number) =>
  ({
    kind: 'takehome',
    id: 'veto-demo',
    digest: 'd'.repeat(64),
    prompt: { data: { version: '1.0.0' } },
    rubric: {
      data: {
        rows: [
          { id: 'workspace', criterion: 'Keeps to the workspace', max: 4, auto: 'workspace' },
          { id: 'design', criterion: 'The design is sound', max: 3 },
        ],
        hireBar,
        vetoes: [],
      },
    },
    failures: { data: { modes: [] } },
  }) as never;

const judgement: Judgement = {
  verdict: 'PASS',
  testsGreen: true,
  visibleGreen: true,
  hiddenGreen: true,
  tampered: false,
  findings: [],
  signals: [],
  tests: { ran: 4, failed: 0, errors: 0, failing: [], exitCode: 0, timedOut: false, canaries: { planted: 1, failed: 1 } },
  summary: {} as never,
  failing: { visible: [], hidden: [] },
  description: '4 ran, 0 failed',
};

const vetoFinding = (code: string): Finding => ({ code, name: 'Veto', kind: 'hidden-tests', severity: 'error', message: `A finding ${code}.`, hint: 'Do not hire.' });
const leak: Finding = { ...vetoFinding(GradeErrors.AnswersOtherVariant.code), name: GradeErrors.AnswersOtherVariant.name, message: GradeErrors.AnswersOtherVariant.message({ own: 'v2', other: 'v1', ownTests: 'red', otherTests: 'green' }) };

const card = (name: string, hireBar: number, extra: Finding[]): Scorecard =>
  buildScorecard({
    packet: packet(hireBar),
    kitVersion: '0.0.0-test',
    submission: { name, source: `${name}.zip`, kind: 'zip', sha256: null, stripped: null, dropped: [], stated: { version: '1.0.0', digest: null } },
    date: '2026-12-02T00:00:00.000Z',
    sandbox: 'bubblewrap',
    judgement,
    expected: { visible: 2, hidden: 2 },
    extra,
  });

/** The rubric page's decision of a card as imported: its rows' scores, the open ones at their best. */
const onPage = (c: Scorecard) => {
  const rubric = { rows: c.rows.map((r) => ({ id: r.id, criterion: r.criterion, max: r.max, levels: {}, ...(r.auto ? { auto: r.auto } : {}) })), hireBar: c.decision.hireBar, vetoes: [] };
  const best = Object.fromEntries(c.rows.map((r) => [r.id, r.score ?? r.max]));
  const auto = Object.fromEntries(c.rows.filter((r) => r.score !== null).map((r) => [r.id, r.score!]));
  return { full: pageDecision({ rubric } as never, best, {}, { verdict: c.verdict, findings: c.findings, auto }), asGraded: pageDecision({ rubric } as never, auto, {}, { verdict: c.verdict, findings: c.findings, auto }) };
};

let out: string;
beforeAll(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'packet-kit-grader-veto-'));
});
afterAll(() => rm(out, { recursive: true, force: true }));

describe('a grader veto, decided once', () => {
  it('counts PK584 a veto', () => {
    expect(GRADER_VETO_CODES).toContain(GradeErrors.AnswersOtherVariant.code);
    // In the finding's own first sentence, naming both variants; without a message, in the code's words.
    expect(graderVeto({ verdict: 'FAIL', findings: [leak, { ...leak, message: 'Another.' }] })).toBe("the grader vetoes a hire: PK584 (This submission passes variant v1's tests, not its own variant v2)");
    expect(graderVeto({ verdict: 'FAIL', findings: [{ code: 'PK584', severity: 'error' }] })).toBe("the grader vetoes a hire: PK584 (the submission passes another variant's tests, not its own)");
    expect(graderVeto({ verdict: 'FAIL', findings: [vetoFinding('PK999')] })).toBe('');
  });

  it('the rubric alone hires or waits for the reviewer on these cards', () => {
    expect(card('clean-hire', 4, []).decision.state).toBe('hire');
    expect(card('clean-pending', 6, []).decision.state).toBe('pending');
    expect(onPage(card('clean-hire', 4, [])).full.state).toBe('hire');
  });

  for (const code of GRADER_VETO_CODES) {
    it(`reads no-hire everywhere for a card carrying ${code}: scorecard.json and .md, the summary, the terminal line, the rubric page`, async () => {
      const f = code === leak.code ? leak : vetoFinding(code);
      const cards = [card('would-hire', 4, [f]), card('would-wait', 6, [f])];
      const reason = graderVeto({ verdict: 'FAIL', findings: [f] });
      expect(reason).toMatch(new RegExp(`^the grader vetoes a hire: ${code}\\b`));
      for (const c of cards) {
        expect(c.decision).toMatchObject({ state: 'no-hire', reason });
        expect(scorecardMarkdown(c)).toContain(`decision so far: **no-hire** (${reason}).`);
        // The variant's card goes through the same rule: the same decision.
        expect(withVariant(c, { id: 'v2', number: 2, values: {}, digest: 'e'.repeat(64), leakCheck: { ran: true, reason: 'red', tried: ['v1'], passed: 'v1' } }).decision).toEqual(c.decision);
        const page = onPage(c);
        expect(page.full).toMatchObject({ state: 'no-hire', reason, open: 0 });
        expect(page.asGraded).toMatchObject({ state: 'no-hire', reason });
      }
      const dir = path.join(out, code);
      let said = '';
      const reporter = terminalGradeReporter({ out: (s) => void (said += s), err: (s) => void (said += s), color: false, cwd: dir, list: () => '' });
      const byName = new Map(cards.map((c) => [c.submission.name, c]));
      await gradeBatch(
        { packet: { id: 'veto-demo', version: '1.0.0', digest: 'd'.repeat(64) }, submissions: cards.map((c) => `${c.submission.name}.zip`), outDir: dir, jobs: 1, date: () => new Date('2026-12-02T00:00:00Z'), reporter },
        async (_source, name) => byName.get(name)!,
      );
      const summary = JSON.parse(await readFile(path.join(dir, 'summary.json'), 'utf8')) as GradeSummary;
      expect(summary.rows.map((r) => [r.name, r.decision, r.scorecard?.decision.state, r.scorecard?.decision.reason])).toEqual(cards.map((c) => [c.submission.name, 'no-hire', 'no-hire', reason]));
      const csv = (await readFile(path.join(dir, 'summary.csv'), 'utf8')).trim().split('\n');
      const at = csv[0]!.split(',').indexOf('decision');
      expect(csv.slice(1).map((l) => l.split(',')[at])).toEqual(['no-hire', 'no-hire']);
      for (const c of cards) {
        expect(await readFile(path.join(dir, c.submission.name, 'scorecard.md'), 'utf8')).toContain(`decision so far: **no-hire** (${reason}).`);
        expect(JSON.parse(await readFile(path.join(dir, c.submission.name, 'scorecard.json'), 'utf8')).decision).toMatchObject({ state: 'no-hire', reason });
      }
      const lines = said.split('\n').filter((l) => /^\[\d\/2\]/.test(l));
      expect(lines).toHaveLength(2);
      for (const l of lines) expect(l).toMatch(/, no-hire$/);
    });
  }

  it('leaves a card that was not graded not graded', () => {
    const refused = buildScorecard({
      packet: packet(4),
      kitVersion: '0.0.0-test',
      submission: { name: 'r', source: 'r.zip', kind: 'zip', sha256: null, stripped: null, dropped: [], stated: { version: null, digest: null } },
      date: 'd',
      sandbox: null,
      judgement: null,
      expected: { visible: 2, hidden: 2 },
      extra: [leak],
    });
    expect(refused.decision.state).toBe('not-graded');
  });
});
