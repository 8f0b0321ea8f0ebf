import { describe, expect, it } from 'vitest';
import { buildScorecard, calibrationCard, cardRows, decisionSoFar, quoteEvidence, scorecardMarkdown, type CardInput, type CardRow } from '../../../src/judge/scorecard.ts';
import type { AutoEvidence } from '../../../src/judge/auto-rows.ts';
import type { Finding } from '../../../src/judge/findings.ts';
import type { Judgement } from '../../../src/judge/judge.ts';

/**
 * The scorecard's arithmetic and words: caps, the decision before the reviewer scores (each
 * state and its boundary), the evidence quoted for each automatic row, and the card as a whole.
 */

const green: AutoEvidence = { testsGreen: true, visibleGreen: true, hiddenGreen: true, protectedIntact: true, workspaceOk: true, receiptsOk: true, matchedModes: [] };

const rubric = (over: Record<string, unknown> = {}) => ({
  rubric: {
    data: {
      rows: [
        { id: 'tests', criterion: 'Tests pass', max: 4, auto: 'tests' },
        { id: 'design', criterion: 'The design is sound', max: 3 },
        { id: 'notes', criterion: 'Notes are honest', max: 2 },
      ],
      hireBar: 6,
      vetoes: [] as { row: string; atMost: number; note: string }[],
      ...over,
    },
  },
  kind: 'takehome',
  failures: {
    data: {
      modes: [
        { id: 'tight', caps: { row: 'design', max: 0 } },
        { id: 'loose', caps: { row: 'design', max: 2 } },
        { id: 'also-loose', caps: { row: 'design', max: 2 } },
      ],
    },
  },
}) as never;

const rows = (p: never, e: AutoEvidence = green) => cardRows(p, e, () => 'q');

describe('caps of matched failure modes', () => {
  it('keeps the tightest cap whichever order the modes come in, and the first of equal caps', () => {
    const design = (matched: string[]) => rows(rubric(), { ...green, matchedModes: matched }).find((r) => r.id === 'design')!.cap;
    expect(design(['tight', 'loose'])).toEqual({ mode: 'tight', max: 0 });
    expect(design(['loose', 'also-loose'])).toEqual({ mode: 'loose', max: 2 });
    expect(design([])).toBeNull();
  });
});

describe('the decision so far', () => {
  it('names a verdict the grader did not pass when every row is automatic and they clear the bar', () => {
    const p = rubric({ rows: [{ id: 'tests', criterion: 'Tests pass', max: 4, auto: 'tests' }], hireBar: 4 });
    const d = decisionSoFar(p, rows(p), true, { verdict: 'CAUGHT', findings: [{ code: 'PK416', severity: 'error' }] });
    expect(d.state).toBe('hire');
    expect(d.reason).toContain("yet the grader's verdict is CAUGHT (PK416)");
    expect(decisionSoFar(p, rows(p), true, { verdict: 'PASS', findings: [] }).reason).not.toContain('verdict');
  });

  it('hires on automatic points alone when they reach the bar and no veto watches a reviewer row', () => {
    const p = rubric({ hireBar: 4 });
    const d = decisionSoFar(p, rows(p), true);
    expect(d).toEqual({
      autoPoints: 4,
      range: { min: 4, max: 9 },
      hireBar: 4,
      vetoes: [],
      state: 'hire',
      reason: "4 automatic points clear the hire bar of 4, and no veto watches the reviewer's rows",
    });
  });

  it('waits for the reviewer when a veto watches one of their rows, and does not fire that veto early', () => {
    const p = rubric({ hireBar: 4, vetoes: [{ row: 'notes', atMost: 0, note: 'notes are required' }] });
    const d = decisionSoFar(p, rows(p), true);
    expect(d.vetoes).toEqual([]);
    expect(d.state).toBe('pending');
    expect(d.reason).toBe('2 rows for the reviewer (design, notes); 0 more points reach the hire bar of 4');
  });

  it('waits one point below the bar, and says how many rows and points are left', () => {
    const p = rubric({ hireBar: 5 });
    expect(decisionSoFar(p, rows(p), true)).toMatchObject({ state: 'pending', reason: '2 rows for the reviewer (design, notes); 1 more points reach the hire bar of 5' });
    const one: CardRow[] = rows(p).map((r) => (r.id === 'design' ? { ...r, score: 3 } : r));
    expect(decisionSoFar(p, one, true)).toMatchObject({ state: 'hire', autoPoints: 7 });
    const oneLeft = decisionSoFar(rubric({ hireBar: 9 }), one, true);
    expect(oneLeft).toMatchObject({ state: 'pending', reason: '1 row for the reviewer (notes); 2 more points reach the hire bar of 9' });
  });

  it('is no-hire when even the best reviewer scores cannot reach the bar, and pending when they just can', () => {
    const red = { ...green, testsGreen: false };
    const out = decisionSoFar(rubric({ hireBar: 6 }), rows(rubric(), red), true);
    expect(out).toMatchObject({ state: 'no-hire', range: { min: 0, max: 5 }, reason: "at most 5 of the hire bar's 6, whatever the reviewer scores" });
    expect(decisionSoFar(rubric({ hireBar: 5 }), rows(rubric(), red), true)).toMatchObject({ state: 'pending', range: { min: 0, max: 5 } });
    const capped = decisionSoFar(rubric({ hireBar: 7 }), rows(rubric(), { ...green, matchedModes: ['loose'] }), true);
    expect(capped).toMatchObject({ state: 'pending', range: { min: 4, max: 8 } });
  });

  it('names each veto an automatic row fired, with its note', () => {
    const p = rubric({ vetoes: [{ row: 'tests', atMost: 0, note: 'red tests are a no' }, { row: 'tests', atMost: 1, note: 'and so is this' }] });
    const d = decisionSoFar(p, rows(p, { ...green, testsGreen: false }), true);
    expect(d.state).toBe('no-hire');
    expect(d.reason).toBe('veto on tests (0 <= 0): red tests are a no; tests (0 <= 1): and so is this');
  });

  it('decides with the rubric once every row is scored', () => {
    const p = rubric();
    const scored = (design: number): CardRow[] => rows(p).map((r) => (r.score === null ? { ...r, score: r.id === 'design' ? design : 0 } : r));
    expect(decisionSoFar(p, scored(2), true)).toMatchObject({ state: 'hire', reason: '6 of 9 clears the hire bar of 6' });
    expect(decisionSoFar(p, scored(1), true)).toMatchObject({ state: 'no-hire', reason: "at most 5 of the hire bar's 6, whatever the reviewer scores" });
  });
});

const f = (kind: Finding['kind'], code: string, message = `${code} message`): Finding => ({ code, name: code, kind, severity: 'error', message, hint: `Fix ${code}.` });

describe('the evidence quoted for an automatic row', () => {
  it('quotes the green run for test rows, and a fixed sentence for the others', () => {
    const q = quoteEvidence({ description: '5 ran, 0 failed (exit 1)', findings: [] });
    expect(['tests', 'visible-tests', 'hidden-tests', 'protected', 'workspace', 'receipts'].map((a) => q(a, true))).toEqual([
      'green: 5 ran, 0 failed (exit 1)',
      'green: 5 ran, 0 failed (exit 1)',
      'green: 5 ran, 0 failed (exit 1)',
      'no protected file touched, none changed during the run',
      'only allowed files changed (none protected), no forbidden pattern, no runner hook',
      'the receipts are there, add up, keep the caps and name the code handed in',
    ]);
  });

  it('quotes the first finding that made a row fail, each row its own kinds', () => {
    const findings = [f('signal', 'PK430'), f('receipts', 'PK522'), f('unsafe', 'PK431'), f('tamper', 'PK425'), f('hidden-tests', 'PK416'), f('tests', 'PK415'), f('contract', 'PK426'), f('protected', 'PK424')];
    const q = quoteEvidence({ description: 'd', findings });
    expect(['tests', 'visible-tests', 'hidden-tests', 'protected', 'workspace', 'receipts'].map((a) => q(a, false))).toEqual([
      'PK425 PK425 message',
      'PK425 PK425 message',
      'PK425 PK425 message',
      'PK425 PK425 message',
      'PK431 PK431 message',
      'PK522 PK522 message',
    ]);
    const tests = quoteEvidence({ description: 'd', findings: [f('signal', 'PK430'), f('hidden-tests', 'PK416'), f('tests', 'PK415')] });
    expect(['tests', 'visible-tests', 'hidden-tests'].map((a) => tests(a, false))).toEqual(['PK416 PK416 message', 'PK415 PK415 message', 'PK416 PK416 message']);
    const kinds = quoteEvidence({ description: 'd', findings: [f('infra', 'PK410'), f('protected', 'PK424'), f('contract', 'PK426')] });
    // A protected file the submission changed is evidence against the workspace row too: it is a change the submission may not make.
    expect(['tests', 'visible-tests', 'hidden-tests', 'protected', 'workspace'].map((a) => kinds(a, false))).toEqual(['PK410 PK410 message', 'PK410 PK410 message', 'PK410 PK410 message', 'PK424 PK424 message', 'PK424 PK424 message']);
    expect(quoteEvidence({ description: 'd', findings: [f('infra', 'PK410'), f('contract', 'PK426'), f('protected', 'PK424')] })('workspace', false)).toBe('PK426 PK426 message');
    expect(quoteEvidence({ description: 'd', findings: [f('run', 'PK413')] })('visible-tests', false)).toBe('PK413 PK413 message');
  });

  it('quotes the run itself when a test row fails without a finding of its kind', () => {
    const q = quoteEvidence({ description: '0 ran (exit 0)', findings: [f('signal', 'PK430')] });
    expect(['tests', 'visible-tests', 'hidden-tests'].map((a) => q(a, false))).toEqual(['red: 0 ran (exit 0)', 'red: 0 ran (exit 0)', 'red: 0 ran (exit 0)']);
    expect(['protected', 'workspace', 'receipts'].map((a) => q(a, false))).toEqual(['', '', '']);
  });
});

const packet = {
  ...(rubric({ vetoes: [{ row: 'tests', atMost: 0, note: 'red tests are a no' }] }) as object),
  id: 'fetch-retry',
  digest: 'd'.repeat(64),
  prompt: { data: { version: '1.2.0' } },
} as never;

function judgement(over: Partial<Judgement> = {}): Judgement {
  return {
    verdict: 'PASS',
    testsGreen: true,
    visibleGreen: true,
    hiddenGreen: true,
    tampered: false,
    findings: [],
    signals: [],
    tests: { ran: 5, failed: 0, errors: 0, failing: [], exitCode: 1, timedOut: false, canaries: { planted: 2, failed: 2 } },
    summary: { runner: 'unittest', ran: 7, failed: 2, errors: 0, skipped: 0, expectedFailures: 0, unexpectedSuccesses: 0, failing: [], summaries: 1 },
    failing: { visible: [], hidden: [] },
    description: '5 ran, 0 failed, canaries 2/2 red (exit 1)',
    ...over,
  };
}

const input = (over: Partial<CardInput> = {}): CardInput => ({
  packet,
  kitVersion: '0.1.0',
  submission: { name: 'bob', source: 'subs/bob.zip', kind: 'zip', sha256: 'b'.repeat(64), stripped: 'bob-1.2.0', dropped: [], stated: { version: '1.2.0', digest: null } },
  date: '2026-11-30T12:00:00.000Z',
  sandbox: 'bubblewrap',
  judgement: judgement(),
  expected: { visible: 3, hidden: 2 },
  extra: [],
  ...over,
});

describe('the scorecard of a graded submission', () => {
  it('scores the automatic rows from the judgement and keeps the counts, the failing ids and the expected tests', () => {
    const card = buildScorecard(input());
    expect(card).toMatchObject({ schemaVersion: 1, kit: { version: '0.1.0' }, packet: { id: 'fetch-retry', version: '1.2.0', digest: 'd'.repeat(64) }, graded: true, verdict: 'PASS', sandbox: 'bubblewrap', date: '2026-11-30T12:00:00.000Z' });
    expect(card.tests).toEqual({ ran: 5, failed: 0, errors: 0, failing: [], exitCode: 1, timedOut: false, canaries: { planted: 2, failed: 2 }, failingVisible: [], failingHidden: [], expected: { visible: 3, hidden: 2 }, description: '5 ran, 0 failed, canaries 2/2 red (exit 1)' });
    expect(card.rows.map((r) => [r.id, r.score, r.evidence])).toEqual([
      ['tests', 4, 'green: 5 ran, 0 failed, canaries 2/2 red (exit 1)'],
      ['design', null, null],
      ['notes', null, null],
    ]);
    expect(card.decision).toMatchObject({ state: 'pending', autoPoints: 4 });
  });

  it('leaves the decision not graded when the run was inconclusive', () => {
    const card = buildScorecard(input({ judgement: judgement({ verdict: 'INCONCLUSIVE', testsGreen: false, findings: [f('infra', 'PK410')] }) }));
    expect(card.decision.state).toBe('not-graded');
    expect(card.verdict).toBe('INCONCLUSIVE');
  });

  it('reads in Markdown: verdict, decision, provenance, rows, findings and failing tests', () => {
    const card = buildScorecard(
      input({
        submission: { name: 'eve', source: 'subs/eve', kind: 'folder', sha256: null, stripped: null, dropped: [], stated: { version: '1.1.0', digest: 'c'.repeat(64) } },
        judgement: judgement({
          verdict: 'CAUGHT',
          testsGreen: false,
          visibleGreen: false,
          hiddenGreen: false,
          findings: [{ ...f('tests', 'PK415', 'Visible tests failed | twice.\nSee the output.'), file: 'src/a.py', line: 3 }, { ...f('signal', 'PK430', 'A signal matched.'), file: 'src/b.py', mode: 'loose' }],
          signals: [{ mode: 'loose', where: 'src/b.py', line: 'x' }],
          failing: { visible: ['tests/test_a.py::T::test_x'], hidden: ['tests/test_h.py::H::test_y'] },
          description: '5 ran, 2 failed (exit 1)',
        }),
        extra: [{ ...f('version', 'PK511', 'Names version 1.1.0.'), severity: 'warning' }],
      }),
    );
    expect(scorecardMarkdown(card)).toMatchInlineSnapshot(`
      "# fetch-retry 1.2.0: eve

      **CAUGHT**, decision so far: **no-hire** (veto on tests (0 <= 0): red tests are a no; the grader's verdict is CAUGHT (PK415, PK430)).

      - Submission: subs/eve (folder, sha256 \`unknown\`)
      - Packet digest: \`dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd\` (the submission names \`cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc\`)
      - The submission's README names version 1.1.0 (from the submission, not verified)
      - Graded 2026-11-30T12:00:00.000Z by packet-kit 0.1.0 in bubblewrap
      - Tests: 5 ran, 2 failed (exit 1); expected 3 visible and 2 held-out

      | row | score | evidence | findings |
      |---|---|---|---|
      | tests (auto: tests) | 0 / 4 | PK415 Visible tests failed \\| twice.\\\\nSee the output. | PK415 |
      | design | __ / 2 (capped by loose) | The design is sound | PK430 |
      | notes | __ / 2 | Notes are honest | - |

      ## Findings

      The file names, test ids and lines these findings quote come from the submission and are not verified; they are shown escaped and cut. Each names the rows it bears on; one on no row bears on the card as a whole.

      - **PK415** (row tests) src/a.py:3 Visible tests failed \\| twice.\\\\nSee the output. _Hint: Fix PK415._
      - **PK430** (row design) src/b.py A signal matched. _Hint: Fix PK430._
      - warning **PK511** (the card as a whole) Names version 1.1.0. _Hint: Fix PK511._

      ## Failing tests

      As the test runner printed them (from the submission, not verified: code under test can print these lines too):

      > - visible: tests/test\\_a.py::T::test\\_x
      > - held-out: tests/test\\_h.py::H::test\\_y

      ## Next step

      Score the reviewer's rows on the rubric page: open \`/packets/fetch-retry/rubric/\` on the site (\`npx packet preview\` serves it) and import the batch's \`summary.json\` (one folder up) to score the batch's submissions one after another, or this card's \`scorecard.json\` (beside this file) for a single submission.
      "
    `);
  });

  it('reads in Markdown without findings or failing tests', () => {
    const md = scorecardMarkdown(buildScorecard(input({ sandbox: null, submission: { ...input().submission, stated: { version: null, digest: 'd'.repeat(64) } } })));
    expect(md).toMatchInlineSnapshot(`
      "# fetch-retry 1.2.0: bob

      **PASS**, decision so far: **pending** (2 rows for the reviewer (design, notes); 2 more points reach the hire bar of 6).

      - Submission: subs/bob.zip (zip, sha256 \`bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\`)
      - Packet digest: \`dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd\`
      - Graded 2026-11-30T12:00:00.000Z by packet-kit 0.1.0
      - Tests: 5 ran, 0 failed, canaries 2/2 red (exit 1); expected 3 visible and 2 held-out

      | row | score | evidence | findings |
      |---|---|---|---|
      | tests (auto: tests) | 4 / 4 | green: 5 ran, 0 failed, canaries 2/2 red (exit 1) | - |
      | design | __ / 3 | The design is sound | - |
      | notes | __ / 2 | Notes are honest | - |

      No findings.

      ## Next step

      Score the reviewer's rows on the rubric page: open \`/packets/fetch-retry/rubric/\` on the site (\`npx packet preview\` serves it) and import the batch's \`summary.json\` (one folder up) to score the batch's submissions one after another, or this card's \`scorecard.json\` (beside this file) for a single submission.
      "
    `);
  });
});

describe('calibration', () => {
  it('scores every judgement row at its best allowed score and decides', () => {
    const j = judgement({ signals: [{ mode: 'loose', where: 'src/a.py', line: 'x' }] });
    const c = calibrationCard(rubric(), j);
    expect(c.rows.map((r) => [r.id, r.score])).toEqual([
      ['tests', 4],
      ['design', 2],
      ['notes', 2],
    ]);
    expect(c.decision).toMatchObject({ total: 8, decision: 'hire' });
    const red = calibrationCard(rubric(), judgement({ testsGreen: false, findings: [f('tests', 'PK415')] }));
    expect(red.rows[0]).toMatchObject({ score: 0, evidence: 'PK415 PK415 message' });
    expect(red.decision).toMatchObject({ total: 5, decision: 'no-hire' });
  });
});

describe('the scorecard: edges that change a decision', () => {
  it('hires early when the only veto watches an automatic row that holds', () => {
    const p = rubric({ hireBar: 4, vetoes: [{ row: 'tests', atMost: 0, note: 'red tests are a no' }] });
    expect(decisionSoFar(p, rows(p), true)).toMatchObject({ state: 'hire', vetoes: [] });
  });

  it('says why an ungraded submission has no decision', () => {
    const p = rubric();
    expect(decisionSoFar(p, rows(p), false)).toMatchObject({ state: 'not-graded', reason: 'the submission was not graded' });
  });

  it('scores every automatic row 0 without a judgement, and keeps only the findings from outside the judge', () => {
    const every = {
      ...(rubric({
        rows: ['tests', 'visible-tests', 'hidden-tests', 'protected', 'workspace', 'receipts'].map((auto) => ({ id: auto, criterion: auto, max: 1, auto })),
        hireBar: 1,
      }) as object),
      id: 'p',
      digest: 'd'.repeat(64),
      prompt: { data: { version: '1.2.0' } },
    } as never;
    const refused = f('intake', 'PK502');
    const card = buildScorecard(input({ packet: every, judgement: null, extra: [refused] }));
    expect(card.rows.map((r) => [r.id, r.score])).toEqual(['tests', 'visible-tests', 'hidden-tests', 'protected', 'workspace', 'receipts'].map((id) => [id, 0]));
    expect(card.findings).toEqual([refused]);
    expect(card.rows.find((r) => r.id === 'design')).toBeUndefined();
  });

  it('fails the workspace row on a secret among other outside findings', () => {
    const p = { ...(rubric({ rows: [{ id: 'ws', criterion: 'Keeps to the workspace', max: 2, auto: 'workspace' }], hireBar: 1 }) as object), id: 'p', digest: 'd', prompt: { data: { version: '1.2.0' } } } as never;
    const warning: Finding = { ...f('version', 'PK511'), severity: 'warning' };
    const card = buildScorecard(input({ packet: p, extra: [warning, f('secret', 'PK510')] }));
    expect(card.rows[0]!.score).toBe(0);
    expect(buildScorecard(input({ packet: p, extra: [warning] })).rows[0]!.score).toBe(2);
  });

  it('lists failing held-out tests in Markdown when no visible test failed', () => {
    const card = buildScorecard(input({ judgement: judgement({ verdict: 'FALSE-GREEN', testsGreen: false, hiddenGreen: false, failing: { visible: [], hidden: ['tests/test_hidden.py::T::test_x'] } }) }));
    const md = scorecardMarkdown(card);
    expect(md).toContain('## Failing tests\n\nAs the test runner printed them (from the submission, not verified: code under test can print these lines too):\n\n> - held-out: tests/test\\_hidden.py::T::test\\_x\n');
  });
});
