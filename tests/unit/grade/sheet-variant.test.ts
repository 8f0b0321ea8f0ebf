import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../../../src/cli/io.ts';
import { runCli } from '../../../src/cli/run-cli.ts';
import type { VariantBench } from '../../../src/grade/grade-variants.ts';
import { readLabSheetStrict, readLabSheetVariant } from '../../../src/grade/sheet-intake.ts';
import { readSheetVariant } from '../../../src/grade/sheet-variants.ts';
import { LAB_SHEET_KIND, readLabSheet } from '../../../src/labs/sheet-read.ts';
import type { Lab } from '../../../src/packets/packet.ts';

const target = { id: 'lab-x', version: '1.0.0', digest: 'a'.repeat(64), suggestions: ['one'] };
const sheet = (over: Record<string, unknown> = {}) =>
  Buffer.from(
    JSON.stringify({
      schemaVersion: 1,
      kind: LAB_SHEET_KIND,
      id: 'lab-x',
      version: '1.0.0',
      digest: 'a'.repeat(64),
      date: '2026-12-02T10:00:00.000Z',
      plan: { endState: 'e', checkpoints: 'c', invariant: 'i', byHand: 'b' },
      suggestions: [{ id: 'one', choice: 'accept', reason: '' }],
      ...over,
    }),
  );

/** A bench of three variants whose digests are 1…, 2…, 3… */
const digestOf = (k: number) => String(k).repeat(64);
const bench = { count: 3, byNumber: async (k: number) => (k >= 1 && k <= 3 ? { number: k, id: `v${k}`, digest: digestOf(k) } : undefined) } as unknown as VariantBench;
const lab = { id: 'lab-x', prompt: { data: { version: '1.0.0' } } } as unknown as Lab;
const codeOf = async (stated: { digest: string | null; variant: string | null; version: string | null }) => {
  const r = await readSheetVariant(stated, bench, lab, 'ada.json');
  return 'refusal' in r ? r.refusal.code : r.variant.id;
};

describe('the variant of a lab sheet', () => {
  it('is its digest’s; a `variant` must name the same one, sent out', async () => {
    expect(await codeOf({ digest: digestOf(2), variant: null, version: '1.0.0' })).toBe('v2');
    expect(await codeOf({ digest: digestOf(2), variant: 'v2', version: '1.0.0' })).toBe('v2');
    expect(await codeOf({ digest: digestOf(3), variant: 'v2', version: '1.0.0' })).toBe('PK582');
    expect(await codeOf({ digest: 'f'.repeat(64), variant: 'v2', version: '1.0.0' })).toBe('PK583');
    expect(await codeOf({ digest: 'f'.repeat(64), variant: null, version: '1.0.0' })).toBe('PK583');
    expect(await codeOf({ digest: null, variant: null, version: '1.0.0' })).toBe('PK583');
    expect(await codeOf({ digest: digestOf(2), variant: 'v4', version: '1.0.0' })).toBe('PK581');
    expect(await codeOf({ digest: digestOf(2), variant: '2', version: '1.0.0' })).toBe('PK581');
    expect(await codeOf({ digest: digestOf(2), variant: '', version: '1.0.0' })).toBe('PK581');
    // A digest of no variant on a sheet of another version: the version is what is wrong.
    expect(await codeOf({ digest: 'f'.repeat(64), variant: null, version: '0.9.0' })).toBe('PK562');
  });

  it('shows a hostile `variant` and digest with their controls escaped', async () => {
    const r = await readSheetVariant({ digest: '\u202e'.repeat(3) + 'x', variant: 'v1\u202e\n', version: '1.0.0' }, bench, lab, 'ada.json');
    expect('refusal' in r && r.refusal.message).not.toMatch(/[\u202e\n]/);
  });

  it('is read from the head of the sheet: kind, format and id checked first, a `variant` that is not short text refused by name', () => {
    const ok = readLabSheetVariant(sheet({ variant: 'v2', digest: digestOf(2) }), 'ada.json', target);
    expect(ok).toMatchObject({ ok: true, sheet: { variant: 'v2', digest: digestOf(2), version: '1.0.0' } });
    const other = readLabSheetVariant(sheet({ id: 'lab-y' }), 'ada.json', target);
    expect(!other.ok && other.refusal.code).toBe('PK561');
    const long = readLabSheetVariant(sheet({ variant: 'v'.repeat(41) }), 'ada.json', target);
    expect(!long.ok && long.refusal.message).toContain('"variant"');
    const num = readLabSheetVariant(sheet({ variant: 3 }), 'ada.json', target);
    expect(!num.ok && num.refusal.code).toBe('PK563');
  });

  it('keeps `variant` for a lab with variants, and flags it as ignored on a lab without', () => {
    const withV = readLabSheetStrict(sheet({ variant: 'v1' }), 'ada.json', { ...target, variants: true });
    expect(withV).toMatchObject({ ok: true, warnings: [], sheet: { variant: 'v1' } });
    const without = readLabSheetStrict(sheet({ variant: 'v1' }), 'ada.json', target);
    expect(without.ok && without.warnings.map((w) => w.code)).toEqual(['PK564']);
    // The page's reader keeps it too.
    const page = readLabSheet(sheet({ variant: 'v3' }).toString('utf8'), target);
    expect(page.ok && page.value.variant).toBe('v3');
  });
});

describe('a drill with variants', () => {
  it('is refused by packet check, at its `variants` field (PK589)', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'packet-kit-drill-variants-'));
    try {
      const dir = path.join(root, 'packets/drill-retry-backoff');
      await cp(path.resolve(import.meta.dirname, '../../../packets/drill-retry-backoff'), dir, { recursive: true });
      const prompt = path.join(dir, 'prompt.mdx');
      const text = await readFile(prompt, 'utf8');
      await writeFile(prompt, text.replace(/^seed: .*$/m, (l) => `${l}\nvariants:\n  count: 2\n  params:\n    n: { pick: [3, 4] }`));
      const line = text.split('\n').findIndex((l) => l.startsWith('seed:')) + 2;
      const io = memoryIo(root, { env: {} });
      expect(await runCli(['check', '--format', 'json'], io)).toBe(1);
      const ds = JSON.parse(io.stdout).diagnostics as { code: string; file: string; line: number; message: string }[];
      expect(ds.map((d) => [d.code, d.file.endsWith('prompt.mdx'), d.line])).toEqual([['PK589', true, line]]);
      expect(ds[0]!.message).toContain('declares "variants"');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
