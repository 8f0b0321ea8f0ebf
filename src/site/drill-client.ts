/**
 * The drill page in the browser: a verdict and a reason per diff (and the change asked for, when
 * the verdict is accept-with-change), saved in this browser as the candidate goes, exported as a
 * JSON answer sheet with the drill's version and digest.
 */
import type { DrillVerdict } from '../packets/schema/assistant.ts';
import { DRILL_SHEET_KIND, readDrillSheet, SHEET_SCHEMA_VERSION, sheetFileName, type DrillAnswerSheet } from '../labs/sheet-read.ts';
import { downloadJson } from './download-json.ts';
import { drillHasAnswers, drillMissing } from './round-missing.ts';
import { mountRound, mountStartOver, type Round } from './round-page.ts';

/** What the page hands its script. */
export interface DrillPageData {
  id: string;
  version: string;
  digest: string;
  /** The diffs' ids, in order. */
  diffs: string[];
}

/** Start the drill page. */
export function mountDrill(root: HTMLElement): void {
  const data = JSON.parse(root.dataset.drill ?? '{}') as DrillPageData;
  const storageKey = `packet-kit:drill:${data.id}:${data.digest}`;
  const q = <T extends Element>(sel: string) => root.querySelector<T>(sel)!;
  const status = q<HTMLElement>('[data-sheet-status]');
  const say = (message: string, tone: 'ok' | 'error' | '' = '') => {
    status.textContent = message;
    status.dataset.tone = tone;
  };
  const verdictOf = (id: string) => (root.querySelector<HTMLInputElement>(`[data-verdict="${id}"]:checked`)?.value ?? null) as DrillVerdict | null;
  const sheet = (): DrillAnswerSheet => {
    const candidate = q<HTMLInputElement>('[data-candidate]').value.trim();
    return {
      schemaVersion: SHEET_SCHEMA_VERSION,
      kind: DRILL_SHEET_KIND,
      id: data.id,
      version: data.version,
      digest: data.digest,
      date: new Date().toISOString(),
      ...(candidate ? { candidate } : {}),
      diffs: data.diffs.map((id) => {
        const verdict = verdictOf(id);
        const change = q<HTMLTextAreaElement>(`[data-change="${id}"]`).value;
        return { id, verdict, reason: q<HTMLTextAreaElement>(`[data-reason="${id}"]`).value, ...(verdict === 'accept-with-change' && change.trim() ? { change } : {}) };
      }),
      ...round.timeline.field(),
    };
  };
  const refresh = () => {
    for (const id of data.diffs) q<HTMLElement>(`[data-change-field="${id}"]`).hidden = verdictOf(id) !== 'accept-with-change';
  };
  const save = () => {
    try {
      localStorage.setItem(storageKey, JSON.stringify(sheet()));
    } catch {
      // No storage: the page still works, without autosave.
    }
  };
  root.addEventListener('change', (event) => {
    const input = event.target as HTMLInputElement;
    refresh();
    save();
    if (input.matches('[data-verdict]')) round.timeline.record('verdict', input.dataset.verdict, input.value);
  });
  root.addEventListener('input', save);

  q<HTMLButtonElement>('[data-export]').addEventListener('click', () => {
    const s = sheet();
    const undecided = s.diffs.filter((d) => d.verdict === null).map((d) => d.id);
    const unexplained = s.diffs.filter((d) => d.verdict !== null && !d.reason.trim()).map((d) => d.id);
    const noChange = s.diffs.filter((d) => d.verdict === 'accept-with-change' && !d.change).map((d) => d.id);
    if (undecided.length || unexplained.length || noChange.length) {
      const parts = [
        undecided.length ? `give a verdict on ${undecided.join(', ')}` : '',
        unexplained.length ? `give a reason for ${unexplained.join(', ')}` : '',
        noChange.length ? `name the change you would ask for on ${noChange.join(', ')}` : '',
      ].filter(Boolean);
      say(`Not exported yet: ${parts.join(', and ')}.`, 'error');
      return;
    }
    const name = sheetFileName(s);
    downloadJson(name, s);
    round.exported();
    say(`Exported ${name} (version ${data.version}, digest ${data.digest.slice(0, 12)}).`, 'ok');
  });
  /** Put a whole sheet's answers on the page: the name, every verdict, reason and change. */
  const apply = (sheet: DrillAnswerSheet) => {
    q<HTMLInputElement>('[data-candidate]').value = sheet.candidate ?? '';
    for (const d of sheet.diffs) {
      for (const input of root.querySelectorAll<HTMLInputElement>(`[data-verdict="${d.id}"]`)) input.checked = input.value === d.verdict;
      q<HTMLTextAreaElement>(`[data-reason="${d.id}"]`).value = d.reason;
      q<HTMLTextAreaElement>(`[data-change="${d.id}"]`).value = d.change ?? '';
    }
    refresh();
    save();
  };

  // Start over: asked first, and undone in one click with everything it cleared.
  mountStartOver<DrillAnswerSheet>(root, {
    sheet,
    clear() {
      for (const input of root.querySelectorAll<HTMLInputElement>('input[type="radio"]')) input.checked = false;
      for (const area of root.querySelectorAll<HTMLTextAreaElement | HTMLInputElement>('textarea, input[type="text"]')) area.value = '';
      refresh();
    },
    apply,
    record: (action) => round.timeline.record(action),
    say,
    cleared: 'every verdict and reason is cleared.',
  });

  const round: Round = mountRound(root, { sheet, read: (json) => readDrillSheet(json, { ...data }), apply, save, say, missing: (s) => drillMissing(root, s), hasAnswers: drillHasAnswers });

  const saved = localStorage.getItem(storageKey);
  if (saved) {
    const read = readDrillSheet(saved, { ...data });
    if (read.ok) {
      round.timeline.set(read.value.timeline);
      apply(read.value);
      say('Your saved answers for this version were restored from this browser.');
    }
  }
  refresh();
  for (const b of root.querySelectorAll<HTMLButtonElement>('[data-export], [data-reset]')) b.disabled = false;
  q<HTMLElement>('[data-no-script]').hidden = true;
}
