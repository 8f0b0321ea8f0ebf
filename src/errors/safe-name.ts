/**
 * Whether a file name is safe to list, ship or grade, and how to show one that is not. A name is
 * unsafe when it holds a character that makes it read as another name: a control character (C0,
 * DEL, C1: a newline splits a line of output, ESC drives a terminal), a bidi control (it reorders
 * what follows, the Trojan Source trick) or a zero-width character (two names that look alike are
 * different files). The packet loader, the zips and the intake of submissions all ask here, and
 * every diagnostic shows a path through {@link shownName}.
 */
import { showControls } from './escape.ts';

/** What makes a character unsafe in a name. */
export type NameHazardKind = 'control character' | 'bidi control' | 'zero-width character';

/** The first unsafe character of a name. */
export interface NameHazard {
  kind: NameHazardKind;
  /** The character itself. */
  char: string;
  /** Its index in the name (UTF-16 code units). */
  index: number;
  /** `U+202E`. */
  codePoint: string;
}

/** Every control character: C0 (tab, LF and CR too), DEL and C1. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** The bidi embeddings, overrides and isolates, and the invisible direction marks. */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
/** Zero-width space, joiners, word joiner, and the byte-order mark (zero-width no-break space). */
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff]/;
const ANY = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u200b-\u200d\u2060\ufeff]/g;

/** `U+202E` for a character. */
export function codePointOf(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** What kind of unsafe character `ch` is, or null. */
export function hazardOf(ch: string): NameHazardKind | null {
  if (CONTROL.test(ch)) return 'control character';
  if (BIDI.test(ch)) return 'bidi control';
  if (ZERO_WIDTH.test(ch)) return 'zero-width character';
  return null;
}

/** The first unsafe character of a name, or null when the name is safe. */
export function nameHazard(name: string): NameHazard | null {
  ANY.lastIndex = 0;
  const m = ANY.exec(name);
  if (!m) return null;
  return { kind: hazardOf(m[0])!, char: m[0], index: m.index, codePoint: codePointOf(m[0]) };
}

/** True when a name holds no control, bidi or zero-width character. */
export function isSafeName(name: string): boolean {
  return nameHazard(name) === null;
}

/** Why a name is unsafe, in words (`holds a bidi control (U+202E)`), or null. */
export function nameHazardReason(name: string): string | null {
  const h = nameHazard(name);
  return h ? `holds a ${h.kind} (${h.codePoint})` : null;
}

/**
 * A name as messages show it: every unsafe character written as an escape (`\n`, `\u001b`,
 * `\u202e`), so the name can neither break a line of output nor reorder or hide what it shows.
 * The escaping is the kit's one (escape.ts), which also covers the line and paragraph separators.
 */
export function shownName(name: string): string {
  return showControls(name);
}
