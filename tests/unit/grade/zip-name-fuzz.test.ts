import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSubmission, type IntakeLimits } from '../../../src/grade/intake.ts';
import { cp437Of, drawName, hasBadSegment, hasUnsafeChar, seeded, textOf } from '../../support/hostile-names.ts';
import { rawZip, utf8Name, type RawEntry } from './zip-names.ts';

/**
 * The zip name fuzz: seeded, so every run reads the same 300 zips. Each holds NOTES.md and one
 * drawn name, written with the UTF-8 flag or (when every character has a CP437 byte) without it,
 * and sometimes a second spelling of the same name (or a byte that is not UTF-8 under the flag). The intake refuses exactly the names the
 * rules call unsafe, and never grades one.
 */
const SEED = 26;
const CASES = 300;
const limits: IntakeLimits = { maxEntries: 20, maxTotalBytes: 1024 * 1024, maxEntryBytes: 64 * 1024, maxRatio: 200 };
const RAW = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200f\u2060\u061c\ufeff]/;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'zip-name-fuzz-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** ASCII letters in upper case: the same name once case is ignored. */
const upper = (s: string) => s.replace(/[a-z]/g, (c) => c.toUpperCase());

describe('zip name fuzz', () => {
  it(`refuses exactly the unsafe names of ${CASES} seeded zips, and grades none`, async () => {
    const rand = seeded(SEED);
    const seen = { refused: 0, graded: 0, cp437: 0, twins: 0, invalid: 0 };
    const wrong: string[] = [];
    for (let i = 0; i < CASES; i++) {
      const cp437Only = rand() < 0.35;
      const name = drawName(rand, { specialSegments: true, cp437Only });
      const text = textOf(name);
      const bytes = cp437Of(name);
      const asCp437 = cp437Only && bytes !== null;
      // Now and then a byte that is not UTF-8 under the UTF-8 flag.
      const invalid = !asCp437 && rand() < 0.05;
      const entry: RawEntry = asCp437 ? { name: Buffer.from(bytes), utf8: false } : invalid ? { name: Buffer.concat([Buffer.from('src/'), Buffer.from([0xff]), Buffer.from(text)]), utf8: true } : utf8Name(text);
      const twin = rand() < 0.15;
      const entries: RawEntry[] = [utf8Name('NOTES.md'), entry];
      if (twin) entries.push(asCp437 ? utf8Name(text) : bytes !== null ? { name: Buffer.from(bytes), utf8: false } : utf8Name(upper(text)));
      if (entries.some((e) => e.name.length < 3)) continue;
      const file = path.join(dir, `fuzz-${i}.zip`);
      await writeFile(file, await rawZip(entries));
      const r = await readSubmission(file, limits);
      const unsafe = invalid || hasUnsafeChar(text) || hasBadSegment(text);
      const shown = JSON.stringify(text);
      if (asCp437) seen.cp437++;
      if (twin) seen.twins++;
      if (invalid) seen.invalid++;
      if (r.ok) {
        seen.graded++;
        const names = [...r.files.keys(), ...r.kitFiles.keys(), ...r.dropped];
        if (unsafe) wrong.push(`${i} ${shown}: graded, though unsafe`);
        else if (twin) wrong.push(`${i} ${shown}: two spellings of one name graded`);
        else if (!names.includes(text)) wrong.push(`${i} ${shown}: graded as ${JSON.stringify(names)}`);
        if (names.some((n) => hasUnsafeChar(n))) wrong.push(`${i} ${shown}: an unsafe name reached grading`);
      } else {
        seen.refused++;
        if (!unsafe && !twin) wrong.push(`${i} ${shown}: refused (${r.refusal.code} ${r.refusal.message})`);
        if (!unsafe && twin && r.refusal.code !== 'PK505') wrong.push(`${i} ${shown}: twin refused with ${r.refusal.code}`);
        if (RAW.test(r.refusal.message)) wrong.push(`${i} ${shown}: a raw character in the refusal`);
      }
    }
    expect(wrong).toEqual([]);
    // The draw covers both outcomes and both encodings, not one of them only.
    expect(Math.min(seen.refused, seen.graded, seen.cp437, seen.twins)).toBeGreaterThan(20);
    expect(seen.invalid).toBeGreaterThan(3);
  });
});
