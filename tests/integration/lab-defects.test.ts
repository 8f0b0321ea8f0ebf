import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import type { RehearsalReport } from '../../src/rehearse/report.ts';
import { tempPackets, type TempPackets } from '../support/packet-fixtures.ts';

/**
 * Fixture labs, each the scaffold lab (three suggestions, 27 combinations) with one planted
 * defect against one fails-closed rule. One rehearsal runs them all; each must come out a
 * defect with its own code, while the untouched scaffold fails closed.
 */
let t: TempPackets;
let report: RehearsalReport;
let exitCode: number;

const SLUG = 'src/slug.py';
const HIDDEN = 'hidden/tests/test_hidden_slug.py';
const VISIBLE = 'starter/tests/test_slug.py';

beforeAll(async () => {
  t = await tempPackets();
  await t.add('healthy', {}, 'lab');

  // The key's own combination fails a held-out test: the "revised" cut still cuts words in half.
  await t.add('key-red', {}, 'lab');
  await t.edit('key-red', 'assistant.mdx', '      if len(slug) > MAX_LENGTH:\n          cut = slug[: MAX_LENGTH + 1].rsplit("-", 1)[0]\n          slug = cut if len(cut) <= MAX_LENGTH else slug[:MAX_LENGTH]\n', '      slug = slug[:MAX_LENGTH].rstrip("-")\n');

  // A wrong suggestion nothing catches: the held-out tests of the cut are gone, and it is not reviewOnly.
  await t.add('wrong-uncaught', {}, 'lab');
  await t.write('wrong-uncaught', HIDDEN, 'import unittest\n\nfrom src.slug import slugify\n\n\nclass HiddenSlugTest(unittest.TestCase):\n    def test_same_title_same_slug(self):\n        self.assertEqual(slugify("A b"), slugify("A b"))\n');

  // The key accepts the cache, and rejecting it leaves every test green.
  await t.add('right-rejected', {}, 'lab');
  await t.edit('right-rejected', 'assistant.mdx', '      choice: reject', '      choice: accept');
  await t.edit('right-rejected', 'rubric.mdx', 'hireBar: 7', 'hireBar: 8');

  // Every suggestion as offered is green: the cut is offered right (and declared review-only).
  await t.add('all-offered-green', {}, 'lab');
  await t.edit('all-offered-green', 'assistant.mdx', '    offered: |\n      slug = slug[:MAX_LENGTH]\n', '    offered: |\n      if len(slug) > MAX_LENGTH:\n          head = slug[: MAX_LENGTH + 1].rsplit("-", 1)[0]\n          slug = head if len(head) <= MAX_LENGTH else slug[:MAX_LENGTH]\n');
  await t.edit('all-offered-green', 'assistant.mdx', '        README forbids; the revision cuts at the last whole word that fits.\n', '        README forbids; the revision cuts at the last whole word that fits.\n      reviewOnly: The two versions differ only in a variable name.\n');

  // Every wrong suggestion fails a visible test as offered: nothing is wrong the way real ones are.
  await t.add('nothing-plausible', {}, 'lab');
  const hiddenTests = (await t.read('nothing-plausible', HIDDEN)).split('class HiddenSlugTest(unittest.TestCase):\n')[1]!.split('\n\nif __name__')[0]!;
  await t.edit('nothing-plausible', VISIBLE, '\n\nif __name__', `\n\n${hiddenTests}\n\n    def test_no_cache(self):\n        import src.slug as module\n        self.assertFalse(hasattr(module, "_SLUGS") or hasattr(slugify, "cache_info"))\n\n\nif __name__`);

  // The table disagrees with the judge: the offered separators behave differently under the table's driver.
  await t.add('table-disagrees', {}, 'lab');
  await t.edit('table-disagrees', 'assistant.mdx', '      slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")\n', '      slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")\n      import sys\n      slug = slug if "driver" not in sys.argv[0] else slug.upper()\n');

  // The rubric hires an answer that accepts everything as offered.
  await t.add('calibration', {}, 'lab');
  await t.edit('calibration', 'rubric.mdx', 'hireBar: 7', 'hireBar: 5');
  await t.edit('calibration', 'rubric.mdx', 'vetoes:\n  - row: choices\n    atMost: 1\n    note: Green tests with the assistant\'s mistakes kept is a no.\n', 'vetoes: []\n');

  const io = memoryIo(t.root, { env: process.env });
  exitCode = await runCli(['rehearse', '--no-cache', '--report', 'report.json'], io);
  report = JSON.parse(await readFile(path.join(t.root, 'report.json'), 'utf8'));
}, 600_000);

afterAll(() => t?.dispose());

const packet = (id: string) => report.packets.find((p) => p.id === id)!;
const defects = (id: string) => packet(id).checks.filter((c) => !c.ok).map((c) => `${c.id} ${c.code}`);

describe('packet rehearse on planted lab defects', () => {
  it('exits 1, and passes the untouched scaffold lab', () => {
    expect(exitCode).toBe(1);
    expect(packet('healthy').status).toBe('fails-closed');
    expect(packet('healthy').checks.map((c) => c.id)).toEqual([
      'lab:key',
      'lab:reject:separators',
      'lab:wrong:separators:revise',
      'lab:reject:length-cut',
      'lab:wrong:length-cut:accept',
      'lab:wrong:cache:accept',
      'lab:wrong:cache:revise',
      'lab:all-offered',
      'lab:plausible',
      'lab:calibration',
      'lab:table',
    ]);
    expect(packet('healthy').checks.find((c) => c.id === 'lab:table')!.actual).toMatch(/^27 combinations .* 8 judged: they agree$/);
  });

  it("names a key whose own combination is not green (PK470)", () => {
    expect(defects('key-red')).toEqual(['lab:key PK470']);
    expect(packet('key-red').defects[0]).toMatch(/held-out test failed: tests\/test_hidden_slug\.py::HiddenSlugTest::test_cut_at_a_whole_word/);
  });

  it('names a wrong choice no test catches and nobody declared review-only (PK471)', () => {
    // The other suggestions' wrong versions are review-only, so accepting everything is green too.
    expect(defects('wrong-uncaught')).toEqual(['lab:wrong:length-cut:accept PK471', 'lab:all-offered PK473']);
  });

  it('names a needed suggestion whose rejection stays green (PK472)', () => {
    expect(defects('right-rejected')).toEqual(['lab:reject:cache PK472']);
  });

  it('names a lab where accepting everything is green (PK473)', () => {
    expect(defects('all-offered-green')).toEqual(['lab:all-offered PK473']);
  });

  it('names a lab where the visible tests catch every wrong suggestion (PK474)', () => {
    expect(defects('nothing-plausible')).toEqual(['lab:plausible PK474']);
  });

  it('names a table that disagrees with the judge (PK475)', () => {
    expect(defects('table-disagrees')).toEqual(['lab:table PK475']);
    expect(packet('table-disagrees').defects[0]).toMatch(/For the combination separators=accept, length-cut=revise, cache=reject the precomputed test table says 6 failing \(.*\), and the judge's own run says every test passes/);
  });

  it('names a rubric that hires the accept-everything answer (PK476)', () => {
    expect(defects('calibration')).toEqual(['lab:calibration PK476']);
  });
});
