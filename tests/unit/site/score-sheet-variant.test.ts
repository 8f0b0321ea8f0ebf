import { describe, expect, it } from 'vitest';
import { LAB_SHEET_KIND } from '../../../src/labs/sheet-read.ts';
import { labSheetReader, type LabScoringData } from '../../../src/site/score-client.ts';

/**
 * The lab's scoring page reads a sheet of a lab with variants by its digest; the `variant` a page
 * writes beside it must name that same variant, as `packet grade` has it (PK582): a sheet whose
 * `variant` says another one, or is not text, was changed after its page exported it.
 */
const suggestions = [{ id: 'cut', ask: 'a', original: '    n = 100\n', offered: '    n = 1000\n', revised: '    n = 500\n' }];
const data: LabScoringData = {
  id: 'lab-x',
  version: '1.0.0',
  digest: 'b'.repeat(64),
  rows: [],
  suggestions,
  variants: [
    { id: 'v1', digest: '1'.repeat(64), suggestions },
    { id: 'v2', digest: '2'.repeat(64), suggestions },
    { id: 'v3', digest: '3'.repeat(64), suggestions },
  ],
};
const sheet = (over: Record<string, unknown>) =>
  JSON.stringify({
    schemaVersion: 1,
    kind: LAB_SHEET_KIND,
    id: 'lab-x',
    version: '1.0.0',
    digest: '3'.repeat(64),
    variant: 'v3',
    date: '2026-12-02T10:00:00.000Z',
    plan: { endState: '', checkpoints: '', invariant: '', byHand: '' },
    suggestions: [{ id: 'cut', choice: 'reject', reason: 'r' }],
    ...over,
  });
const read = labSheetReader(data);

describe("the lab scoring page's reading of a sheet's variant", () => {
  it('reads a sheet whose variant names the variant its digest is, and one without a variant', () => {
    expect(read(sheet({}))).toMatchObject({ ok: true, value: { digest: '3'.repeat(64), variant: 'v3' } });
    expect(read(sheet({ variant: undefined }))).toMatchObject({ ok: true });
  });

  it.each([
    ['another variant', 'v1', /"variant" is v1 and its digest is variant v3's/, 'PK582'],
    ['an upper-case id', 'V3', /"variant" is V3 and its digest is variant v3's/, 'PK581'],
    ['a zero-padded id', 'v03', /"variant" is v03 and its digest is variant v3's/, 'PK581'],
    ['an empty text', '', /"variant" is  and its digest is variant v3's/, 'PK581'],
    ['a number', 3, /"variant" is a number, not a variant's id such as "v3"/, 'PK563'],
    ['null', null, /"variant" is null, not a variant's id such as "v3"/, 'PK563'],
  ])('refuses a sheet whose variant is %s, naming the field and the fix', (_what, variant, message, code) => {
    const r = read(sheet({ variant }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toMatch(message);
    expect(r.message).toContain(`packet grade refuses it too (${code})`);
    expect(r.message).toMatch(/ask the candidate for the sheet as the page exported it/);
  });
});
