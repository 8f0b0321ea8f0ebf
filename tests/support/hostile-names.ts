/**
 * Seeded random file names for the name fuzz: segments of safe letters, control characters, bidi
 * controls, zero-width characters, CP437's glyphs for control bytes, "..", "." and empty segments.
 * The oracle below is written from the rules as stated, not from the kit's code: a name is unsafe
 * when it holds a C0 control (tab, LF and CR too), DEL, a C1 control, a bidi control (U+202A-U+202E,
 * U+2066-U+2069, U+200E, U+200F, U+061C) or a zero-width character (U+200B-U+200D, U+2060, U+FEFF).
 */

/** The kit's seeded generator, so every run draws the same names. */
export { seededRandom as seeded } from '../../src/kit/seeded-random.ts';

/** One character of a name: its text, and its CP437 byte when it has one a zip without the UTF-8 flag can hold. */
export interface NameChar {
  s: string;
  cp437?: number;
}

const ascii = (s: string): NameChar[] => [...s].map((ch) => ({ s: ch, cp437: ch.charCodeAt(0) }));

/** Pieces of a segment, by family. */
export const POOL: Record<string, NameChar[][]> = {
  safe: [ascii('src'), ascii('main'), ascii('x_1'), ascii('-'), ascii('.py'), ascii('data'), ascii('A'), [{ s: 'é', cp437: 0x82 }], [{ s: 'Ä', cp437: 0x8e }], [{ s: 'ü', cp437: 0x81 }], [{ s: '£', cp437: 0x9c }], [{ s: '日本' }], [{ s: 'Ω' }]],
  control: [0x00, 0x01, 0x07, 0x09, 0x0a, 0x0d, 0x1b, 0x1f, 0x7f].map((c) => [{ s: String.fromCharCode(c), cp437: c }]),
  c1: [[{ s: '\u0080' }], [{ s: '\u0085' }], [{ s: '\u009b' }], [{ s: '\u009f' }]],
  bidi: ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'].map((s) => [{ s }]),
  zeroWidth: ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'].map((s) => [{ s }]),
  // As Unicode these are symbols like any other; only a CP437 name made of control bytes is unsafe.
  cp437Glyphs: ['◙', '☺', '♪', '⌂', '•', '←'].map((s) => [{ s }]),
  // Spaces that show as spaces: not in the rules, so taken.
  lookalikes: ['\u00a0', '\u3000', ' '].map((s) => [{ s }]),
};

const FAMILIES: [string, number][] = [
  ['safe', 10],
  ['control', 2],
  ['c1', 1],
  ['bidi', 2],
  ['zeroWidth', 2],
  ['cp437Glyphs', 2],
  ['lookalikes', 1],
];

/** A generated name: its segments, each a list of characters ("..", "." and "" segments as such). */
export type GeneratedName = NameChar[][];

/**
 * Draw one name: 1-4 segments; "." and "" only between others, ".." anywhere. `cp437Only` draws
 * only characters a zip without the UTF-8 flag can hold (a family without any gives "x").
 */
export function drawName(rand: () => number, options: { specialSegments: boolean; cp437Only?: boolean }): GeneratedName {
  const pick = (xs: readonly NameChar[][]) => {
    const usable = options.cp437Only ? xs.filter((p) => p.every((c) => c.cp437 !== undefined)) : xs;
    return usable.length ? usable[Math.floor(rand() * usable.length)]! : ascii('x');
  };
  const total = FAMILIES.reduce((n, [, w]) => n + w, 0);
  const family = () => {
    let r = rand() * total;
    for (const [f, w] of FAMILIES) if ((r -= w) < 0) return f;
    return 'safe';
  };
  const count = 1 + Math.floor(rand() * 4);
  const segments: GeneratedName = [];
  for (let i = 0; i < count; i++) {
    const middle = i > 0 && i < count - 1;
    const r = rand();
    if (options.specialSegments && r < 0.06) segments.push(ascii('..'));
    else if (options.specialSegments && middle && r < 0.1) segments.push(ascii('.'));
    else if (options.specialSegments && middle && r < 0.13) segments.push([]);
    else {
      const seg: NameChar[] = [];
      const n = 1 + Math.floor(rand() * 3);
      for (let j = 0; j < n; j++) seg.push(...pick(POOL[family()]!));
      // A file name, never a lone "." or ".." made of pieces.
      if (seg.map((c) => c.s).join('') === '.' || seg.map((c) => c.s).join('') === '..') seg.push(...ascii('x'));
      segments.push(seg);
    }
  }
  return segments;
}

/** The name's text. */
export const textOf = (name: GeneratedName) => name.map((seg) => seg.map((c) => c.s).join('')).join('/');

/** Its CP437 bytes, or null when a character has none (the name then only goes in a UTF-8 zip). */
export function cp437Of(name: GeneratedName): number[] | null {
  const out: number[] = [];
  name.forEach((seg, i) => {
    if (i) out.push(0x2f);
    for (const c of seg) out.push(c.cp437 ?? -1);
  });
  return out.includes(-1) ? null : out;
}

/** The oracle: true when a character of the text is unsafe by the rules above. */
export function hasUnsafeChar(text: string): boolean {
  return [...text].some((ch) => {
    const c = ch.codePointAt(0)!;
    return c <= 0x1f || (c >= 0x7f && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c === 0x200e || c === 0x200f || c === 0x061c || (c >= 0x200b && c <= 0x200d) || c === 0x2060 || c === 0xfeff;
  });
}

/** True when a segment is "..", or "." or empty (a path that is not in its one spelling). */
export function hasBadSegment(text: string): boolean {
  return text.split('/').some((s) => s === '..' || s === '.' || s === '');
}
