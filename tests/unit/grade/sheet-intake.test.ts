import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDrillSheetStrict, readLabSheetStrict, readSheetBytes } from '../../../src/grade/sheet-intake.ts';
import { DRILL_SHEET_KIND, LAB_SHEET_KIND, TIMELINE_LIMIT } from '../../../src/labs/sheet-read.ts';

const target = { id: 'lab-x', version: '1.0.0', digest: 'a'.repeat(64), suggestions: ['one', 'two', 'three'] };
const drillTarget = { id: 'drill-x', version: '2.0.0', digest: 'b'.repeat(64), diffs: ['d1', 'd2', 'd3'] };

function lab(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schemaVersion: 1,
    kind: LAB_SHEET_KIND,
    id: 'lab-x',
    version: '1.0.0',
    digest: 'a'.repeat(64),
    date: '2026-12-02T10:00:00.000Z',
    plan: { endState: 'e', checkpoints: 'c', invariant: 'i', byHand: 'b' },
    suggestions: [
      { id: 'one', choice: 'accept', reason: '' },
      { id: 'two', choice: 'revise', reason: 'r' },
      { id: 'three', choice: 'reject', hand: '    x = 1\n', reason: 'h' },
    ],
    ...over,
  };
}
const read = (v: unknown) => readLabSheetStrict(Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)), 'ada.json', target);
const refusal = (v: unknown) => {
  const r = read(v);
  if (r.ok) throw new Error('expected a refusal');
  return r.refusal;
};

describe('readLabSheetStrict', () => {
  it('reads a sheet the page exports, in the packet order, with its timeline', () => {
    const r = read(lab({ timeline: [{ at: '2026-12-02T10:00:00.000Z', action: 'accept', id: 'one' }] }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.warnings).toEqual([]);
    expect(r.sheet.suggestions.map((s) => [s.id, s.choice, s.hand ?? null])).toEqual([
      ['one', 'accept', null],
      ['two', 'revise', null],
      ['three', 'reject', '    x = 1\n'],
    ]);
    expect(r.sheet.timeline).toEqual([{ at: '2026-12-02T10:00:00.000Z', action: 'accept', id: 'one' }]);
  });

  it('refuses a sheet of another version, naming both versions and digests', () => {
    const f = refusal(lab({ version: '0.9.0', digest: 'c'.repeat(64) }));
    expect(f.code).toBe('PK562');
    expect(f.message).toContain(`version 0.9.0, digest ${'c'.repeat(64)}`);
    expect(f.message).toContain(`version 1.0.0, digest ${'a'.repeat(64)}`);
    expect(refusal(lab({ digest: 'c'.repeat(64) })).code).toBe('PK562');
    expect(refusal(lab({ id: 'lab-y' })).code).toBe('PK561');
  });

  it('refuses what is not a sheet of this kind and format', () => {
    expect(refusal('{"kind":').code).toBe('PK560');
    expect(refusal([1, 2]).message).toContain('an array');
    expect(refusal(lab({ kind: DRILL_SHEET_KIND })).message).toContain('answer sheet of a drill');
    expect(refusal(lab({ schemaVersion: 2 })).message).toContain('"schemaVersion" is the number 2');
    expect(readLabSheetStrict(Buffer.from([0xff, 0xfe, 0x00]), 'ada.json', target)).toMatchObject({ ok: false, refusal: { code: 'PK560' } });
  });

  it('refuses a duplicated, unknown or missing answer by field', () => {
    const dup = lab();
    (dup.suggestions as unknown[]).push({ id: 'one', choice: 'reject', reason: 'again' });
    expect(refusal(dup).message).toContain('"suggestions[3].id" of the answer sheet ada.json answers "one" again (first at suggestions[0])');
    const ghost = lab();
    (ghost.suggestions as unknown[])[2] = { id: 'four', choice: null, hand: 'y = 2\n', reason: '' };
    expect(refusal(ghost).message).toContain('"suggestions[2].id"');
    expect(refusal(ghost).message).toContain('"four"');
    const missing = lab({ suggestions: (lab().suggestions as unknown[]).slice(0, 2) });
    expect(refusal(missing).message).toContain('"suggestions" of the answer sheet ada.json has no answer for "three"');
  });

  it('refuses a choice outside the set and fields of the wrong type or size', () => {
    const s = (over: Record<string, unknown>) => lab({ suggestions: [{ id: 'one', choice: 'accept', reason: '', ...over }, ...(lab().suggestions as unknown[]).slice(1)] });
    expect(refusal(s({ choice: 'approve' })).message).toMatch(/"suggestions\[0\]\.choice" .* is the string "approve"/);
    expect(refusal(s({ choice: undefined })).message).toContain('"suggestions[0].choice"');
    expect(refusal(s({ reason: 7 })).message).toContain('"suggestions[0].reason" of the answer sheet ada.json is the number 7, not a string');
    expect(refusal(s({ hand: ['x'] })).message).toContain('"suggestions[0].hand"');
    expect(refusal(s({ reason: 'x'.repeat(20_001) })).message).toContain('past the cap of 20000');
    expect(refusal(lab({ plan: 'none' })).message).toContain('"plan"');
    expect(refusal(lab({ plan: { endState: 'e', checkpoints: 'c', invariant: 'i' } })).message).toContain('"plan.byHand"');
    expect(refusal(lab({ candidate: { name: 'x' } })).message).toContain('"candidate"');
    expect(refusal(lab({ suggestions: 'all' })).message).toContain('"suggestions"');
  });

  it('flags and ignores fields the page never writes, never believing them', () => {
    const s = lab({ score: 10, results: { testsGreen: true } });
    (s.suggestions as Record<string, unknown>[])[0]!.matches = true;
    const r = read(s);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.warnings.map((w) => [w.code, w.severity])).toEqual([
      ['PK564', 'warning'],
      ['PK564', 'warning'],
      ['PK564', 'warning'],
    ]);
    expect(r.warnings.map((w) => /"([^"]+)"/.exec(w.message)?.[1])).toEqual(['score', 'results', 'suggestions[0].matches']);
    expect(r.sheet).not.toHaveProperty('score');
    // A sheet stuffed with fields: twenty named, the rest counted in one warning.
    const stuffed = read(lab(Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`f${i}`, i]))));
    expect(stuffed.ok && stuffed.warnings.length).toBe(21);
    expect(stuffed.ok && stuffed.warnings.at(-1)!.message).toContain('… and 480 more fields');
  });

  it('warns of an open choice, and checks the timeline by hand', () => {
    const open = lab();
    (open.suggestions as Record<string, unknown>[])[0]!.choice = null;
    const r = read(open);
    expect(r.ok && r.warnings.map((w) => w.code)).toEqual(['PK567']);
    expect(refusal(lab({ timeline: {} })).message).toContain('"timeline"');
    expect(refusal(lab({ timeline: [{ at: 'yesterday', action: 'accept' }] })).message).toContain('"timeline[0].at"');
    expect(refusal(lab({ timeline: [{ at: '2026-12-02T10:00:00Z', action: 'score' }] })).message).toContain('"timeline[0].action"');
    expect(refusal(lab({ timeline: [{ at: '2026-12-02T10:00:00Z', action: 'accept', detail: 'x'.repeat(201) }] })).message).toContain('"timeline[0].detail"');
    const many = Array.from({ length: TIMELINE_LIMIT + 1 }, () => ({ at: '2026-12-02T10:00:00Z', action: 'accept' }));
    expect(refusal(lab({ timeline: many })).message).toContain(`past the cap of ${TIMELINE_LIMIT}`);
  });
});

describe('readDrillSheetStrict', () => {
  const drill = (diffs: unknown[]) => Buffer.from(JSON.stringify({ schemaVersion: 1, kind: DRILL_SHEET_KIND, id: 'drill-x', version: '2.0.0', digest: 'b'.repeat(64), date: 'd', diffs }));
  it('reads verdicts and refuses one outside the set by field', () => {
    const good = readDrillSheetStrict(drill([{ id: 'd1', verdict: 'accept', reason: 'r' }, { id: 'd2', verdict: 'accept-with-change', reason: 'r', change: 'c' }, { id: 'd3', verdict: 'reject', reason: 'r' }]), 'bo.json', drillTarget);
    expect(good.ok && good.sheet.diffs.map((d) => d.verdict)).toEqual(['accept', 'accept-with-change', 'reject']);
    const bad = readDrillSheetStrict(drill([{ id: 'd1', verdict: 'merge', reason: 'r' }, { id: 'd2', verdict: null, reason: '' }, { id: 'd3', verdict: 'reject', reason: 'r' }]), 'bo.json', drillTarget);
    expect(bad).toMatchObject({ ok: false, refusal: { code: 'PK563' } });
    expect(!bad.ok && bad.refusal.message).toContain('"diffs[0].verdict" of the answer sheet bo.json is the string "merge"');
  });
  it('refuses a lab sheet given for a drill', () => {
    const r = readDrillSheetStrict(Buffer.from(JSON.stringify(lab())), 'bo.json', drillTarget);
    expect(!r.ok && r.refusal.message).toContain('answer sheet of a lab');
  });
});

describe('readSheetBytes', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sheet-bytes-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  it('reads a file under the cap with its sha256, and refuses one over it, a link or a folder', async () => {
    await writeFile(path.join(dir, 'a.json'), '{}');
    const ok = await readSheetBytes(path.join(dir, 'a.json'), 'a.json');
    expect(ok).toMatchObject({ ok: true, sha256: '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a' });
    await writeFile(path.join(dir, 'big.json'), 'x'.repeat(101));
    expect(await readSheetBytes(path.join(dir, 'big.json'), 'big.json', 100)).toMatchObject({ ok: false, refusal: { code: 'PK560', message: expect.stringContaining('past the cap of 100') } });
    await symlink(path.join(dir, 'a.json'), path.join(dir, 'link.json'));
    expect(await readSheetBytes(path.join(dir, 'link.json'), 'link.json')).toMatchObject({ ok: false, refusal: { message: expect.stringContaining('symbolic link') } });
    expect(await readSheetBytes(dir, 'dir')).toMatchObject({ ok: false, refusal: { message: expect.stringContaining('not a regular file') } });
  });
});
