import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradeSubmissions, summaryCsv, type GradeSummary } from '../../../src/grade/grade.ts';
import type { Scorecard } from '../../../src/judge/scorecard.ts';
import { loadPacketFiles } from '../../../src/judge/workspace.ts';
import { loadPackets } from '../../../src/packets/load.ts';
import { codePackets } from '../../../src/packets/packet.ts';
import type { RunResult, RunSpec, Sandbox } from '../../../src/sandbox/types.ts';
import { seal } from '../../../src/judge/harness/record.ts';
import { tempPackets, type TempPackets } from '../../support/packet-fixtures.ts';
import { zipOf } from '../../support/zip-of.ts';

/**
 * `packet grade` end to end on submissions that attack the reports rather than the tests: a zip
 * whose entry `src//duration.py` is not its own normal form (refused by name, PK513), and one
 * whose run prints a forged "**PASS**, decision so far: **hire**" card, an ESC sequence, a
 * 100 KB test id and a spreadsheet formula, and whose files carry the same in their names and
 * lines. The run itself is a stand-in sandbox that prints what such code would print, so the
 * test needs no Python: the runner's text is the submission's, whoever prints it.
 */
const FORGED = '**PASS**, decision so far: **hire**';
const FORMULA = '=HYPERLINK("evil.test?q=1","hire")';
const LONG = `test_${'a'.repeat(100_000)}`;
const ESC = '\x1b[2J\x1b[31m';
const where = 'tests.test_duration.TestDuration';
const output = [
  `FAIL: test_single_unit (${where}.test_single_unit)`,
  `FAIL: ${FORGED.replace(/ /g, '_')} (${where}.${FORGED.replace(/ /g, '_')})`,
  `FAIL: test_hours_and_minutes (${where}.test_hours_and_minutes\n\n# Decision: hire\n\n${FORGED}\n\n| hire | 10 / 10 | forged row |\n)`,
  `ERROR: test_${ESC}red (${where}.test_${ESC}red)`,
  `FAIL: ${LONG} (${where}.${LONG})`,
  `FAIL: ${FORMULA} (${where}.${FORMULA})`,
  '',
  FORGED,
  `${ESC}all green`,
  '----------------------------------------------------------------------',
  'Ran 6 tests in 0.010s',
  '',
  'FAILED (failures=5, errors=1)',
].join('\n');

/**
 * The harness's record of such a run, sealed with the run's key as the harness would seal it: the
 * failing tests carry the same hostile names and messages (the messages are the code's words).
 */
function hostileRecord(key: Buffer): string {
  const names = ['test_single_unit', FORGED.replace(/ /g, '_'), `test_hours_and_minutes\n\n# Decision: hire\n\n${FORGED}\n\n| hire | 10 / 10 | forged row |\n`, `test_${ESC}red`, LONG, FORMULA];
  const events = [
    { kind: 'hello' },
    ...names.map((n, i) => ({ kind: 'test', id: `${where}.${n}`, file: 'tests/test_duration.py', outcome: i === 3 ? 'error' : 'failed', message: `AssertionError: ${FORGED}\n# Decision: hire ${ESC}`, subtestsFailed: 0, tampered: false })),
    { kind: 'done' },
  ];
  return events.map((e, seq) => {
    const body = JSON.stringify({ ...e, seq });
    return `${body} ${seal(key, body)}\n`;
  }).join('');
}

/** A sandbox that prints, and records, what hostile code under test would; nothing runs. */
const printing: Sandbox = {
  kind: 'unconfined',
  run: async (spec: RunSpec): Promise<RunResult> => ({
    kind: 'unconfined', exitCode: 1, signal: null, timedOut: false, outputFlooded: false, stdout: output, stderr: '', stdoutTruncated: false, stderrTruncated: false, durationMs: 5, cwd: spec.workdir,
    ...(spec.channels ? { record: hostileRecord(spec.channels.inputs[3]!), recordTruncated: false } : {}),
  }),
};

let t: TempPackets;
let out: string;
let cards: Scorecard[];
let summary: GradeSummary;

beforeAll(async () => {
  t = await tempPackets();
  const dir = await t.add('scaffold');
  const { packets: loadedPackets } = await loadPackets({ packetsDir: t.packets, cwd: t.root });
  const packets = codePackets(loadedPackets);
  const packet = packets.find((p) => p.id === 'scaffold')!;
  const files = await loadPacketFiles(packet, dir);
  const sample = await readFile(path.join(dir, 'sample/src/duration.py'), 'utf8');
  const subs = path.join(t.root, 'subs');
  await mkdir(subs);
  // yazl writes a name as it is given, so the hostile spelling reaches the archive.
  await zipOf(path.join(subs, 'overlay.zip'), { 'scaffold-0.1.0/src/duration.py': sample, 'scaffold-0.1.0/src//duration.py': 'def parse_duration(text):\n    return 0\n' });
  await zipOf(path.join(subs, 'spelled.zip'), { 'scaffold-0.1.0/src//duration.py': sample });
  await zipOf(path.join(subs, `${FORMULA}.zip`), {
    'src/duration.py': `${sample}\n\ndef fallback():\n    return 0  # ${FORGED} <img src=x onerror=alert(1)> ${ESC}\n`,
    [`${FORMULA}.txt`]: 'outside the allowed paths\n',
    'NOTES.md': 'notes\n',
  });
  out = path.join(t.root, 'out');
  ({ cards, summary } = await gradeSubmissions({
    files,
    submissions: ['overlay.zip', 'spelled.zip', `${FORMULA}.zip`].map((f) => path.join(subs, f)),
    outDir: out,
    runner: { sandbox: printing, mounts: { pathPrepend: [], readOnlyPaths: [] }, timeoutMs: 10_000 },
    sandboxKind: 'unconfined',
    scratchDir: t.root,
    jobs: 1,
    kitVersion: '0.0.0-test',
    date: () => new Date('2026-11-30T12:00:00Z'),
    now: () => 0,
    random: () => 0.5,
  }));
}, 60_000);

afterAll(() => t.dispose());

const card = async (name: string) => JSON.parse(await readFile(path.join(out, name, 'scorecard.json'), 'utf8')) as Scorecard;

describe('grading a path that is not its own normal form', () => {
  it('refuses src//duration.py by name in scorecard.json, and as a duplicate when it spells a file already there', async () => {
    const spelled = await card('spelled');
    expect(spelled).toMatchObject({ graded: false, verdict: 'REFUSED', tests: null, decision: { state: 'not-graded' } });
    expect(spelled.findings.map((f) => [f.code, f.kind])).toEqual([['PK513', 'intake']]);
    expect(spelled.findings[0]!.message).toContain('"scaffold-0.1.0/src//duration.py", which holds an empty segment');
    expect(spelled.findings[0]!.message).toContain('it is "scaffold-0.1.0/src/duration.py"');
    const overlay = await card('overlay');
    expect(overlay).toMatchObject({ graded: false, verdict: 'REFUSED' });
    expect(overlay.findings.map((f) => f.code)).toEqual(['PK505']);
    expect(overlay.findings[0]!.message).toContain('"scaffold-0.1.0/src//duration.py" and "scaffold-0.1.0/src/duration.py"');
    expect(summary.rows.filter((r) => !r.graded).map((r) => [r.name, r.codes])).toEqual([
      ['overlay', ['PK505']],
      ['spelled', ['PK513']],
    ]);
  });
});

describe('what a submission prints or names, in the reports', () => {
  const name = 'HYPERLINK-evil.test-q-1-hire';

  it('grades it (red) and keeps its words out of the card\'s own', async () => {
    expect(cards.map((c) => c.submission.name)).toEqual(['overlay', 'spelled', name]);
    const c = cards[2]!;
    expect(c.graded).toBe(true);
    expect(c.verdict).toBe('CAUGHT');
    expect(c.decision.state).toBe('no-hire');
  });

  it('caps every id and sentence in scorecard.json: 200 characters an id, 2,000 a finding', async () => {
    const text = await readFile(path.join(out, name, 'scorecard.json'), 'utf8');
    expect(text.length).toBeLessThan(40_000);
    expect(text).not.toContain('\x1b');
    const c = JSON.parse(text) as Scorecard;
    const ids = [...c.tests!.failingVisible, ...c.tests!.failingHidden, ...c.tests!.failing];
    expect(ids.some((id) => id.includes('aaaa'))).toBe(true);
    for (const id of ids) expect(id.length).toBeLessThanOrEqual(200 + '… (100000 more characters)'.length);
    expect(ids.find((id) => id.includes('aaaa'))).toMatch(/… \(\d+ more characters\)$/);
    for (const f of c.findings) expect(f.message.length).toBeLessThanOrEqual(2000 + '… (100000 more characters)'.length);
    // JSON stays JSON: the id still says what the runner printed, its controls escaped by JSON itself.
    expect(ids.some((id) => id.includes('\x1b[2J'))).toBe(true);
  });

  it('writes scorecard.md with none of it raw: no forged bold, heading, row, tag, escape or 100 KB line', async () => {
    const md = await readFile(path.join(out, name, 'scorecard.md'), 'utf8');
    expect(md).not.toContain(FORGED);
    expect(md).not.toContain('**PASS**');
    expect(md).not.toContain('**hire**');
    expect(md).not.toContain('\x1b');
    expect(md).not.toMatch(/(?<!\\)<img/);
    expect(md).toContain('\\<img src=x onerror=alert(1)\\>');
    expect(md).not.toMatch(/^# Decision/m);
    expect(md).not.toMatch(/^\| hire/m);
    expect(md.split('\n').map((l) => l.match(/^#+ .*/)?.[0]).filter(Boolean)).toEqual([`# scaffold 0.1.0: ${name.replace(/_/g, '\\_')}`, '## Findings', '## Failing tests', '## Next step']);
    for (const line of md.split('\n')) expect(line.length).toBeLessThan(4200);
    expect(md.length).toBeLessThan(40_000);
    // Shown, escaped, and labelled as the submission's.
    expect(md).toContain('test\\_\\\\u001b\\[2J\\\\u001b\\[31mred');
    expect(md).toContain('from the submission, not verified');
    expect(md).toMatch(/^> - visible: tests\/test\\_duration\.py::TestDuration::test\\_single\\_unit$/m);
    expect(md).toContain('\\*\\*PASS\\*\\*, decision so far: \\*\\*hire\\*\\*');
    expect(md).toMatch(/test\\_a{100,}… \(\d{5} more characters\)/);
  });

  it('writes summary.csv with no cell a spreadsheet would run', async () => {
    const csv = await readFile(path.join(out, 'summary.csv'), 'utf8');
    expect(csv).not.toContain('\x1b');
    for (const line of csv.trimEnd().split('\n')) {
      for (const cell of line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!) expect(cell).not.toMatch(/^"?[=+\-@\t\r]/);
    }
    expect(csv.trimEnd().split('\n')).toHaveLength(4);
    expect((await readdir(out)).sort()).toEqual(['overlay', 'spelled', name, 'summary.csv', 'summary.json'].sort());
    const forged = summaryCsv({ ...summary, rows: [{ ...summary.rows[2]!, name: FORMULA, decision: `-1+1\n${ESC}`, codes: ['@SUM(A1)'] }] }).split('\n')[1]!;
    expect(forged).toMatch(/^"'=HYPERLINK\(""evil\.test\?q=1"",""hire""\)",/);
    expect(forged).toContain(`,"'@SUM(A1)",`);
    expect(forged).toContain(`,"'-1+1\\n\\u001b[2J\\u001b[31m",`);
  });
});
