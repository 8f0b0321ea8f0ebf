import { describe, expect, it } from 'vitest';
import { lintRules } from '../../../src/lint/rules/index.ts';
import { brief, edit, lintMemory } from './helpers.ts';

/** Lint a memory packet with only one rule running. */
async function only(rule: string, change: Parameters<typeof lintMemory>[0]) {
  const rules = lintRules.filter((r) => r.id === rule);
  if (!rules.length) throw new Error(`no rule ${rule}`);
  return lintMemory(change, { rules });
}

describe('rule edges', () => {
  it('the untouched scaffold is clean', async () => {
    expect((await lintMemory()).map(brief)).toEqual([]);
  });

  describe('failure-signal', () => {
    const withPattern = (pattern: string, extra = '') => (f: Record<string, string>) => ({
      'failures.mdx': edit(f['failures.mdx'], '      pattern: "PART\\\\.search\\\\("\n', `      pattern: ${JSON.stringify(pattern)}\n${extra}`),
    });

    it('reports a pattern that does not compile, at the pattern', async () => {
      const list = await only('failure-signal', withPattern('PART\\.search('));
      expect(list.map(brief)).toEqual(['packets/mem/failures.mdx:6:16 PK213 error failure-signal']);
      expect(list[0]!.message).toMatch(/is not a valid regular expression: \/PART\\.search\(\/: Unterminated group/);
    });

    it('compiles with the signal flags', async () => {
      const list = await only('failure-signal', withPattern('(?<x>a)\\k<x>b+', '      flags: "u"\n'));
      expect(list).toEqual([]);
    });

    it('reports a pattern that matches the empty string', async () => {
      const list = await only('failure-signal', withPattern('x*'));
      expect(list.map((d) => d.message)).toEqual(['The signal of "drops-minutes" matches the empty string, so it matches every submission and tells nothing.']);
    });

    it('greps only the files its globs name', async () => {
      // "unittest" is in the starter's tests, not in src/.
      expect(await only('failure-signal', withPattern('unittest'))).toEqual([]);
      const all = await only('failure-signal', (f) => ({
        'failures.mdx': edit(f['failures.mdx'], '      pattern: "PART\\\\.search\\\\("\n      in: files\n      files: ["src/**/*.py"]\n', '      pattern: "unittest"\n      in: diff\n'),
      }));
      // A diff signal greps added lines, so the message is about moved or reformatted lines, not a submission that did nothing.
      expect(all.map((d) => d.message)).toEqual([
        'The diff signal of "drops-minutes" matches a line the unchanged starter already has (starter/tests/test_duration.py, line 1). A diff signal greps the lines a submission adds, so it fires on a submission that only moves or reformats that line.',
      ]);
      expect(all[0]!.hint).toMatch(/^Make the pattern specific to what the mutant adds: a line the starter does not have/);
      const files = await only('failure-signal', (f) => ({
        'failures.mdx': edit(f['failures.mdx'], '      pattern: "PART\\\\.search\\\\("\n      in: files\n      files: ["src/**/*.py"]\n', '      pattern: "unittest"\n      in: files\n      files: ["tests/*.py"]\n'),
      }));
      expect(files.map((d) => d.message)).toEqual([
        'The signal of "drops-minutes" already matches the unchanged starter (starter/tests/test_duration.py, line 1), so it fires on a submission that did nothing.',
      ]);
    });

    it('does not grep starter files for an output signal, but does grep a starter ledger for a ledger signal', async () => {
      const output = await only('failure-signal', (f) => ({
        'failures.mdx': edit(f['failures.mdx'], '      pattern: "PART\\\\.search\\\\("\n      in: files\n', '      pattern: "parse_duration"\n      in: output\n'),
      }));
      expect(output).toEqual([]);
      const ledger = await only('failure-signal', (f) => ({
        'failures.mdx': edit(f['failures.mdx'], '      pattern: "PART\\\\.search\\\\("\n      in: files\n', '      pattern: "\\"calls\\": 0"\n      in: ledger\n'),
        'starter/usage.jsonl': '{"calls": 0}\n',
      }));
      expect(ledger.map((d) => d.message)).toEqual([
        'The ledger signal of "drops-minutes" already matches the starter\'s own receipts file (starter/usage.jsonl, line 1), so it fires on a submission that hands that file in unchanged.',
      ]);
    });
  });

  describe('rubric-hire-bar', () => {
    it('reports a veto that fires at every score: the bar is out of reach', async () => {
      const list = await only('rubric-hire-bar', (f) => ({ 'rubric.mdx': edit(f['rubric.mdx'], '    atMost: 0', '    atMost: 3') }));
      expect(list.map((d) => `${brief(d)} ${d.message}`)).toEqual([
        'packets/mem/rubric.mdx:27:13 PK211 error rubric-hire-bar The veto on "refusal" fires at 3 or below, and that row only goes to 3: every submission is vetoed, so the hire bar is out of reach.',
      ]);
    });
    it('leaves a bar above the total to validation (PK121), and accepts a bar equal to the total', async () => {
      expect(await only('rubric-hire-bar', (f) => ({ 'rubric.mdx': edit(f['rubric.mdx'], 'hireBar: 6', 'hireBar: 9') }))).toEqual([]);
      expect(await only('rubric-hire-bar', (f) => ({ 'rubric.mdx': edit(f['rubric.mdx'], 'hireBar: 6', 'hireBar: 8') }))).toEqual([]);
    });
  });

  it('rubric-time: the card alone may be over 15 minutes', async () => {
    const list = await only('rubric-time', (f) => ({ 'rubric.mdx': edit(f['rubric.mdx'], 'minutes: 10', 'minutes: 20') }));
    expect(list.map((d) => d.message)).toEqual(['The rubric asks for 20 minutes; a human scores a packet in at most 15.']);
  });

  it('rubric-levels: a row missing both ends names both', async () => {
    const list = await only('rubric-levels', (f) => ({
      'rubric.mdx': edit(f['rubric.mdx'], '      0: Tests fail.\n      3: Every test passes.\n', '      1: Some tests pass.\n'),
    }));
    expect(list.map((d) => `${brief(d)} ${d.message}`)).toEqual([
      'packets/mem/rubric.mdx:8:5 PK209 error rubric-levels The row "correctness" has no descriptor for score 0 and 3. Without words for the lowest and the highest score, two reviewers give the same work different points.',
    ]);
  });

  describe('prompt-test-command', () => {
    it('says when the command is not in the body at all', async () => {
      const list = await only('prompt-test-command', (f) => ({
        'prompt.mdx': edit(f['prompt.mdx'], '```bash\npython3 -m unittest discover -s tests -t . -q\n```', '```bash\npython3 -m pytest\n```'),
      }));
      expect(list.map((d) => d.message)).toEqual([
        "The frontmatter's test command never appears in the prompt body, so the candidate cannot run the tests they will be graded by.",
      ]);
    });
  });

  describe('no-model-names', () => {
    it('finds names in the rubric frontmatter and body, with versions, ignoring case', async () => {
      const list = await only('no-model-names', (f) => ({
        'rubric.mdx': edit(
          edit(f['rubric.mdx'], '      3: Every test passes.', '      3: Every test passes, even with claude-3.5.'),
          'Read `NOTES.md` first',
          'Ask Llama 3.1 nothing. Read `NOTES.md` first',
        ),
      }));
      expect(list.map((d) => `${brief(d)} ${d.message.split('.')[0]}`)).toEqual([
        'packets/mem/rubric.mdx:10:10 PK206 error no-model-names The rubric frontmatter ("rows',
        'packets/mem/rubric.mdx:37:5 PK206 error no-model-names The rubric names the model "Llama 3',
      ]);
      expect(list[0]!.message).toContain('"claude-3.5"');
    });

    it('leaves names inside longer words and regex patterns alone, and takes allow and extra names', async () => {
      const change = (f: Record<string, string>) => ({
        'prompt.mdx': edit(f['prompt.mdx'], '- Standard library only.', '- Standard library only; `llama_cpp` is not needed. Gemini-like tools: Acme.'),
      });
      const plain = await only('no-model-names', change);
      expect(plain.map((d) => d.message.match(/"(.*?)"/)![1])).toEqual(['Gemini']);
      const rules = lintRules.filter((r) => r.id === 'no-model-names');
      const tuned = await lintMemory(change, { rules, config: { rules: { 'no-model-names': ['error', { allow: ['gemini'], names: ['Acme'] }] } } });
      expect(tuned.map((d) => d.message.match(/"(.*?)"/)![1])).toEqual(['Acme']);
    });
  });

  it('no-secrets: scans the MDX parts too, and never copies the secret into the diagnostic', async () => {
    const secret = ['ghp', '_wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('');
    const list = await only('no-secrets', (f) => ({ 'sample.mdx': `${f['sample.mdx']}\nThe token was ${secret}.\n` }));
    expect(list.map(brief)).toEqual(['packets/mem/sample.mdx:13:15 PK207 error no-secrets']);
    expect(JSON.stringify(list)).not.toContain(secret.slice(4));
    expect(list[0]!.sensitive).toBe(true);
  });

  it('no-secrets: skips binary starter files', async () => {
    const list = await only('no-secrets', () => ({ 'starter/data.bin': `\u0000https://deploy:hunter2hunter2@intake.example.com/v1` }));
    expect(list).toEqual([]);
  });

  describe('prompt-hard-limits', () => {
    it('accepts a lead-in paragraph followed by a list', async () => {
      const list = await only('prompt-hard-limits', (f) => ({
        'prompt.mdx': edit(
          edit(f['prompt.mdx'], '## Hard limits\n\n', 'Constraints:\n\n'),
          '- Do not catch an error just to return zero.',
          '- Errors are raised.',
        ),
      }));
      expect(list).toEqual([]);
    });
    it('with no limits anywhere, points at the start of the body', async () => {
      const list = await only('prompt-hard-limits', (f) => ({
        'prompt.mdx': edit(
          f['prompt.mdx'],
          '## Hard limits\n\n- Do not change the tests under `tests/`.\n- Standard library only.\n- Do not catch an error just to return zero.\n',
          '',
        ),
      }));
      expect(list.map((d) => `${brief(d)} ${d.message}`)).toEqual([
        'packets/mem/prompt.mdx:33:1 PK202 warning prompt-hard-limits The prompt has no list of hard limits (constraints, do-nots). Without them the task is unbounded, and a model will widen it until something breaks.',
      ]);
    });
  });

  it('prompt-stop-rule: a cap with a unit is a stop rule', async () => {
    const list = await only('prompt-stop-rule', (f) => ({
      'prompt.mdx': edit(
        f['prompt.mdx'],
        '## Stop rule\n\nStop after 45 minutes. If the tests are still red, stop, and write in `NOTES.md` what you\nwould try next instead of guessing.',
        'Use at most 6 model calls.',
      ),
    }));
    expect(list).toEqual([]);
  });

  it('failure-narrative: a section that never names the id is reported at its heading', async () => {
    const list = await only('failure-narrative', (f) => ({ 'failures.mdx': edit(f['failures.mdx'], 'In drops-minutes the parser', 'Here the parser') }));
    expect(list.map((d) => `${brief(d)} ${d.message}`)).toEqual([
      'packets/mem/failures.mdx:27:1 PK214 warning failure-narrative The section "Only the first unit counts" never mentions the id "drops-minutes", so grepping the catalog for the id finds the frontmatter but not the story.',
    ]);
  });

  it('code-fence-lang: in a body that fell back to plain Markdown, indented code blocks are reported too', async () => {
    // MDX has no indented code; the HTML comment makes the body plain Markdown.
    const list = await only('code-fence-lang', (f) => ({ 'sample.mdx': `${f['sample.mdx']}\n<!-- note -->\n\nFor example:\n\n    1h30 -> error\n` }));
    expect(list.map((d) => `${brief(d)} ${d.message}`)).toEqual([
      'packets/mem/sample.mdx:17:1 PK216 warning code-fence-lang This indented code block has no language; indented blocks cannot carry one.',
    ]);
  });

  describe('reviewer-heading', () => {
    it('warns at a heading for reviewers that ships, in the rubric or the prompt, and not at one kept back', async () => {
      const list = await only('reviewer-heading', (f) => ({
        'rubric.mdx': `${f['rubric.mdx']}\n### Grading order\n\nTests first.\n\n## Notes for the grader\n\nThe hidden test feeds 7h7m7s.\n`,
        'prompt.mdx': edit(f['prompt.mdx'], '## Goal', '## Reviewer notes\n\nThe hidden test feeds 7h7m7s.\n\n## Goal'),
      }));
      expect(list.map((d) => `${brief(d)} ${d.message}`)).toEqual([
        'packets/mem/prompt.mdx:' + list[0]!.line + ':1 PK255 warning reviewer-heading The heading "Reviewer notes" in prompt.mdx reads as meant for reviewers, but its section ships to candidates (PROMPT.md and the packet page): only a `Reviewer notes` heading of rubric.mdx keeps a section out.',
        'packets/mem/rubric.mdx:' + list[1]!.line + ':1 PK255 warning reviewer-heading The heading "Notes for the grader" in rubric.mdx reads as meant for reviewers, but its section ships to candidates (RUBRIC.md and the rubric page): only a `Reviewer notes` heading of rubric.mdx keeps a section out.',
      ]);
    });
  });
});
