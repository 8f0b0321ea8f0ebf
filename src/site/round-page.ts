/**
 * What the lab and drill pages share around the answers themselves: the round's timeline, the time
 * box, the "done" step (check the sheet is complete, name and link what is missing, export it,
 * say what happens next) and "Open a saved sheet" (read with the page's reader, asked before it
 * replaces unsaved work). The page hands in its sheet, reader and answers; this module does the rest.
 */
import { handInTo } from '../labs/hand-in.ts';
import { sheetFileName, type ReadResult, type SheetTarget, type TimelineEntry } from '../labs/sheet-read.ts';
import { downloadJson } from './download-json.ts';
import { RoundTimeline } from './round-timeline.ts';
import { mountTimeBox } from './time-box.ts';

/** One thing the sheet still lacks: what to say, and the field to take the candidate to. */
export interface Missing {
  text: string;
  /** The element to focus (a radio, a text area). */
  focus: HTMLElement;
}

/** A sheet the round pages make. */
export type RoundSheet = SheetTarget & { candidate?: string; timeline?: TimelineEntry[] };

/** What a page hands the round. */
export interface RoundHooks<S extends RoundSheet> {
  /** The page's sheet as it is now, timeline included. */
  sheet(): S;
  /** The page's reader (readLabSheet or readDrillSheet, bound to the page). */
  read(json: string): ReadResult<S>;
  /** Put a sheet's answers on the page (the round sets the timeline itself). */
  apply(sheet: S): void;
  /** Save the page's sheet in this browser. */
  save(): void;
  /** What the sheet lacks to be handed in, in the page's order. */
  missing(sheet: S): Missing[];
  /** True when the page holds any answer at all. */
  hasAnswers(sheet: S): boolean;
  /** Write the page's status line. */
  say(message: string, tone?: 'ok' | 'error' | ''): void;
}

/** The largest sheet file the page reads. */
export const SHEET_FILE_LIMIT = 2 * 1024 * 1024;

/** The round, as the page's hooks see it. */
export interface Round {
  timeline: RoundTimeline;
  /** The page exported the sheet (its own export button): nothing on the page is unsaved now. */
  exported(): void;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Start the round's pieces on a lab or drill page. Call before the page restores its autosave. */
export function mountRound<S extends RoundSheet>(root: HTMLElement, hooks: RoundHooks<S>): Round {
  let unsaved = true;
  let updateBox = () => {};
  const timeline = new RoundTimeline(() => {
    unsaved = true;
    hooks.save();
    updateBox();
  });
  updateBox = mountTimeBox(root, timeline);
  timeline.onSet = updateBox;
  // Any typing or choosing starts the clock and leaves unsaved work.
  const begin = () => {
    unsaved = true;
    if (!timeline.started) timeline.record('start');
  };
  root.addEventListener('input', begin);
  root.addEventListener('change', (event) => {
    if (!(event.target as HTMLElement).matches('[data-open-sheet]')) begin();
  });

  const hand = root.querySelector<HTMLElement>('[data-hand-in]')!;
  const to = handInTo({ to: hand.dataset.handInTo ?? '' });
  const result = root.querySelector<HTMLElement>('[data-done-result]')!;
  const doneButton = root.querySelector<HTMLButtonElement>('[data-done]')!;
  const fileName = root.querySelector<HTMLElement>('[data-sheet-file]');
  root.addEventListener('input', () => {
    if (fileName) fileName.textContent = sheetFileName(hooks.sheet());
  });

  doneButton.addEventListener('click', () => {
    const before = hooks.sheet();
    const missing = hooks.missing(before);
    result.replaceChildren();
    if (missing.length) {
      result.dataset.tone = 'error';
      const list = el('ul');
      for (const m of missing) {
        const link = el('a', m.text);
        link.href = `#${m.focus.id || m.focus.closest('[id]')?.id || ''}`;
        link.addEventListener('click', (event) => {
          event.preventDefault();
          m.focus.scrollIntoView({ block: 'center' });
          m.focus.focus();
        });
        const item = el('li');
        item.append(link);
        list.append(item);
      }
      result.append(el('p', `Not done yet: ${missing.length === 1 ? 'one thing is' : `${missing.length} things are`} missing from your answer sheet. Nothing was exported.`), list);
      result.querySelector('a')?.focus();
      return;
    }
    timeline.record('done');
    const s = hooks.sheet();
    const name = sheetFileName(s);
    downloadJson(name, s);
    unsaved = false;
    result.dataset.tone = 'ok';
    const next = el('p');
    next.append('Done. Your answer sheet is saved as ', el('code', name), '. Send that file to ', el('strong', to), '. The reviewer grades it against the key with ', el('code', 'packet grade'), ', and you hear back from them.');
    result.append(el('p', `Exported ${name} (version ${s.version}, digest ${s.digest.slice(0, 12)}).`), next);
    hooks.say(`Exported ${name}.`, 'ok');
    result.focus();
  });

  const input = root.querySelector<HTMLInputElement>('[data-open-sheet]')!;
  input.addEventListener('change', async () => {
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    if (file.size > SHEET_FILE_LIMIT) {
      hooks.say(`${file.name} is ${Math.round(file.size / 1024)} KiB; an answer sheet is at most ${SHEET_FILE_LIMIT / 1024 / 1024} MiB. Nothing was changed.`, 'error');
      return;
    }
    const read = hooks.read(await file.text());
    if (!read.ok) {
      hooks.say(`${file.name}: ${read.message}`, 'error');
      return;
    }
    const current = hooks.sheet();
    if (unsaved && hooks.hasAnswers(current) && !window.confirm(`Replace the answers on this page with ${file.name}? Your answers here have not been exported since you last changed them.`)) {
      hooks.say(`Kept the answers on this page; ${file.name} was not opened.`);
      return;
    }
    timeline.set(read.value.timeline);
    hooks.apply(read.value);
    timeline.record('restore', undefined, file.name);
    unsaved = false;
    if (fileName) fileName.textContent = sheetFileName(hooks.sheet());
    hooks.say(`Opened ${file.name}: every answer on this page is now the saved sheet's.`, 'ok');
  });
  input.disabled = false;
  doneButton.disabled = false;

  return {
    timeline,
    exported: () => {
      unsaved = false;
    },
  };
}

/** What "Start over" needs of a page: its sheet now, how to clear it, how to put a sheet back, the timeline, the page's voice. */
export interface StartOverHooks<S> {
  sheet(): S;
  /** Clear every answer on the page (and anything kept of it). */
  clear(): void;
  apply(sheet: S): void;
  record(action: 'start-over' | 'undo-start-over'): void;
  say(message: string, tone?: 'ok' | 'error' | ''): void;
  /** What was cleared, in a sentence: "every verdict and reason is cleared." */
  cleared: string;
}

/** Start over: asked first in the page's dialog, and undone in one click with everything it cleared. */
export function mountStartOver<S>(root: HTMLElement, o: StartOverHooks<S>): void {
  const dialog = root.querySelector<HTMLDialogElement>('[data-reset-dialog]')!;
  const undo = root.querySelector<HTMLButtonElement>('[data-undo-reset]')!;
  let before: S | undefined;
  root.querySelector<HTMLButtonElement>('[data-reset]')!.addEventListener('click', () => dialog.showModal());
  dialog.addEventListener('close', () => {
    if (dialog.returnValue !== 'reset') return;
    dialog.returnValue = '';
    before = o.sheet();
    o.clear();
    undo.hidden = false;
    o.record('start-over');
    o.say(`Started over: ${o.cleared} "Undo start over" brings them back.`);
  });
  undo.addEventListener('click', () => {
    if (!before) return;
    o.apply(before);
    before = undefined;
    undo.hidden = true;
    o.record('undo-start-over');
    o.say('Your answers are back as they were before you started over.', 'ok');
  });
}
