import { describe, expect, it } from 'vitest';
import { zipPathProblem } from '../../../src/check/file-policy.ts';
import { renderDiagnostic } from '../../../src/errors/render.ts';
import { parsePacket } from '../../../src/packets/parse.ts';
import type { PacketSource } from '../../../src/packets/source.ts';
import { drawName, hasBadSegment, hasUnsafeChar, seeded, textOf } from '../../support/hostile-names.ts';

/**
 * The file name fuzz: seeded, 500 names drawn from safe letters, controls, bidi, zero-width and
 * CP437 glyph characters, each put in a packet's tree. The loader names exactly the unsafe ones
 * (PK161), its text never carries the raw character, and a zip refuses every unsafe path (and
 * "..", "." and empty segments), so none ships.
 */
const SEED = 2026;
const CASES = 500;
const TREES = ['starter', 'sample', 'hidden', 'mutants/m', 'replies'];
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200f\u2060\u061c\ufeff]/;

const source = (paths: string[]): PacketSource => ({
  id: 'p',
  folder: 'p',
  dir: 'packets/p',
  parts: { prompt: undefined, rubric: undefined, sample: undefined, failures: undefined },
  entries: paths.map((p) => ({ path: p, kind: 'file' as const, size: 1, sha256: '0'.repeat(64) })),
  problems: [],
});

describe('file name fuzz', () => {
  it(`names exactly the unsafe ones of ${CASES} seeded names, and ships none`, () => {
    const rand = seeded(SEED);
    const wrong: string[] = [];
    let unsafeCount = 0;
    for (let i = 0; i < CASES; i++) {
      const tree = TREES[Math.floor(rand() * TREES.length)]!;
      // A file system gives no "..", "." or empty segment in a tree; a zip path may hold any.
      const name = textOf(drawName(rand, { specialSegments: false }));
      const rel = `${tree}/${name}`;
      const unsafe = hasUnsafeChar(rel);
      if (unsafe) unsafeCount++;
      const found = parsePacket(source([rel])).diagnostics.filter((d) => d.code === 'PK161');
      const shown = JSON.stringify(rel);
      if (unsafe !== (found.length === 1)) wrong.push(`${i} ${shown}: ${found.length} PK161, though ${unsafe ? 'unsafe' : 'safe'}`);
      for (const d of found) if (RAW.test(renderDiagnostic(d).replace(/\n/g, ''))) wrong.push(`${i} ${shown}: a raw character in the diagnostic`);
      const zipped = textOf(drawName(rand, { specialSegments: true }));
      const shouldRefuse = hasUnsafeChar(zipped) || hasBadSegment(zipped);
      if (shouldRefuse !== (zipPathProblem(zipped) !== undefined)) wrong.push(`${i} ${JSON.stringify(zipped)}: zip ${shouldRefuse ? 'took' : 'refused'} it`);
      if (zipPathProblem(rel) === undefined && unsafe) wrong.push(`${i} ${shown}: would ship`);
    }
    expect(wrong).toEqual([]);
    expect(unsafeCount).toBeGreaterThan(100);
    expect(CASES - unsafeCount).toBeGreaterThan(100);
  });
});
