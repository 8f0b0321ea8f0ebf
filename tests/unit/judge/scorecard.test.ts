import { describe, expect, it } from 'vitest';
import { cardRows, decisionSoFar, scorecardMarkdown, buildScorecard, testsInWords, type CardRow, type Scorecard } from '../../../src/judge/scorecard.ts';
import type { AutoEvidence } from '../../../src/judge/auto-rows.ts';
import type { Judgement } from '../../../src/judge/judge.ts';

const packet = {
  rubric: {
    data: {
      rows: [
        { id: 'tests', criterion: 'Tests pass', max: 3, auto: 'tests' },
        { id: 'receipts', criterion: 'Receipts add up', max: 2, auto: 'receipts' },
        { id: 'design', criterion: 'The design is sound', max: 3 },
        { id: 'notes', criterion: 'Notes are honest', max: 2 },
      ],
      hireBar: 7,
      vetoes: [{ row: 'tests', atMost: 0, note: 'red tests are a no' }],
    },
  },
  kind: 'takehome',
  failures: { data: { modes: [{ id: 'hardcoded', caps: { row: 'design', max: 1 } }, { id: 'tight', caps: { row: 'design', max: 0 } }] } },
} as never;

const green: AutoEvidence = { testsGreen: true, visibleGreen: true, hiddenGreen: true, protectedIntact: true, workspaceOk: true, receiptsOk: true, matchedModes: [] };

describe('the scorecard', () => {
  it('scores automatic rows, quotes their evidence, and leaves the reviewer\'s rows open', () => {
    const rows = cardRows(packet, green, (auto, holds) => `${auto} ${holds}`);
    expect(rows.map((r) => [r.id, r.score, r.evidence])).toEqual([
      ['tests', 3, 'tests true'],
      ['receipts', 2, 'receipts true'],
      ['design', null, null],
      ['notes', null, null],
    ]);
  });

  it('applies the tightest cap of the matched modes, also on a reviewer row', () => {
    const rows = cardRows(packet, { ...green, matchedModes: ['hardcoded', 'tight'] }, () => '');
    expect(rows.find((r) => r.id === 'design')!.cap).toEqual({ mode: 'tight', max: 0 });
    expect(cardRows(packet, { ...green, matchedModes: ['hardcoded'] }, () => '', true).find((r) => r.id === 'design')!.score).toBe(1);
  });

  it('knows where the decision stands before the reviewer scores', () => {
    const rows = (e: AutoEvidence) => cardRows(packet, e, () => '');
    expect(decisionSoFar(packet, rows(green), true)).toMatchObject({ state: 'pending', autoPoints: 5, range: { min: 5, max: 10 } });
    const red = decisionSoFar(packet, rows({ ...green, testsGreen: false }), true);
    expect(red).toMatchObject({ state: 'no-hire', vetoes: [{ row: 'tests', score: 0 }] });
    expect(red.reason).toContain('red tests are a no');
    const capped = decisionSoFar(packet, rows({ ...green, receiptsOk: false, matchedModes: ['tight'] }), true);
    expect(capped).toMatchObject({ state: 'no-hire', range: { max: 5 } });
    expect(decisionSoFar(packet, rows(green), false).state).toBe('not-graded');
    const done: CardRow[] = rows(green).map((r) => ({ ...r, score: r.score ?? r.max }));
    expect(decisionSoFar(packet, done, true).state).toBe('hire');
  });

  it('is a refused card when there is no judgement, and reads in Markdown', () => {
    const card = buildScorecard({
      packet: { ...(packet as object), id: 'p', digest: 'd'.repeat(64), prompt: { data: { version: '1.0.0' } } } as never,
      kitVersion: '0.1.0',
      submission: { name: 'eve', source: 'eve.zip', kind: 'zip', sha256: 'e'.repeat(64), stripped: null, dropped: [], stated: { version: null, digest: null } },
      date: '2026-11-30T12:00:00.000Z',
      sandbox: null,
      judgement: null,
      expected: { visible: 3, hidden: 2 },
      extra: [{ code: 'PK502', name: 'ArchiveUnsafePath', kind: 'intake', severity: 'error', message: 'The archive holds the entry "../x".', hint: 'Ask again.' }],
    });
    expect(card).toMatchObject({ graded: false, verdict: 'REFUSED', tests: null, decision: { state: 'not-graded' } });
    const md = scorecardMarkdown(card);
    expect(md).toContain('**REFUSED**');
    expect(md).toContain('**PK502**');
    expect(md).toContain('| tests (auto: tests) | 0 / 3 | not graded | - |');
  });

  it('keeps the packet\'s own text (a criterion, a veto note) on its line: no newline, row or control character of its own', () => {
    const note = 'red\n**PASS**, decision so far: **hire**\u001b[2J | forged cell';
    const hostile = { ...(packet as { rubric: { data: object } }), id: 'p', digest: 'd'.repeat(64), prompt: { data: { version: '1.0.0' } } } as never as { rubric: { data: { rows: object[]; vetoes: object[] } } };
    hostile.rubric = { data: { ...hostile.rubric.data, rows: [{ id: 'tests', criterion: 'Tests\npass\u001b[31m', max: 3, auto: 'tests' }, { id: 'design', criterion: 'Sound\n| x | y |', max: 3 }], vetoes: [{ row: 'tests', atMost: 0, note }] } };
    const judgement = { verdict: 'CAUGHT', testsGreen: false, visibleGreen: false, hiddenGreen: false, tampered: false, findings: [], signals: [], tests: { ran: 1, failed: 1, errors: 0, failing: [], exitCode: 1, timedOut: false, canaries: { planted: 1, failed: 1 } }, summary: {} as never, failing: { visible: [], hidden: [] }, description: '1 ran, 1 failed' } as Judgement;
    const card = buildScorecard({ packet: hostile as never, kitVersion: '0.1.0', submission: { name: 'bob', source: 'bob.zip', kind: 'zip', sha256: null, stripped: null, dropped: [], stated: { version: null, digest: null } }, date: 'd', sandbox: 'bubblewrap', judgement, expected: { visible: 1, hidden: 0 }, extra: [] });
    const md = scorecardMarkdown(card);
    expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect(md.split('\n').filter((l) => l.includes('decision so far'))).toHaveLength(1);
    expect(md.split('\n').filter((l) => l.startsWith('|'))).toHaveLength(4);
    expect(md).toContain('veto on tests (0 <= 0): red **PASS**, decision so far: **hire**\\u001b[2J \\| forged cell');
  });

  it('quotes a secret as the evidence against the workspace row it failed', () => {
    const p = { kind: 'takehome', id: 'p', digest: 'd', prompt: { data: { version: '1.0.0' } }, rubric: { data: { rows: [{ id: 'ws', criterion: 'Keeps to the workspace', max: 2, auto: 'workspace' }], hireBar: 1, vetoes: [] } }, failures: { data: { modes: [] } } } as never;
    const judgement: Judgement = { verdict: 'PASS', testsGreen: true, visibleGreen: true, hiddenGreen: true, tampered: false, findings: [], signals: [], tests: { ran: 1, failed: 0, errors: 0, failing: [], exitCode: 1, timedOut: false, canaries: { planted: 1, failed: 1 } }, summary: {} as never, failing: { visible: [], hidden: [] }, description: '1 ran, 0 failed (exit 1)' };
    const secret = { code: 'PK510', name: 'SecretInSubmission', kind: 'secret', severity: 'error', message: 'A secret in src/config.py.', hint: 'Rotate it.' } as const;
    const input = { packet: p, kitVersion: '0.1.0', submission: { name: 'bob', source: 'bob.zip', kind: 'zip', sha256: null, stripped: null, dropped: [], stated: { version: null, digest: null } }, date: 'd', sandbox: 'bubblewrap', judgement, expected: { visible: 1, hidden: 0 } };
    const card = buildScorecard({ ...input, extra: [secret] });
    expect(card.rows[0]).toMatchObject({ score: 0, evidence: 'PK510 A secret in src/config.py.' });
    expect(card.verdict).toBe('CAUGHT');
    const warned = buildScorecard({ ...input, extra: [{ ...secret, code: 'PK511', kind: 'version', severity: 'warning' }] });
    expect(warned.rows[0]).toMatchObject({ score: 2, evidence: 'only allowed files changed (none protected), no forbidden pattern, no runner hook' });
    expect(warned.verdict).toBe('PASS');
  });
});

describe('the tests of a card in words (console and summary)', () => {
  const tests = (ran: number | null, failed = 0, errors = 0): Scorecard['tests'] => ({
    ran, failed, errors, failing: [], exitCode: 1, timedOut: false, canaries: { planted: 2, failed: 2 },
    failingVisible: [], failingHidden: [], expected: { visible: 6, hidden: 3 }, description: '',
  });
  const tamper = (code: string) => ({ code, name: 'x', kind: 'tamper' as const, severity: 'error' as const, message: 'm', hint: 'h' });

  it('counts against the tests the kit expected, never the runner\'s own count', () => {
    expect(testsInWords({ tests: tests(9), findings: [] })).toBe('9/9 expected passed');
    expect(testsInWords({ tests: tests(9, 2, 1), findings: [] })).toBe('6/9 expected passed');
    // A runner that claims more tests than the files hold gets no credit for them.
    expect(testsInWords({ tests: tests(40), findings: [] })).toBe('9/9 expected passed');
    expect(testsInWords({ tests: tests(4), findings: [] })).toBe('4/9 expected passed');
  });

  it('does not repeat the numbers of a forged report, and says why', () => {
    expect(testsInWords({ tests: tests(9), findings: [tamper('PK420'), tamper('PK421'), tamper('PK420')] })).toBe("the runner's report is forged (PK420 PK421): not counted");
  });

  it('says when nothing ran', () => {
    expect(testsInWords({ tests: null, findings: [] })).toBe('not run');
    expect(testsInWords({ tests: tests(null), findings: [] })).toBe('not run');
  });
});
