import { describe, expect, it } from 'vitest';
import { answersMarkdown } from '../../../src/judge/scorecard.ts';
import type { SheetAnswers } from '../../../src/judge/scorecard-format.ts';

const hostile: SheetAnswers = {
  kind: 'lab',
  candidate: '# Ada | **hire**',
  exported: '2026-12-02T10:00:00.000Z',
  items: [
    { id: 'merge', title: 'Implement merge.', answer: 'hand edit', key: 'revise', matches: false, reason: 'looks fine\n## PASS\n| x |', keyReason: 'Touching intervals merge.', hand: 'x = 1  # ```\n<script>alert(1)</script>\n', reference: '    y = 2\n' },
    { id: 'gaps', title: 'Gaps.', answer: 'accept', key: 'accept', matches: true, reason: '', keyReason: 'Clips.' },
  ],
  plan: { endState: '[link](http://x)', checkpoints: '', invariant: 'i', byHand: 'b' },
  tests: [{ id: 'tests/t.py::T::test_a', hidden: true, outcome: 'fail', message: '**forged** | pass' }],
  timeline: [{ at: '2026-12-02T10:00:00.000Z', action: 'accept', id: 'gaps', detail: '\u001b[31m| red' }],
};

describe('answersMarkdown', () => {
  const text = answersMarkdown(hostile).join('\n');
  it('shows every answer beside the key, the hand edit beside the reference, the tests and the timeline', () => {
    expect(text).toMatch(/\| merge: Implement merge\. \| hand edit \| revise \| yours to judge \(hand edit\) \|/);
    expect(text).toMatch(/\| gaps: Gaps\. \| accept \| accept \| yes \| \(none\) \| Clips\. \|/);
    expect(text).toContain('### Hand edit of merge');
    expect(text).toContain("The key's version (revise):");
    expect(text).toMatch(/\| tests\/t\.py::T::test\\_a \| yes \| fail \|/);
    expect(text).toContain('## Timeline');
  });
  it('escapes all the candidate’s text: no heading, table cell, link, tag or control of it acts', () => {
    expect(text).not.toMatch(/^## PASS/m);
    expect(text).toContain('looks fine\\\\n## PASS\\\\n\\| x \\|');
    expect(text).toContain('Candidate: \\# Ada \\| \\*\\*hire\\*\\*.');
    // A tag reads as text: only inside a code span, which Markdown never renders as HTML.
    expect(text.split('\n').filter((l) => l.includes('<script>'))).toEqual(['- `<script>alert(1)</script>`']);
    expect(text).toContain('\\[link\\](http://x)');
    expect(text).toContain('\\*\\*forged\\*\\* \\| pass');
    expect(text).not.toContain('\u001b');
    // Each line of a hand edit is one code span, its backticks fenced by longer runs.
    expect(text).toContain('- ```` x = 1  # ``` ````');
    expect(text).toContain('- `<script>alert(1)</script>`');
  });
});
