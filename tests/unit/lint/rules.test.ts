import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintPacket } from '../../../src/lint/engine.ts';
import type { Packet } from '../../../src/packets/packet.ts';
import type { PacketFiles } from '../../../src/lint/files.ts';
import { lintRules } from '../../../src/lint/rules/index.ts';
import { brief, FIXTURES, loadFixture, ROOT } from './helpers.ts';

/**
 * Every rule has `tests/fixtures/lint/<rule-id>/fail/` (it must report exactly these places)
 * and `.../pass/` (no diagnostic at all). Both are whole packets that are otherwise valid: the
 * fail fixture is the pass-shaped scaffold with one thing broken.
 */
const EXPECTED: Record<string, { code: string; places: [line: number, column: number][]; file: string }> = {
  // word 301 of the body: "you" in "...and how you checked it."
  'prompt-length': { code: 'PK201', file: 'prompt.mdx', places: [[54, 57]] },
  // the "## Hard limits" heading whose section is prose
  'prompt-hard-limits': { code: 'PK202', file: 'prompt.mdx', places: [[41, 1]] },
  // nothing says when to stop: the start of the body
  'prompt-stop-rule': { code: 'PK203', file: 'prompt.mdx', places: [[33, 1]] },
  // "- CHANGELOG.md" under deliverables
  'prompt-deliverables': { code: 'PK204', file: 'prompt.mdx', places: [[14, 5]] },
  // "test:" value, the command being only in prose
  'prompt-test-command': { code: 'PK205', file: 'prompt.mdx', places: [[14, 7]] },
  // "GPT-4o" inside the hard limits list
  'no-model-names': { code: 'PK206', file: 'prompt.mdx', places: [[44, 53]] },
  // the basic-auth URL in a starter file
  'no-secrets': { code: 'PK207', file: 'starter/src/settings.py', places: [[3, 12]] },
  // "rows:" (2 rows) and rows[0].max (4 points)
  'rubric-rows': { code: 'PK208', file: 'rubric.mdx', places: [[3, 1], [6, 10]] },
  // rows[1].levels has no 3
  'rubric-levels': { code: 'PK209', file: 'rubric.mdx', places: [[14, 5]] },
  // "minutes: 16": over 15, and 3 x 6 = 18 minutes of rows
  'rubric-time': { code: 'PK210', file: 'rubric.mdx', places: [[2, 10], [2, 10]] },
  // "hireBar: 3" of 8
  'rubric-hire-bar': { code: 'PK211', file: 'rubric.mdx', places: [[24, 10]] },
  // "modes:" with one mode
  'failures-count': { code: 'PK212', file: 'failures.mdx', places: [[2, 1]] },
  // the pattern "UNITS = ", which the starter has
  'failure-signal': { code: 'PK213', file: 'failures.mdx', places: [[6, 16]] },
  // the title of the mode whose heading was renamed
  'failure-narrative': { code: 'PK214', file: 'failures.mdx', places: [[4, 12]] },
  // "label: Reference solution"
  'sample-label': { code: 'PK215', file: 'sample.mdx', places: [[2, 8]] },
  // the fence without a language
  'code-fence-lang': { code: 'PK216', file: 'sample.mdx', places: [[15, 1]] },
  // the "!" of an HTML comment
  'mdx-syntax': { code: 'PK217', file: 'sample.mdx', places: [[13, 2]] },
  // a lab with no starter/README.md: at "kind: lab"
  'lab-readme': { code: 'PK250', file: 'prompt.mdx', places: [[4, 7]] },
  // every key says accept: at the last suggestion's key.choice
  'lab-key-balance': { code: 'PK251', file: 'assistant.mdx', places: [[60, 15]] },
  // every verdict is reject: at the last diff's key.verdict
  'drill-verdict-balance': { code: 'PK252', file: 'assistant.mdx', places: [[48, 16]] },
  // a diff of added and removed lines only: at its "diff:"
  'drill-diff-context': { code: 'PK253', file: 'assistant.mdx', places: [[9, 11]] },
  // "reason: Cuts words in half.": three words
  'key-reason-length': { code: 'PK254', file: 'assistant.mdx', places: [[34, 15]] },
  // "## Notes for the grader": a reviewer's section that ships in RUBRIC.md
  'reviewer-heading': { code: 'PK255', file: 'rubric.mdx', places: [[33, 1]] },
  // a lab with no handIn: at "kind: lab"
  'hand-in-field': { code: 'PK256', file: 'prompt.mdx', places: [[4, 7]] },
};

/** Lint a fixture of any kind: the rules that read its kind. */
const lint = (p: Packet, files: PacketFiles) => lintPacket(p, { files });

describe('lint rules on their fixtures', () => {
  it('has a pass and a fail fixture, and an expectation, for every rule', () => {
    const folders = readdirSync(path.join(ROOT, FIXTURES)).sort();
    expect(folders).toEqual(lintRules.map((r) => r.id).sort());
    expect(Object.keys(EXPECTED).sort()).toEqual(folders);
    for (const rule of folders) expect(readdirSync(path.join(ROOT, FIXTURES, rule)).sort()).toEqual(['fail', 'pass']);
  });

  for (const rule of lintRules) {
    describe(rule.id, () => {
      const expected = EXPECTED[rule.id]!;

      it('fixtures are otherwise valid packets', async () => {
        const { validation } = await loadFixture(rule.id);
        expect(validation.map(brief)).toEqual([]);
      });

      it(`fail: reports ${expected.code} at the exact places, and nothing else`, async () => {
        const { fail, files } = await loadFixture(rule.id);
        const list = await lint(fail, files);
        expect(list.map(brief)).toEqual(
          expected.places.map(([line, column]) => `${FIXTURES}/${rule.id}/fail/${expected.file}:${line}:${column} ${expected.code} ${rule.defaultSeverity} ${rule.id}`),
        );
        expect(rule.entry.code).toBe(expected.code);
      });

      it('pass: no diagnostic at all', async () => {
        const { pass, files } = await loadFixture(rule.id);
        expect((await lint(pass, files)).map(brief)).toEqual([]);
      });
    });
  }

  it('prompt-length: the pass fixture sits exactly on the limit', async () => {
    const { pass, files } = await loadFixture('prompt-length');
    const list = await lintPacket(pass as Packet, { files, config: { rules: { 'prompt-length': ['error', { max: 299 }] } } });
    expect(list.map((d) => d.message)[0]).toMatch(/^The prompt body is 300 words, over the limit of 299;/);
  });
});
