/**
 * The drill page in the browser: a verdict and a reason per diff (and the change asked for, when
 * the verdict is accept-with-change), saved in this browser as the candidate goes, exported as a
 * JSON answer sheet with the drill's version and digest.
 */
import type { DrillVerdict } from '../packets/schema/assistant.ts';
import { DRILL_SHEET_KIND, readDrillSheet, SHEET_SCHEMA_VERSION, sheetFileName, type DrillAnswerSheet } from '../labs/sheet-read.ts';
import { downloadJson } from './download-json.ts';

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
  root.addEventListener('change', () => {
    refresh();
    save();
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
    say(`Exported ${name} (version ${data.version}, digest ${data.digest.slice(0, 12)}).`, 'ok');
  });
  q<HTMLButtonElement>('[data-reset]').addEventListener('click', () => {
    localStorage.removeItem(storageKey);
    for (const input of root.querySelectorAll<HTMLInputElement>('input[type="radio"]')) input.checked = false;
    for (const area of root.querySelectorAll<HTMLTextAreaElement | HTMLInputElement>('textarea, input[type="text"]')) area.value = '';
    refresh();
    say('Started over: every verdict and reason is cleared.');
  });

  const saved = localStorage.getItem(storageKey);
  if (saved) {
    const read = readDrillSheet(saved, { ...data });
    if (read.ok) {
      q<HTMLInputElement>('[data-candidate]').value = read.value.candidate ?? '';
      for (const d of read.value.diffs) {
        for (const input of root.querySelectorAll<HTMLInputElement>(`[data-verdict="${d.id}"]`)) input.checked = input.value === d.verdict;
        q<HTMLTextAreaElement>(`[data-reason="${d.id}"]`).value = d.reason;
        q<HTMLTextAreaElement>(`[data-change="${d.id}"]`).value = d.change ?? '';
      }
      say('Your saved answers for this version were restored from this browser.');
    }
  }
  refresh();
  for (const b of root.querySelectorAll<HTMLButtonElement>('[data-export], [data-reset]')) b.disabled = false;
  q<HTMLElement>('[data-no-script]').hidden = true;
}
