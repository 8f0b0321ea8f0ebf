/**
 * The record of a round as the lab and drill pages see it: each step the candidate takes, with its
 * ISO time, in order, kept on the autosaved and exported sheet. Typing in one region is one entry
 * per burst (a pause of BURST_MS or another step ends it). The earliest steps are dropped past
 * TIMELINE_LIMIT. Browser-safe and pure apart from the clock it is given.
 */
import type { ChangeSet } from '@codemirror/state';
import { TIMELINE_DETAIL_LIMIT, TIMELINE_LIMIT, type TimelineAction, type TimelineEntry } from '../labs/sheet-read.ts';

/** A pause in typing that ends a burst of hand edits, in milliseconds. */
export const BURST_MS = 5000;

/** The round's steps, and the one change listener the page saves on. */
export class RoundTimeline {
  #entries: TimelineEntry[] = [];
  #typing: { id: string; last: number } | undefined;
  readonly #now: () => Date;
  readonly #changed: () => void;

  constructor(changed: () => void, now: () => Date = () => new Date()) {
    this.#changed = changed;
    this.#now = now;
  }

  /** The steps so far, oldest first. */
  get entries(): readonly TimelineEntry[] {
    return this.#entries;
  }

  /** When the round started (its first `start`), or undefined before the first step. */
  get started(): Date | undefined {
    const start = this.#entries.find((e) => e.action === 'start');
    return start ? new Date(start.at) : undefined;
  }

  /** Called after the steps are replaced (the time box redraws; nothing is saved). */
  onSet: () => void = () => {};

  /** Replace the steps (a sheet restored from this browser or a file). */
  set(entries: readonly TimelineEntry[] | undefined): void {
    this.#entries = [...(entries ?? [])].slice(-TIMELINE_LIMIT);
    this.#typing = undefined;
    this.onSet();
  }

  /** Record a step; the first step of a round is preceded by `start`. */
  record(action: TimelineAction, id?: string, detail?: string): void {
    this.#typing = undefined;
    this.#push(action, id, detail);
    this.#changed();
  }

  /** Record typing in a region: one entry per burst. */
  handEdit(id: string): void {
    const now = this.#now().getTime();
    const burst = this.#typing?.id === id && now - this.#typing.last < BURST_MS && this.#entries.at(-1)?.action === 'hand-edit';
    if (!burst) this.#push('hand-edit', id);
    this.#typing = { id, last: now };
    this.#changed();
  }

  /** The sheet's `timeline` field: absent while nothing happened. */
  field(): { timeline?: TimelineEntry[] } {
    return this.#entries.length ? { timeline: [...this.#entries] } : {};
  }

  #push(action: TimelineAction, id?: string, detail?: string): void {
    const at = this.#now().toISOString();
    if (action !== 'start' && !this.started) this.#entries.push({ at, action: 'start' });
    if (action === 'start' && this.started) return;
    this.#entries.push({ at, action, ...(id !== undefined ? { id: id.slice(0, TIMELINE_DETAIL_LIMIT) } : {}), ...(detail !== undefined ? { detail: detail.slice(0, TIMELINE_DETAIL_LIMIT) } : {}) });
    // Past the limit the earliest steps go, but the round's start stays first: the time box counts from it.
    if (this.#entries.length > TIMELINE_LIMIT) this.#entries.splice(1, this.#entries.length - TIMELINE_LIMIT);
  }
}

/** The regions (by their suggestion's index) an editor change touched, in the new document's positions. */
export function touchedRegions(changes: ChangeSet, regions: readonly { index: number; from: number; to: number }[]): number[] {
  const out = new Set<number>();
  changes.iterChangedRanges((_fromA, _toA, fromB, toB) => {
    for (const r of regions) if (fromB <= r.to && toB >= r.from) out.add(r.index);
  });
  return [...out];
}
