import { describe, expect, it } from 'vitest';
import { integerWord, leakCandidates, readVariant, statedVariantId, type KnownVariant, type VariantLookup } from '../../../src/grade/variant-read.ts';

const d = (k: number) => String(k).repeat(64).slice(0, 64);
/** Variants v1..vN whose digests are d(k). */
function lookup(count: number, asked: number[] = []): VariantLookup {
  return {
    count,
    async byNumber(k: number): Promise<KnownVariant | undefined> {
      asked.push(k);
      return k >= 1 && k <= 9 ? { number: k, id: `v${k}`, digest: d(k) } : undefined;
    },
  };
}

describe('statedVariantId', () => {
  it('reads the Variant line of a variant zip README', () => {
    expect(statedVariantId('# T\n\n- Packet: `p`, version `1.0.0`\n- Digest: `abc`\n- Variant: `v3`\n')).toBe('v3');
  });
  it('is null without a README or without the line, and cuts a long value', () => {
    expect(statedVariantId(undefined)).toBeNull();
    expect(statedVariantId('- Digest: `abc`\n')).toBeNull();
    expect(statedVariantId(`- Variant: \`${'x'.repeat(41)}\``)).toBeNull();
    expect(statedVariantId('- Variant: `v1\nv2`')).toBeNull();
  });
});

describe('readVariant', () => {
  it('gives the variant when the Variant line and the Digest agree', async () => {
    expect(await readVariant({ variant: 'v2', digest: d(2) }, lookup(3), 'p')).toEqual({ variant: { number: 2, id: 'v2', digest: d(2) } });
  });

  it('refuses a submission that names no variant (PK580), saying whose digest it carries', async () => {
    const r = await readVariant({ variant: null, digest: d(3) }, lookup(3), 'p');
    expect('refusal' in r && r.refusal).toMatchObject({ code: 'PK580', kind: 'intake', severity: 'error', file: 'README.md' });
    expect('refusal' in r && r.refusal.message).toMatch(/no `Variant:` line \(its `Digest:` is variant v3's\)/);
    const none = await readVariant({ variant: null, digest: null }, lookup(3), 'p');
    expect('refusal' in none && none.refusal.message).not.toMatch(/is variant/);
  });

  it('refuses an id that is no variant sent out (PK581): malformed, zero, past the count or past 100', async () => {
    for (const variant of ['banana', 'v0', 'v4', 'v101', 'V2', 'v02']) {
      const r = await readVariant({ variant, digest: d(2) }, lookup(3), 'p');
      expect('refusal' in r && r.refusal.code, variant).toBe('PK581');
    }
    const r = await readVariant({ variant: 'v4', digest: d(4) }, lookup(3), 'p');
    expect('refusal' in r && r.refusal.message).toMatch(/sent out \(v1\.\.v3\)/);
    expect('refusal' in r && r.refusal.hint).toMatch(/--variants N/);
    // With the count sent out raised, v4 is known.
    expect(await readVariant({ variant: 'v4', digest: d(4) }, lookup(5), 'p')).toEqual({ variant: { number: 4, id: 'v4', digest: d(4) } });
  });

  it('shows a hostile stated id escaped: no control or bidi character reaches the finding', async () => {
    const r = await readVariant({ variant: 'v1\u001b[2J\u202e', digest: d(1) }, lookup(3), 'p');
    expect('refusal' in r && r.refusal.code).toBe('PK581');
    const message = 'refusal' in r ? r.refusal.message : '';
    expect(message).not.toMatch(/[\u001b\u202e]/);
    expect(message).toContain('v1');
  });

  it("refuses a digest that is another variant's (PK582), naming both", async () => {
    const r = await readVariant({ variant: 'v2', digest: d(1) }, lookup(3), 'p');
    expect('refusal' in r && r.refusal.code).toBe('PK582');
    expect('refusal' in r && r.refusal.message).toMatch(/names variant v2, but its `Digest:` \(1{12}…\) is variant v1's/);
  });

  it("refuses a digest that is no variant's, or none (PK583)", async () => {
    const r = await readVariant({ variant: 'v2', digest: 'f'.repeat(64) }, lookup(3), 'p');
    expect('refusal' in r && r.refusal.code).toBe('PK583');
    expect('refusal' in r && r.refusal.message).toMatch(/is the digest of no variant \(v1\.\.v3\)/);
    const none = await readVariant({ variant: 'v2', digest: null }, lookup(3), 'p');
    expect('refusal' in none && none.refusal.code).toBe('PK583');
    expect('refusal' in none && none.refusal.message).toMatch(/no `Digest:` line/);
  });

  it('looks for the owner of a digest only among the variants sent out', async () => {
    const asked: number[] = [];
    await readVariant({ variant: 'v2', digest: d(7) }, lookup(3, asked), 'p');
    expect(Math.max(...asked)).toBe(3);
  });
});

describe('leakCandidates', () => {
  const own = { number: 2, values: { func: 'parse_duration', limit: 49 } };
  const others = [1, 3, 4, 5].map((number) => ({ number, values: { func: ['duration_seconds', 'x', 'to_seconds', 'to_seconds', 'parse_duration'][number - 1]!, limit: 40 + number } }));

  it('tries first the variants whose values the code carries, then by number, capped', () => {
    expect(leakCandidates(own, others, ['def to_seconds(text):\n    return 44\n'])).toEqual([4, 3, 1]);
    expect(leakCandidates(own, others, ['def duration_seconds(text): ...'])).toEqual([1, 3, 4]);
    expect(leakCandidates(own, others, ['nothing here'], 2)).toEqual([1, 3]);
  });

  it('counts a one-word value only as a whole word, and never a value the own variant shares', () => {
    // "to_seconds_x" is not the word to_seconds; v5's func is the own variant's.
    expect(leakCandidates(own, others, ['to_seconds_x parse_duration'], 1)).toEqual([1]);
  });

  it('reads the whole submission: a large file placed first does not hide the values after it', () => {
    // A copied answer behind more than a MiB of padding in a file that comes first.
    const padding = 'pad '.repeat(300 * 1024);
    expect(leakCandidates(own, others, [padding, 'def to_seconds(text):\n    return 44\n'])).toEqual([4, 3, 1]);
  });

  it('finds a number however the code writes it: 0x2D, 0o55, 0b101101, 4_5, 045 are 45', () => {
    for (const written of ['0x2D', '0X2d', '0o55', '0b101101', '4_5', '045']) {
      expect(leakCandidates(own, others, [`LIMIT = ${written}`], 1), written).toEqual([5]);
    }
  });

  it('reads integer literals and nothing else as numbers', () => {
    expect(integerWord('0x1F7')).toBe('503');
    expect(integerWord('0o17')).toBe('15');
    expect(integerWord('0b101')).toBe('5');
    expect(integerWord('1_000')).toBe('1000');
    expect(integerWord('007')).toBe('7');
    for (const word of ['0x', '1__0', '_1', '1_', '0b102', 'x12', 'v3', '2h']) expect(integerWord(word), word).toBeUndefined();
  });

  it('never lists the own variant', () => {
    expect(leakCandidates(own, [...others, { number: 2, values: own.values }], [''], 10)).not.toContain(2);
  });
});
