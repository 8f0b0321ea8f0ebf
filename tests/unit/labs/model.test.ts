import { describe, expect, it } from 'vitest';
import { combinationIndex, composeLab, LAB_STATES, normalizeRegion, stateOfText, statesOfIndex, variantOf, type LabState } from '../../../src/packets/lab-compose.ts';
import { edit, errors, labWith, parseMemory, scaffoldFiles } from './helpers.ts';

describe('a lab resolved against its starter', () => {
  it('resolves the scaffold: regions by anchor at their own lines, indented like the code they replace', () => {
    const { packet, diagnostics } = labWith();
    expect(errors(diagnostics)).toEqual([]);
    const lab = packet!.lab!;
    expect(lab.suggestions.map((s) => [s.id, s.file, s.fromLine, s.toLine])).toEqual([
      ['separators', 'src/slug.py', 10, 10],
      ['length-cut', 'src/slug.py', 11, 11],
      ['cache', 'src/slug.py', 15, 17],
    ]);
    const cut = lab.suggestions[1]!;
    expect(cut.original).toBe('    # TODO: at most MAX_LENGTH characters\n');
    expect(cut.revised.split('\n')[0]).toBe('    if len(slug) > MAX_LENGTH:');
    expect(lab.files.map((f) => f.path)).toEqual(['src/slug.py']);
  });

  it('composes every one of the 3^n combinations, each region in its own state, the rest untouched', () => {
    const { packet, files } = labWith();
    const lab = packet!.lab!;
    const n = lab.suggestions.length;
    const starter = files['starter/src/slug.py']!;
    const seen = new Set<string>();
    for (let index = 0; index < 3 ** n; index++) {
      const states = statesOfIndex(index, n);
      expect(combinationIndex(states)).toBe(index);
      const text = composeLab(lab, states).get('src/slug.py')!;
      seen.add(text);
      for (const [i, s] of lab.suggestions.entries()) expect(text).toContain(variantOf(s, states[i]!));
      // Deterministic: the same states give the same bytes.
      expect(composeLab(lab, states).get('src/slug.py')).toBe(text);
    }
    expect(seen.size).toBe(3 ** n);
    expect(composeLab(lab, lab.suggestions.map(() => 'reject')).get('src/slug.py')).toBe(starter);
  });

  it('indexes combinations in base 3, the first suggestion the lowest digit', () => {
    expect(LAB_STATES).toEqual(['reject', 'accept', 'revise']);
    expect(combinationIndex(['accept', 'reject', 'reject'])).toBe(1);
    expect(combinationIndex(['reject', 'accept', 'reject'])).toBe(3);
    expect(combinationIndex(['revise', 'revise', 'revise'])).toBe(26);
    expect(statesOfIndex(5, 3)).toEqual<LabState[]>(['revise', 'accept', 'reject']);
  });

  it('tells a hand edit from a scripted version, ignoring trailing spaces and blank lines', () => {
    const s = labWith().packet!.lab!.suggestions[1]!;
    expect(stateOfText(s, s.offered)).toBe('accept');
    expect(stateOfText(s, `${s.revised.replace(/\n/g, '   \n')}\n\n`)).toBe('revise');
    expect(stateOfText(s, s.original.replace('\n', '\r\n'))).toBe('reject');
    expect(stateOfText(s, '    slug = slug[:59]\n')).toBeNull();
    expect(normalizeRegion('a  \n\n')).toBe('a');
  });

  it('names a region by its line range', () => {
    const { packet, diagnostics } = labWith((f) => ({ 'assistant.mdx': edit(f['assistant.mdx'], '    anchor: |\n      # TODO: at most MAX_LENGTH characters\n', '    lines: { from: 11, to: 11 }\n') }));
    expect(errors(diagnostics)).toEqual([]);
    expect(packet!.lab!.suggestions[1]!.original).toBe('    # TODO: at most MAX_LENGTH characters\n');
  });
});

describe('a lab that cannot compose is a check error at its place', () => {
  it('two suggestions that change the same lines: PK176, naming both regions', () => {
    const { packet, diagnostics } = labWith((f) => ({ 'assistant.mdx': edit(f['assistant.mdx'], '    anchor: |\n      # TODO: at most MAX_LENGTH characters\n', '    lines: { from: 10, to: 11 }\n') }));
    expect(packet!.lab).toBeUndefined();
    expect(errors(diagnostics)).toMatchInlineSnapshot(`
      [
        "packets/mem/assistant.mdx:22 PK176 The regions of two suggestions overlap: src/slug.py:10 (suggestion "separators") and src/slug.py:10-11 (suggestion "length-cut"). Suggestions must replace disjoint regions, so that every combination of accepted, revised and rejected suggestions composes.",
      ]
    `);
  });

  it('an anchor that is not in the file, or is there twice: PK172, PK173 with its lines', () => {
    const missing = labWith((f) => ({ 'assistant.mdx': edit(f['assistant.mdx'], '# TODO: at most MAX_LENGTH characters\n    ask', '# TODO: at most MAX characters\n    ask') }));
    expect(errors(missing.diagnostics)).toEqual([expect.stringContaining('PK172 The anchor of the suggestion "length-cut" does not occur in starter/src/slug.py')]);
    const twice = labWith((f) => ({ 'starter/src/slug.py': `${f['starter/src/slug.py']}\n# TODO: at most MAX_LENGTH characters\n` }));
    expect(errors(twice.diagnostics)).toEqual([expect.stringContaining('PK173 The anchor of the suggestion "length-cut" occurs more than once in starter/src/slug.py (at lines 11, 19)')]);
  });

  it('a region named twice or not at all, lines past the end, a file that is not there: PK171, PK175, PK170', () => {
    const both = labWith((f) => ({ 'assistant.mdx': edit(f['assistant.mdx'], '    anchor: |\n      # TODO: at most', '    lines: { from: 11, to: 11 }\n    anchor: |\n      # TODO: at most') }));
    expect(errors(both.diagnostics)).toEqual([expect.stringContaining('PK171 The suggestion "length-cut" gives both "anchor" and "lines"')]);
    const past = labWith((f) => ({ 'assistant.mdx': edit(f['assistant.mdx'], '    anchor: |\n      # TODO: at most MAX_LENGTH characters\n', '    lines: { from: 11, to: 40 }\n') }));
    expect(errors(past.diagnostics)).toEqual([expect.stringContaining('PK175 The suggestion "length-cut" names lines 11-40 of starter/src/slug.py, which has 17 lines.')]);
    const nofile = labWith((f) => ({ 'assistant.mdx': edit(f['assistant.mdx'], '  - id: length-cut\n    file: src/slug.py', '  - id: length-cut\n    file: src/nope.py') }));
    expect(errors(nofile.diagnostics)).toEqual([expect.stringContaining('PK170 The suggestion "length-cut" changes starter/src/nope.py')]);
  });

  it('versions that are the same text, a protected file, a file outside the contract: PK177, PK178, PK179', () => {
    const same = labWith((f) => ({ 'assistant.mdx': edit(f['assistant.mdx'], '    revised: |\n      slug = title.lower().strip().replace(" ", "-")', '    revised: |\n      slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")') }));
    expect(errors(same.diagnostics)).toEqual([expect.stringContaining('PK177 The suggestion "separators" has the offered and the revised change with the same text')]);
    const tests = labWith((f) => ({ 'assistant.mdx': edit(f['assistant.mdx'], '  - id: length-cut\n    file: src/slug.py', '  - id: length-cut\n    file: tests/test_slug.py') }));
    expect(errors(tests.diagnostics)).toContainEqual(expect.stringContaining('PK178 The suggestion "length-cut" changes starter/tests/test_slug.py, which the prompt protects'));
    const outside = labWith((f) => ({ 'prompt.mdx': edit(f['prompt.mdx'], 'allow: ["src/**"]', 'allow: ["src/other.py"]') }));
    expect(errors(outside.diagnostics)).toContainEqual(expect.stringContaining('PK179 The suggestion "separators" changes src/slug.py, which no workspace.allow glob covers'));
  });

  it('a lab whose tests the driver cannot discover, and a lab without its assistant: PK183, PK180', () => {
    const pytest = labWith((f) => ({ 'prompt.mdx': edit(edit(f['prompt.mdx'], 'test: python3 -m unittest discover -s tests -t . -q', 'test: python3 -m pytest -q'), '`python3 -m unittest discover -s tests -t . -q`', '`python3 -m pytest -q`') }));
    expect(errors(pytest.diagnostics)).toEqual([expect.stringContaining('PK183 The lab\'s test command "python3 -m pytest -q" is not "python3 -m unittest discover ..."')]);
    // A prompt whose YAML does not parse still says it is a lab: the syntax error is not buried under take-home parts.
    const broken = labWith((f) => ({ 'prompt.mdx': edit(f['prompt.mdx'], 'summary: Build', 'summary: "Build') }));
    expect(errors(broken.diagnostics).map((e) => e.split(' ')[1])).toEqual(['PK105']);
    const bare = labWith(() => ({ 'assistant.mdx': null }));
    expect(bare.packet).toBeUndefined();
    expect(errors(bare.diagnostics)).toEqual(['packets/mem/assistant.mdx:- PK180 This lab has no assistant.mdx. A lab has the parts prompt, rubric, assistant.']);
  });
});

describe('a drill in the same loader', () => {
  it('parses the scaffold drill as a packet of the drill kind, without code trees', () => {
    const { packet: drill, diagnostics } = parseMemory(scaffoldFiles('drill'));
    expect(errors(diagnostics)).toEqual([]);
    expect(drill?.kind).toBe('drill');
    expect(drill).not.toHaveProperty('trees');
    if (drill?.kind !== 'drill') throw new Error('not a drill');
    expect(drill.diffs.map((d) => [d.id, d.key.verdict])).toEqual([
      ['port-default', 'accept'],
      ['log-settings', 'reject'],
      ['timeout-float', 'accept-with-change'],
    ]);
  });

  it('a line that is not a diff line, and a change-asking verdict with no change: PK184 at the line, PK186', () => {
    const files = scaffoldFiles('drill');
    files['assistant.mdx'] = edit(edit(files['assistant.mdx'], '      +    log.info("loaded settings: %r", settings)', '      *    log.info("loaded settings: %r", settings)'), '      change: Reject a TIMEOUT that is not a positive number, with an error that names TIMEOUT.\n', '');
    const { diagnostics } = parseMemory(files);
    expect(errors(diagnostics)).toEqual([
      expect.stringMatching(/assistant\.mdx:29 PK184 Line 3 of the diff "log-settings" starts with "\*"/),
      expect.stringContaining('PK186 The key of the diff "timeout-float" says accept-with-change but names no change'),
    ]);
  });

  it('a drill prompt takes no code fields, and a take-home part in a drill is only a warning', () => {
    const files = scaffoldFiles('drill');
    files['prompt.mdx'] = edit(files['prompt.mdx'], 'kind: drill\n', 'kind: drill\ntest: python3 -m unittest\n');
    expect(errors(parseMemory(files).diagnostics)).toEqual([expect.stringContaining('PK106 "test" is not a field of prompt.mdx.')]);
    const extra = { ...scaffoldFiles('drill'), 'sample.mdx': '---\nlabel: Sample\n---\n' };
    const { packet: drill, diagnostics } = parseMemory(extra);
    expect(drill?.kind).toBe('drill');
    expect(diagnostics.map((d) => `${d.code} ${d.severity}`)).toEqual(['PK181 warning']);
  });
});
