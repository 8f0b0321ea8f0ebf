import { describe, expect, it } from 'vitest';
import { buildScorecard, calibrationCard, decisionSoFar, scorecardMarkdown, type CardInput } from '../../../src/judge/scorecard.ts';
import { bearsOn } from '../../../src/judge/auto-rows.ts';
import type { Finding } from '../../../src/judge/findings.ts';
import type { Judgement } from '../../../src/judge/judge.ts';

/**
 * The grader's evidence beside each row: which findings bear on which row (rows[i].findings), an
 * `auto: workspace` row against a protected test the submission changed, the decision so far of a
 * CAUGHT card in words, and where scoring goes on (the end of scorecard.md).
 */

const packet = {
  kind: 'takehome',
  id: 'fetch-retry',
  digest: 'd'.repeat(64),
  prompt: { data: { version: '1.2.0' } },
  rubric: {
    data: {
      rows: [
        { id: 'correctness', criterion: 'Every test passes', max: 3, auto: 'tests' },
        { id: 'contract', criterion: 'Keeps to the workspace', max: 1, auto: 'workspace' },
        { id: 'guard', criterion: 'Leaves the tests alone', max: 1, auto: 'protected' },
        { id: 'design', criterion: 'The design is sound', max: 3 },
        { id: 'notes', criterion: 'Notes are honest', max: 2 },
      ],
      hireBar: 7,
      vetoes: [] as { row: string; atMost: number; note: string }[],
    },
  },
  failures: { data: { modes: [{ id: 'hardcoded', caps: { row: 'design', max: 1 } }, { id: 'loud', caps: { row: 'notes', max: 2 } }] } },
} as never;

const f = (kind: Finding['kind'], code: string, over: Partial<Finding> = {}): Finding => ({ code, name: code, kind, severity: 'error', message: `${code} message`, hint: `Fix ${code}.`, ...over });

/** The card of the issue: held-out tests fail, a deliverable is missing, a protected test was edited, a failure mode matched. */
const caughtFindings = [
  f('hidden-tests', 'PK416'),
  f('deliverable', 'PK429', { file: 'NOTES.md' }),
  f('protected', 'PK424', { file: 'tests/test_retry.py' }),
  f('signal', 'PK430', { file: 'src/client.py', mode: 'hardcoded' }),
];

function judgement(over: Partial<Judgement> = {}): Judgement {
  return {
    verdict: 'CAUGHT',
    testsGreen: false,
    visibleGreen: true,
    hiddenGreen: false,
    tampered: false,
    findings: caughtFindings,
    signals: [{ mode: 'hardcoded', where: 'src/client.py', line: 'return 3' }],
    tests: { ran: 5, failed: 2, errors: 0, failing: [], exitCode: 1, timedOut: false, canaries: { planted: 2, failed: 2 } },
    summary: { runner: 'unittest', ran: 7, failed: 4, errors: 0, skipped: 0, expectedFailures: 0, unexpectedSuccesses: 0, failing: [], summaries: 1 },
    failing: { visible: [], hidden: ['tests.test_h.H.test_y'] },
    description: '5 ran, 2 failed, canaries 2/2 red (exit 1)',
    ...over,
  };
}

const input = (over: Partial<CardInput> = {}): CardInput => ({
  packet,
  kitVersion: '0.1.0',
  submission: { name: 'kim', source: 'subs/kim.zip', kind: 'zip', sha256: 'b'.repeat(64), stripped: null, dropped: [], stated: { version: '1.2.0', digest: null } },
  date: '2026-11-30T12:00:00.000Z',
  sandbox: 'bubblewrap',
  judgement: judgement(),
  expected: { visible: 3, hidden: 2 },
  extra: [],
  ...over,
});

const byId = (card: ReturnType<typeof buildScorecard>) => Object.fromEntries(card.rows.map((r) => [r.id, r]));

describe('the findings beside each row', () => {
  it('lists on each row the indexes of the findings that bear on it, and leaves the card its own', () => {
    const card = buildScorecard(input({ extra: [f('version', 'PK511', { severity: 'warning' })] }));
    expect(card.findings.map((x) => x.code)).toEqual(['PK416', 'PK429', 'PK424', 'PK430', 'PK511']);
    expect(card.rows.map((r) => [r.id, r.findings])).toEqual([
      ['correctness', [0]],
      ['contract', [2]],
      ['guard', [2]],
      ['design', [3]],
      ['notes', []],
    ]);
    const onRows = new Set(card.rows.flatMap((r) => r.findings));
    // The missing deliverable and the version warning bear on no row: the page shows them at the top.
    expect(card.findings.filter((_, i) => !onRows.has(i)).map((x) => x.code)).toEqual(['PK429', 'PK511']);
  });

  it('puts a secret found at intake on the workspace row, and a refusal on no row', () => {
    const secret = buildScorecard(input({ judgement: judgement({ verdict: 'PASS', testsGreen: true, hiddenGreen: true, findings: [], signals: [] }), extra: [f('secret', 'PK510')] }));
    expect(byId(secret).contract).toMatchObject({ score: 0, findings: [0], evidence: 'PK510 PK510 message' });
    const refused = buildScorecard(input({ judgement: null, extra: [f('intake', 'PK502')] }));
    expect(refused.rows.every((r) => r.findings.length === 0)).toBe(true);
  });

  it('gives the calibration card the same findings per row', () => {
    const { rows } = calibrationCard(packet, judgement());
    expect(rows.map((r) => r.findings)).toEqual([[0], [2], [2], [3], []]);
  });

  it('decides bearing once, for the score, the quote and the list', () => {
    const kinds: Finding['kind'][] = ['infra', 'run', 'tests', 'hidden-tests', 'tamper', 'protected', 'contract', 'deliverable', 'signal', 'unsafe', 'intake', 'secret', 'receipts', 'version'];
    const on = (auto: string) => kinds.filter((k) => bearsOn(auto, { kind: k, code: 'PK000' }));
    expect(on('tests')).toEqual(['infra', 'run', 'tests', 'hidden-tests', 'tamper']);
    expect(on('visible-tests')).toEqual(['infra', 'run', 'tests', 'tamper']);
    expect(on('hidden-tests')).toEqual(['infra', 'run', 'hidden-tests', 'tamper']);
    expect(on('protected')).toEqual(['protected']);
    expect(bearsOn('protected', { kind: 'tamper', code: 'PK425' })).toBe(true);
    expect(on('workspace')).toEqual(['protected', 'contract', 'unsafe', 'secret']);
    expect(bearsOn('workspace', { kind: 'tamper', code: 'PK425' })).toBe(false);
    expect(on('receipts')).toEqual(['receipts']);
    expect(on('choices')).toEqual([]);
  });
});

describe('an auto: workspace row against a protected test the submission changed', () => {
  it('fails, quoting the protected edit, and never reads "only allowed files changed"', () => {
    const only = judgement({ verdict: 'CAUGHT', testsGreen: true, hiddenGreen: true, findings: [f('protected', 'PK424', { file: 'tests/test_retry.py' })], signals: [] });
    const row = byId(buildScorecard(input({ judgement: only }))).contract!;
    expect(row.score).toBe(0);
    expect(row.evidence).toBe('PK424 PK424 message');
    expect(row.evidence).not.toMatch(/only allowed files changed/);
  });

  it('holds for a submission that changed only the files it may change', () => {
    const clean = judgement({ verdict: 'PASS', testsGreen: true, hiddenGreen: true, findings: [], signals: [] });
    expect(byId(buildScorecard(input({ judgement: clean }))).contract).toMatchObject({ score: 1, evidence: 'only allowed files changed (none protected), no forbidden pattern, no runner hook', findings: [] });
  });
});

describe('the decision so far of a card the grader did not pass', () => {
  it('says that the CAUGHT verdict decides no-hire, with its codes, at the top of scorecard.md', () => {
    const card = buildScorecard(input());
    expect(card.decision).toMatchObject({ state: 'no-hire', autoPoints: 0, range: { min: 0, max: 3 } });
    expect(card.decision.reason).toBe("the grader's verdict is CAUGHT (PK416, PK429, PK424, PK430): its automatic rows leave at most 3 of the hire bar's 7, whatever the reviewer scores");
    const md = scorecardMarkdown(card).split('\n');
    expect(md[2]).toBe("**CAUGHT**, decision so far: **no-hire** (the grader's verdict is CAUGHT (PK416, PK429, PK424, PK430): its automatic rows leave at most 3 of the hire bar's 7, whatever the reviewer scores).");
  });

  it('names the veto and the verdict when a veto decides', () => {
    const vetoed = { ...(packet as object), rubric: { data: { ...(packet as { rubric: { data: object } }).rubric.data, vetoes: [{ row: 'guard', atMost: 0, note: 'an edited test is a no' }] } } } as never;
    const card = buildScorecard(input({ packet: vetoed }));
    expect(card.decision.reason).toBe("veto on guard (0 <= 0): an edited test is a no; the grader's verdict is CAUGHT (PK416, PK429, PK424, PK430)");
  });

  it('keeps the plain words for a PASS, and leaves warnings out of the codes', () => {
    const pass = judgement({ verdict: 'PASS', testsGreen: true, hiddenGreen: true, findings: [], signals: [] });
    const card = buildScorecard(input({ judgement: pass, extra: [f('version', 'PK511', { severity: 'warning' })] }));
    expect(card.verdict).toBe('PASS');
    expect(card.decision).toMatchObject({ state: 'pending', reason: '2 rows for the reviewer (design, notes); 2 more points reach the hire bar of 7' });
    // A CAUGHT verdict decides only through the rubric: while the reviewer's rows can still reach the bar, it waits.
    const reachable = buildScorecard(input({ judgement: judgement({ findings: [f('hidden-tests', 'PK416')], signals: [] }) }));
    expect(reachable.decision).toMatchObject({ state: 'pending', range: { max: 7 } });
    const short = buildScorecard(input({ packet: { ...(packet as object), rubric: { data: { ...(packet as { rubric: { data: object } }).rubric.data, hireBar: 8 } } } as never, judgement: judgement({ findings: [f('hidden-tests', 'PK416')], signals: [] }), extra: [f('version', 'PK511', { severity: 'warning' })] }));
    expect(short.decision.reason).toBe("the grader's verdict is FALSE-GREEN (PK416): its automatic rows leave at most 7 of the hire bar's 8, whatever the reviewer scores");
  });
});

describe('a hire on automatic points that the grader did not pass', () => {
  it('hires by the rubric and names the verdict and its codes', () => {
    const lenient = { ...(packet as object), rubric: { data: { ...(packet as { rubric: { data: object } }).rubric.data, hireBar: 5 } } } as never;
    const missing = judgement({ verdict: 'CAUGHT', testsGreen: true, hiddenGreen: true, findings: [f('deliverable', 'PK429', { file: 'NOTES.md' })], signals: [] });
    const card = buildScorecard(input({ packet: lenient, judgement: missing }));
    expect(card.verdict).toBe('CAUGHT');
    expect(card.decision).toMatchObject({ state: 'hire', autoPoints: 5 });
    expect(card.decision.reason).toBe("5 automatic points clear the hire bar of 5, and no veto watches the reviewer's rows; yet the grader's verdict is CAUGHT (PK429)");
  });
});

describe('scorecard.md', () => {
  it('reads a card written before rows listed their findings', () => {
    const card = buildScorecard(input());
    const old = { ...card, rows: card.rows.map(({ findings: _, ...r }) => r) } as never;
    const md = scorecardMarkdown(old);
    expect(md).toContain('| contract (auto: workspace) | 0 / 1 | PK424 PK424 message | - |');
    expect(md).toContain('- **PK424** (the card as a whole) tests/test\\_retry.py');
  });

  it('names a verdict without codes plainly', () => {
    const rows = buildScorecard(input()).rows;
    expect(decisionSoFar(packet, rows, true, { verdict: 'CAUGHT', findings: [{ code: 'PK511', severity: 'warning' }] }).reason).toBe("the grader's verdict is CAUGHT: its automatic rows leave at most 3 of the hire bar's 7, whatever the reviewer scores");
    expect(decisionSoFar(packet, rows, true, { verdict: 'PASS', findings: [] }).reason).toBe("at most 3 of the hire bar's 7, whatever the reviewer scores");
    expect(decisionSoFar(packet, rows, true).reason).toBe("at most 3 of the hire bar's 7, whatever the reviewer scores");
  });

  it('names each finding\'s rows, and ends with the exact next step: the rubric page and the import', () => {
    const md = scorecardMarkdown(buildScorecard(input()));
    expect(md).toContain('| contract (auto: workspace) | 0 / 1 | PK424 PK424 message | PK424 |');
    expect(md).toContain('- **PK424** (rows contract, guard) tests/test\\_retry.py PK424 message');
    expect(md).toContain('- **PK429** (the card as a whole) NOTES.md');
    const tail = md.trimEnd().split('\n').slice(-3);
    expect(tail).toEqual([
      '## Next step',
      '',
      "Score the reviewer's rows on the rubric page: open `/packets/fetch-retry/rubric/` on the site (`npx packet preview` serves it) and import the batch's `summary.json` (one folder up) to score the batch's submissions one after another, or this card's `scorecard.json` (beside this file) for a single submission.",
    ]);
  });
});
