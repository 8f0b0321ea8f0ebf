import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CALIBRATION_KEY_KIND, SCORED_SHEET_KIND, SCORED_SHEET_SCHEMA_VERSION } from '../../../src/judge/scorecard-format.ts';
import { memoryIo } from '../../../src/cli/io.ts';
import { runCli } from '../../../src/cli/run-cli.ts';
import { loadPackets } from '../../../src/packets/load.ts';

const PACKETS = path.resolve(import.meta.dirname, '../../../packets');
const ID = 'red-log-gate';
let digest = '';
let dir = '';

beforeAll(async () => {
  const loaded = await loadPackets({ packetsDir: PACKETS, cwd: PACKETS, ids: [ID] });
  digest = loaded.packets.find((p) => p.id === ID)!.digest;
});
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = '';
});

const sha = (n: number) => String(n).repeat(64).slice(0, 64);
/** A sheet as the rubric page exports it (red-log-gate: tests 3, red-is-real 3, order 3, green-honest 2, refusal 2; hire bar 10). */
function sheet(reviewer: string, n: number, scores: Record<string, number>, extra: Record<string, unknown> = {}) {
  return { schemaVersion: SCORED_SHEET_SCHEMA_VERSION, kind: SCORED_SHEET_KIND, id: ID, version: '1.0.0', digest, scores, decision: {}, reviewer, submission: { name: `cal-0${n}`, sha256: sha(n) }, blind: true, date: '2026-12-01T10:00:00.000Z', ...extra };
}
const full = (tests: number, real: number, order: number, green: number, refusal: number) => ({ tests, 'red-is-real': real, order, 'green-honest': green, refusal });

/** Five submissions, three reviewers: they agree on every row but `order`, where they split. */
const BATCH: [string, number, Record<string, number>][] = [
  ['ann', 1, full(3, 3, 3, 2, 2)], ['bob', 1, full(3, 3, 0, 2, 2)], ['cat', 1, full(3, 3, 1, 2, 2)],
  ['ann', 2, full(3, 2, 0, 1, 1)], ['bob', 2, full(3, 2, 3, 1, 1)], ['cat', 2, full(3, 2, 2, 1, 1)],
  ['ann', 3, full(0, 0, 2, 0, 0)], ['bob', 3, full(0, 0, 0, 0, 0)], ['cat', 3, full(0, 0, 3, 0, 0)],
  ['ann', 4, full(3, 3, 1, 2, 1)], ['bob', 4, full(3, 3, 3, 2, 1)], ['cat', 4, full(3, 3, 0, 2, 1)],
  ['ann', 5, full(1, 1, 3, 1, 0)], ['bob', 5, full(1, 1, 1, 1, 0)], ['cat', 5, full(1, 1, 2, 1, 0)],
];

async function write(files: Record<string, unknown>): Promise<string> {
  dir = await mkdtemp(path.join(tmpdir(), 'packet-kit-agreement-'));
  for (const [name, body] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), typeof body === 'string' ? body : JSON.stringify(body));
  }
  return dir;
}
const batchFiles = () => Object.fromEntries(BATCH.map(([r, n, s]) => [`sheets/${r}-${n}.json`, sheet(r, n, s)]));
async function run(args: string[]) {
  const io = memoryIo(dir);
  const code = await runCli(['agreement', ...args, '--packets', PACKETS], io);
  return { code, out: io.stdout, err: io.stderr };
}

describe('packet agreement', () => {
  it('names the row the reviewers split on, with the submissions, and writes JSON, Markdown and HTML', async () => {
    await write({ ...batchFiles(), 'sheets/scorecard.json': { kind: 'packet-kit/scorecard' } });
    const { code, out, err } = await run(['sheets', '--json', 'out/a.json', '--markdown', 'out/a.md', '--html', 'out/a.html']);
    expect(err).toBe('');
    expect(code).toBe(1);
    expect(out).toContain('3 reviewers (ann, bob, cat), 5 submissions');
    expect(out).toMatch(/row "order" is too vague \(alpha -?0\.\d\d, under 0\.6\): the reviewers split on cal-0\d \(ann \d, bob \d, cat \d\)/);
    expect(out).toContain('(1 JSON file in the folders named is not a scored sheet and was left out)');
    const report = JSON.parse(await readFile(path.join(dir, 'out/a.json'), 'utf8'));
    expect(report.kind).toBe('packet-kit/agreement');
    expect(report.vague.rows).toEqual(['order']);
    const rows = Object.fromEntries(report.rows.map((r: { id: string; alpha: number | null }) => [r.id, r.alpha]));
    expect(rows.tests).toBe(1);
    expect(rows['red-is-real']).toBe(1);
    expect(rows.order).toBeLessThan(0.6);
    expect(report.rows.find((r: { id: string }) => r.id === 'order').splits).toHaveLength(5);
    expect(report.totals.submissions).toBe(5);
    expect(report.totals.icc).toBeGreaterThan(0.75);
    expect(report.totals.interval.lower).toBeLessThan(report.totals.icc);
    expect(report.rows[0].kappa).toBeNull();
    // cal-01: ann 13 hire, bob 10 hire, cat 11 hire: the median per row is order 1, a total of 11, a hire.
    expect(report.submissions.find((s: { label: string }) => s.label === 'cal-01').combined).toMatchObject({ decision: 'hire', total: 11, sheets: 3 });
    expect(report.method.intervals).toBe('95% percentile bootstrap over submissions, 1000 resamples, seed 23 (the same sheets give the same intervals)');
    expect(await readFile(path.join(dir, 'out/a.md'), 'utf8')).toContain('| order |');
    const html = await readFile(path.join(dir, 'out/a.html'), 'utf8');
    expect(html).toContain('<svg');
    expect(html).not.toContain('<script');
    const again = await run(['sheets', '--json', 'out/b.json']);
    expect(again.code).toBe(1);
    expect(await readFile(path.join(dir, 'out/b.json'), 'utf8')).toBe(await readFile(path.join(dir, 'out/a.json'), 'utf8'));
  });

  it('gives quadratic kappa for two reviewers, and exits 0 when every row agrees', async () => {
    const two = BATCH.filter(([r]) => r !== 'cat').map(([r, n, s]) => [r, n, { ...s, order: 2 }] as const);
    await write(Object.fromEntries(two.map(([r, n, s]) => [`${r}-${n}.json`, sheet(r, n, s)])));
    const { code, out } = await run(['.']);
    expect(out).toContain('every row, the totals and the decisions agree well enough');
    expect(out).toMatch(/kappa/);
    expect(code).toBe(0);
  });

  it('escapes what a sheet says wherever it is shown', async () => {
    const evil = '<img src=x onerror=alert(1)>|\u001b[2J';
    await write({ 'a.json': sheet(evil, 1, full(3, 3, 3, 2, 2)), 'b.json': sheet('bob', 1, full(3, 3, 0, 2, 2)), 'c.json': sheet(evil, 2, full(1, 1, 1, 1, 1)), 'd.json': sheet('bob', 2, full(1, 1, 2, 1, 1)) });
    const { out } = await run(['.', '--html', 'a.html', '--markdown', 'a.md']);
    expect(out).not.toContain('\u001b');
    const html = await readFile(path.join(dir, 'a.html'), 'utf8');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img');
    const md = await readFile(path.join(dir, 'a.md'), 'utf8');
    expect(md).not.toMatch(/[^\\]<img/);
    expect(md).toContain('\\<img src=x onerror=alert(1)\\>\\|\\\\u001b');
  });

  it('compares each reviewer with a calibration key and names the one off it', async () => {
    const key = {
      kind: CALIBRATION_KEY_KIND,
      schemaVersion: 1,
      packet: { id: ID, version: '1.0.0', digest },
      submissions: [
        { name: 'cal-01', sha256: sha(1), source: 'sample', expected: { decision: 'hire', reason: 'the sample', scores: { tests: 3 } } },
        { name: 'cal-03', sha256: sha(3), source: 'mutant:swallow', expected: { decision: 'no-hire', reason: 'caught', scores: { tests: 0 } } },
      ],
    };
    await write({
      'key.json': key,
      'ann-1.json': sheet('ann', 1, full(3, 3, 2, 2, 2)),
      'ann-3.json': sheet('ann', 3, full(0, 0, 0, 0, 0)),
      'bob-1.json': sheet('bob', 1, full(3, 0, 2, 2, 2)),
      'bob-3.json': sheet('bob', 3, full(2, 3, 3, 2, 2)),
    });
    const { code, out } = await run(['ann-1.json', 'ann-3.json', 'bob-1.json', 'bob-3.json', '--key', 'key.json']);
    expect(code).toBe(1);
    expect(out).toContain('ann: 2 of 2 decisions match, 0 rows off (calibrated)');
    expect(out).toContain('bob: 0 of 2 decisions match, 1 rows off (OFF THE KEY)');
    expect(out).toContain('bob is off the key: cal-01: no-hire, the key says hire; cal-03: hire, the key says no-hire; cal-03 row tests: 2, the key says 0');
  });

  it('counts one reviewer whose name is spelled with other case or spacing as one', async () => {
    await write({ 'a.json': sheet('Ann  Lee', 1, full(3, 3, 3, 2, 2)), 'b.json': sheet('bob', 1, full(3, 3, 3, 2, 2)), 'c.json': sheet('ann lee', 2, full(1, 1, 1, 1, 1)), 'd.json': sheet('bob', 2, full(1, 1, 1, 1, 1)) });
    const { out } = await run(['a.json', 'b.json', 'c.json', 'd.json']);
    expect(out).toContain('2 reviewers (Ann  Lee, bob), 2 submissions');
  });

  it('never writes a report over a sheet it read, and writes nothing then', async () => {
    await write(batchFiles());
    const before = await readFile(path.join(dir, 'sheets/ann-1.json'), 'utf8');
    const { code, err } = await run(['sheets', '--markdown', 'out/a.md', '--json', 'sheets/ann-1.json']);
    expect(code).toBe(2);
    expect(err).toContain('PK557');
    expect(err).toContain('sheets/ann-1.json is a file this command read');
    expect(await readFile(path.join(dir, 'sheets/ann-1.json'), 'utf8')).toBe(before);
    await expect(readFile(path.join(dir, 'out/a.md'), 'utf8')).rejects.toThrow();
  });

  it('refuses the sheets of one reviewer without a key', async () => {
    await write({ 'a.json': sheet('ann', 1, full(3, 3, 3, 2, 2)) });
    const { code, err } = await run(['a.json']);
    expect(code).toBe(2);
    expect(err).toContain('PK555');
  });
});

describe('packet agreement refuses sheets it cannot use, naming the file, the field and the fix', () => {
  it.each([
    ['not JSON', '{', 'PK550'],
    ['a scorecard named directly', { kind: 'packet-kit/scorecard' }, 'PK551'],
    ['no reviewer', () => sheet(' ', 2, full(1, 1, 1, 1, 1)), 'PK551'],
    ['a score out of range', () => sheet('cat', 2, { ...full(1, 1, 1, 1, 1), order: 4 }), 'PK551'],
    ['a row the rubric lacks', () => sheet('cat', 2, { speed: 1 }), 'PK551'],
    ['no submission and no candidate', () => ({ ...sheet('cat', 2, full(1, 1, 1, 1, 1)), submission: undefined }), 'PK551'],
    ['a bad sha256', () => sheet('cat', 2, full(1, 1, 1, 1, 1), { submission: { name: 'x', sha256: 'abc' } }), 'PK551'],
    ['a twice-scored submission', () => sheet('ann', 1, full(1, 1, 1, 1, 1)), 'PK554'],
    ['a twice-scored submission, the reviewer spelled with other case and spacing', () => sheet(' ANN ', 1, full(1, 1, 1, 1, 1)), 'PK554'],
    ['a twice-scored submission, the reviewer spelled with a full-width letter', () => sheet('\uff41nn', 1, full(1, 1, 1, 1, 1)), 'PK554'],
    ['a score above the cap a matched failure mode put on its row', () => sheet('cat', 2, full(1, 1, 3, 1, 1), { caps: { order: { mode: 'reordered', max: 1 } } }), 'PK551'],
    ['another packet version', () => sheet('cat', 2, full(1, 1, 1, 1, 1), { digest: 'f'.repeat(64) }), 'PK552'],
  ] as const)('%s', async (_, body, code) => {
    await write({ 'ann-1.json': sheet('ann', 1, full(3, 3, 3, 2, 2)), 'bob-1.json': sheet('bob', 1, full(3, 3, 3, 2, 2)), 'bad.json': typeof body === 'function' ? body() : body });
    const r = await run(['ann-1.json', 'bob-1.json', 'bad.json']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain(code);
    expect(r.err).toMatch(/bad\.json|ann-1\.json/);
  });

  it('says what a bad field is and how to fix it', async () => {
    await write({ 'ann-1.json': sheet('ann', 1, full(3, 3, 3, 2, 2)), 'bad.json': sheet('cat', 2, { ...full(1, 1, 1, 1, 1), order: 4 }) });
    const r = await run(['ann-1.json', 'bad.json']);
    expect(r.err).toMatchInlineSnapshot(`
      "bad.json PK551 error The field "scores.order" of this scored sheet is 4, not a whole number from 0 to 3. No agreement was computed.
        hint: Score row "order" from 0 to 3; a sheet exported by the rubric page has it right, so export the card again rather than edit the file.
      "
    `);
  });

  it('refuses sheets of a packet version the packets folder does not hold', async () => {
    await write({ 'a.json': sheet('ann', 1, full(3, 3, 3, 2, 2), { digest: 'e'.repeat(64) }), 'b.json': sheet('bob', 1, full(3, 3, 3, 2, 2), { digest: 'e'.repeat(64) }) });
    const r = await run(['a.json', 'b.json']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('PK553');
    expect(r.err).toContain(`but the packets folder has version`);
  });
});
