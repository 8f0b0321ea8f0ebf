/**
 * The round's time box on the lab and drill pages: the packet's minutes, counted from the round's
 * first step (or the Start button), so it survives a reload through the autosaved timeline. It
 * says how many minutes are left and, once they are over, says so plainly; it locks nothing.
 */
import { DONE_LABEL } from '../labs/hand-in.ts';
import type { RoundTimeline } from './round-timeline.ts';

/** The time box's sentence at `now`, for a round of `minutes` started at `started` (undefined: not yet). */
export function timeBoxText(minutes: number, started: Date | undefined, now: Date): { text: string; up: boolean } {
  if (!started) return { text: `Time box: ${minutes} minutes. The clock starts with your first step, or when you press Start.`, up: false };
  const end = started.getTime() + minutes * 60_000;
  const left = Math.ceil((end - now.getTime()) / 60_000);
  const clock = (t: number) => new Date(t).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  if (left <= 0) return { text: `Time is up: your ${minutes} minutes ended at ${clock(end)}. Nothing is locked: finish your sentence, then press "${DONE_LABEL}".`, up: true };
  return { text: `Time box: ${left} of ${minutes} minutes left (started at ${clock(started.getTime())}, ends at ${clock(end)}).`, up: false };
}

/** Start the time box in `root` (`data-time-box` with `data-minutes`); returns its update. */
export function mountTimeBox(root: HTMLElement, round: RoundTimeline, now: () => Date = () => new Date()): () => void {
  const box = root.querySelector<HTMLElement>('[data-time-box]');
  if (!box) return () => {};
  const minutes = Number(box.dataset.minutes);
  const line = box.querySelector<HTMLElement>('[data-time-left]')!;
  const start = box.querySelector<HTMLButtonElement>('[data-time-start]')!;
  const update = () => {
    const { text, up } = timeBoxText(minutes, round.started, now());
    if (line.textContent !== text) line.textContent = text;
    box.dataset.up = String(up);
    start.hidden = round.started !== undefined;
  };
  start.disabled = false;
  start.addEventListener('click', () => round.record('start'));
  setInterval(update, 10_000);
  update();
  return update;
}
