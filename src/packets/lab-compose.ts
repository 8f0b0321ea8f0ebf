/**
 * How a lab's files are made from its suggestions. Each suggestion replaces one region of one
 * starter file, and regions never overlap, so a file is a list of segments: fixed text, and
 * slots that hold one suggestion's region in the state the candidate chose. Any combination of
 * states composes, deterministically, by concatenation. Pure and free of Node and Astro: the
 * kit, the sandbox's driver and the lab page in the browser compose from the same segments.
 */
import type { LabChoice } from './schema/assistant.ts';

/**
 * The states of a suggestion in the order of the combination table: index 0 keeps the starter's
 * code (the suggestion rejected), 1 takes the change as offered, 2 the revised change.
 */
export const LAB_STATES = ['reject', 'accept', 'revise'] as const satisfies readonly LabChoice[];

/** A suggestion's state in a combination. */
export type LabState = (typeof LAB_STATES)[number];

/** One suggestion as the composition needs it. */
export interface ComposeSuggestion {
  /** The suggestion's id. */
  id: string;
  /** The starter file it changes. */
  file: string;
  /** 1-based first and last line of its region in the starter file. */
  fromLine: number;
  toLine: number;
  /** The region as the starter has it (state `reject`). */
  original: string;
  /** The region as offered (state `accept`). */
  offered: string;
  /** The region as revised (state `revise`). */
  revised: string;
}

/** One file a lab's suggestions change: fixed text and slots, in order. A number is a suggestion's index. */
export interface ComposeFile {
  path: string;
  segments: (string | number)[];
}

/** What composing a lab needs: its suggestions, in order, and the files they change. */
export interface ComposeModel {
  suggestions: readonly ComposeSuggestion[];
  files: readonly ComposeFile[];
}

/** The text of a suggestion's region in a state. */
export function variantOf(s: Pick<ComposeSuggestion, 'original' | 'offered' | 'revised'>, state: LabState): string {
  return state === 'accept' ? s.offered : state === 'revise' ? s.revised : s.original;
}

/**
 * Compose the files a combination of states gives. `texts` overrides the region text of some
 * suggestions (a candidate's hand edit), by suggestion index.
 */
export function composeLab(model: ComposeModel, states: readonly LabState[], texts: ReadonlyMap<number, string> = new Map()): Map<string, string> {
  if (states.length !== model.suggestions.length) throw new Error(`composeLab: ${states.length} states for ${model.suggestions.length} suggestions`);
  const out = new Map<string, string>();
  for (const file of model.files) {
    out.set(
      file.path,
      file.segments.map((seg) => (typeof seg === 'string' ? seg : (texts.get(seg) ?? variantOf(model.suggestions[seg]!, states[seg]!)))).join(''),
    );
  }
  return out;
}

/** The number of combinations of n suggestions: 3^n. */
export function combinationCount(n: number): number {
  return 3 ** n;
}

/** A combination's index in the table: the states as a base-3 number, the first suggestion the lowest digit. */
export function combinationIndex(states: readonly LabState[]): number {
  let index = 0;
  for (let i = states.length - 1; i >= 0; i--) index = index * 3 + LAB_STATES.indexOf(states[i]!);
  return index;
}

/** The states of the combination at `index`, for n suggestions. */
export function statesOfIndex(index: number, n: number): LabState[] {
  const out: LabState[] = [];
  let rest = index;
  for (let i = 0; i < n; i++) {
    out.push(LAB_STATES[rest % 3]!);
    rest = Math.floor(rest / 3);
  }
  return out;
}

/** A region's text as compared with the scripted versions: line endings LF, trailing spaces and trailing blank lines dropped. */
export function normalizeRegion(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n+$/, '');
}

/** The scripted state a region's text is, or null when it matches none (a hand edit). */
export function stateOfText(s: Pick<ComposeSuggestion, 'original' | 'offered' | 'revised'>, text: string): LabState | null {
  const t = normalizeRegion(text);
  for (const state of LAB_STATES) if (normalizeRegion(variantOf(s, state)) === t) return state;
  return null;
}
