/**
 * The scoring pages of labs and drills in the browser. The reviewer imports the key (from the
 * reviewer bundle; it is never on the site) and the candidate's answer sheet; the page shows the
 * key beside each choice and reason, the final code's tests (visible and held out, from the
 * key's table), and pre-fills the rubric's automatic rows on the scoring form below it, which
 * then works as for a take-home: the judgement rows, the decision, export, print.
 */
import { runView, type PageState } from '../labs/run-view.ts';
import { autoScores, type LabEvidence } from '../labs/score.ts';
import { PLAN_FIELDS, readDrillKey, readDrillSheet, readLabKey, readLabSheet, type DrillAnswerSheet, type DrillKeyFile, type LabAnswerSheet } from '../labs/sheets.ts';
import type { ReviewerKey } from '../labs/table.ts';
import type { ScoringCard } from './scored-sheet.ts';

/** A rubric row as the pre-fill needs it. */
interface Row {
  id: string;
  max: number;
  auto?: string;
}

/** What the lab's scoring page hands its script (public: the key comes from a file). */
export interface LabScoringData {
  id: string;
  version: string;
  digest: string;
  rows: Row[];
  suggestions: { id: string; ask: string; original: string; offered: string; revised: string }[];
}

/** What the drill's scoring page hands its script. */
export interface DrillScoringData {
  id: string;
  version: string;
  digest: string;
  rows: Row[];
  diffs: { id: string; title: string }[];
}

/** What every kind's scoring page hands its script: the packet version and the rubric's rows. */
export function scoringDataOf(card: ScoringCard): Pick<LabScoringData & DrillScoringData, 'id' | 'version' | 'digest' | 'rows'> {
  return { id: card.id, version: card.version, digest: card.digest, rows: card.rubric.rows.map((r) => ({ id: r.id, max: r.max, ...(r.auto ? { auto: r.auto } : {}) })) };
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, attrs: Record<string, string> = {}): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** The scoring form on the page, the rubric card below the comparison. */
function scoringForm(): HTMLFormElement | null {
  return document.querySelector<HTMLFormElement>('[data-scoring-card]');
}

/** The ticked score of each row of the form, by row id. */
function tickedScores(form: HTMLFormElement): Record<string, number> {
  const scores: Record<string, number> = {};
  for (const input of form.querySelectorAll<HTMLInputElement>('input[type="radio"][name^="row-"]:checked')) scores[input.name.slice('row-'.length)] = Number(input.value);
  return scores;
}

/**
 * Whether the form holds a reviewer's work that an import would lose: a tick other than the ones
 * the last import pre-filled (all of them when none did, as for a card restored from this
 * browser), or a note.
 */
export function holdsOwnScores(ticked: Readonly<Record<string, number>>, notes: readonly string[], prefilled: Readonly<Record<string, number>> | null): boolean {
  if (notes.some((n) => n.trim() !== '')) return true;
  return Object.entries(ticked).some(([row, score]) => prefilled?.[row] !== score);
}

/**
 * Start the scoring form afresh for a new answer sheet: every row unticked and every note empty
 * (nothing of the previous candidate stays), the candidate's name from the sheet, then the
 * automatic rows ticked; the form's own script recomputes on `change`. The reviewer's name and
 * the date stay: they are the reviewer's.
 */
function startCard(form: HTMLFormElement | null, scores: Record<string, number>, candidate: string | undefined): string[] {
  if (!form) return [];
  for (const input of form.querySelectorAll<HTMLInputElement>('input[type="radio"][name^="row-"]')) input.checked = false;
  for (const note of form.querySelectorAll<HTMLTextAreaElement>('textarea[data-note]')) note.value = '';
  const filled: string[] = [];
  for (const [row, score] of Object.entries(scores)) {
    const input = form.querySelector<HTMLInputElement>(`input[name="row-${CSS.escape(row)}"][value="${score}"]`);
    if (!input) continue;
    input.checked = true;
    filled.push(`${row} ${score}`);
  }
  const who = form.elements.namedItem('candidate') as HTMLInputElement | null;
  if (who) who.value = candidate ?? '';
  form.dispatchEvent(new Event('change', { bubbles: true }));
  return filled;
}

/** Ask, in the page's dialog, whether to replace the card being scored; resolves true to replace. */
function askToReplace(root: HTMLElement, current: string, next: string): Promise<boolean> {
  const dialog = root.querySelector<HTMLDialogElement>('[data-replace-dialog]')!;
  // A question already open holds the card: a second file while it is open is not loaded.
  if (dialog.open) return Promise.resolve(false);
  dialog.querySelector<HTMLElement>('[data-replace-what]')!.textContent =
    `The card below holds your scores for ${current || 'a candidate with no name'}. Loading the sheet of ${next || 'a candidate with no name'} starts a clean card: every tick, note and the candidate's name go. Export the card first to keep it.`;
  return new Promise((resolve) => {
    const done = (replace: boolean) => {
      dialog.removeEventListener('close', onClose);
      if (dialog.open) dialog.close();
      resolve(replace);
    };
    const onClose = () => done(false);
    dialog.querySelector<HTMLButtonElement>('[data-replace-confirm]')!.onclick = () => done(true);
    dialog.querySelector<HTMLButtonElement>('[data-replace-cancel]')!.onclick = () => done(false);
    dialog.addEventListener('close', onClose);
    dialog.showModal();
  });
}

type Read<T> = (text: string) => { ok: true; value: T } | { ok: false; message: string };

/**
 * Two file inputs (key, sheet); `show` runs when both are loaded and valid, and returns the
 * scores it pre-filled. A new key or sheet over a card the reviewer has scored asks first; kept,
 * nothing changes (the file is not loaded).
 */
function imports<K, S extends { candidate?: string }>(root: HTMLElement, readKey: Read<K>, readSheet: Read<S>, show: (key: K, sheet: S) => Record<string, number>): void {
  const status = root.querySelector<HTMLElement>('[data-import-status]')!;
  const say = (message: string, tone: 'ok' | 'error' | '' = '') => {
    status.textContent = message;
    status.dataset.tone = tone;
  };
  let key: K | undefined;
  let sheet: S | undefined;
  // What the last import ticked: ticks beyond these are the reviewer's own.
  let prefilled: Record<string, number> | null = null;
  const load = <T>(selector: string, read: Read<T>, next: (v: T) => { key: K | undefined; sheet: S | undefined }, what: string) => {
    const input = root.querySelector<HTMLInputElement>(selector)!;
    input.disabled = false;
    input.addEventListener('change', async () => {
      const file = input.files?.[0];
      if (!file) return;
      const result = read(await file.text());
      if (!result.ok) {
        input.value = '';
        say(`${what}: ${result.message}`, 'error');
        return;
      }
      const then = next(result.value);
      if (!then.key || !then.sheet) {
        ({ key, sheet } = then);
        say(`Loaded ${file.name}; now load the ${then.key ? 'answer sheet' : 'key'}.`, 'ok');
        return;
      }
      const form = scoringForm();
      const notes = form ? [...form.querySelectorAll<HTMLTextAreaElement>('textarea[data-note]')].map((n) => n.value) : [];
      if (form && holdsOwnScores(tickedScores(form), notes, prefilled)) {
        const current = (form.elements.namedItem('candidate') as HTMLInputElement | null)?.value.trim() ?? '';
        if (!(await askToReplace(root, current, then.sheet.candidate?.trim() ?? ''))) {
          input.value = '';
          say(`Kept the card of ${current || 'the candidate being scored'}; ${file.name} was not loaded.`, '');
          return;
        }
      }
      ({ key, sheet } = then);
      prefilled = show(then.key, then.sheet);
      say(`Loaded ${file.name}. The key and the answer sheet are shown side by side; the card below starts clean, with the automatic rows ticked.`, 'ok');
    });
  };
  load('[data-key-file]', readKey, (v) => ({ key: v, sheet }), 'The key');
  load('[data-sheet-file]', readSheet, (v) => ({ key, sheet: v }), 'The answer sheet');
  root.querySelector<HTMLElement>('[data-no-script]')!.hidden = true;
}

const CHOICE_WORDS: Record<string, string> = { accept: 'accept', revise: 'revise', reject: 'reject' };

/** The lab's scoring page. */
export function mountLabScoring(root: HTMLElement): void {
  const data = JSON.parse(root.dataset.labScoring ?? '{}') as LabScoringData;
  const target = { id: data.id, version: data.version, digest: data.digest, suggestions: data.suggestions.map((s) => s.id) };
  imports<ReviewerKey, LabAnswerSheet>(
    root,
    (text) => readLabKey(text, target),
    (text) => readLabSheet(text, target),
    (key, sheet) => {
      const rows = root.querySelector<HTMLElement>('[data-compare-rows]')!;
      let matches = 0;
      const hands: string[] = [];
      rows.replaceChildren(
        ...sheet.suggestions.map((s, i) => {
          const k = key.key[i]!;
          const isHand = s.hand !== undefined;
          const match = !isHand && s.choice === k.choice;
          if (match) matches++;
          if (isHand) hands.push(s.id);
          const tr = el('tr');
          const id = el('td');
          id.append(el('code', s.id));
          tr.append(
            id,
            el('td', isHand ? `hand edit${s.choice ? ` (from ${s.choice})` : ''}` : s.choice ? CHOICE_WORDS[s.choice]! : 'no choice', { 'data-match': isHand ? 'hand' : match ? 'yes' : 'no' }),
            el('td', `${k.choice}${k.reviewOnly ? ' (only review catches it)' : ''}`),
            el('td', s.reason.trim() || '(none)'),
            el('td', `${k.reason}${k.reviewOnly ? ` Review only: ${k.reviewOnly}` : ''}`),
          );
          return tr;
        }),
      );
      // Hand edits beside the version the key chose.
      const handBox = root.querySelector<HTMLElement>('[data-hand-edits]')!;
      handBox.replaceChildren(
        ...sheet.suggestions.flatMap((s, i) => {
          if (s.hand === undefined) return [];
          const k = key.key[i]!;
          const ref = data.suggestions[i]!;
          const reference = k.choice === 'accept' ? ref.offered : k.choice === 'revise' ? ref.revised : ref.original;
          const box = el('div', undefined, { class: 'hand-edit', 'data-hand-edit': s.id });
          box.append(el('h3', `Hand edit of ${s.id}: check it against the reference`), el('p', 'The candidate wrote:'), el('pre', s.hand), el('p', `The key's version (${k.choice}):`), el('pre', reference));
          return [box];
        }),
      );
      const plan = root.querySelector<HTMLElement>('[data-plan-view]')!;
      plan.replaceChildren(...PLAN_FIELDS.flatMap((f) => [el('dt', f.label), el('dd', sheet.plan[f.key].trim() || '(empty)')]));

      const states: PageState[] = sheet.suggestions.map((s) => (s.hand !== undefined ? 'hand' : (s.choice ?? 'reject')));
      const run = runView(key, states, key.visibleCount);
      const final = root.querySelector<HTMLElement>('[data-final-rows]')!;
      final.replaceChildren(
        ...run.rows.map((r) => {
          const tr = el('tr');
          const name = el('td');
          name.append(el('code', r.name));
          tr.append(name, el('td', r.hidden ? 'yes' : 'no'), el('td', r.outcome, { 'data-outcome': r.outcome }), el('td', r.message ?? ''));
          return tr;
        }),
      );
      root.querySelector<HTMLElement>('[data-final-summary]')!.textContent = run.sentence;
      const green = (hidden: boolean | null): boolean | null => {
        const subset = run.rows.filter((r) => hidden === null || r.hidden === hidden);
        if (subset.some((r) => r.outcome === 'skipped')) return null;
        return subset.every((r) => r.outcome === 'pass');
      };
      const evidence: LabEvidence = { matches, total: sheet.suggestions.length, testsGreen: green(null), visibleGreen: green(false), hiddenGreen: green(true) };
      const scores = autoScores({ rows: data.rows }, evidence);
      // A hand edit leaves the choices to the reviewer: whether it is the right change is a judgement.
      if (hands.length) for (const row of data.rows) if (row.auto === 'choices') delete scores[row.id];
      const filled = startCard(scoringForm(), scores, sheet.candidate);
      root.querySelector<HTMLElement>('[data-compare-summary]')!.textContent =
        `${matches} of ${sheet.suggestions.length} choices match the key${hands.length ? `; ${hands.length} edited by hand (${hands.join(', ')}), for you to judge` : ''}.`;
      root.querySelector<HTMLElement>('[data-auto-note]')!.textContent = filled.length
        ? `Ticked from the key: ${filled.join(', ')}. Every other row is yours to score.`
        : 'No automatic row could be ticked; score every row yourself.';
      root.querySelector<HTMLElement>('[data-compare]')!.hidden = false;
      return scores;
    },
  );
}

/** The drill's scoring page. */
export function mountDrillScoring(root: HTMLElement): void {
  const data = JSON.parse(root.dataset.drillScoring ?? '{}') as DrillScoringData;
  const target = { id: data.id, version: data.version, digest: data.digest, diffs: data.diffs.map((d) => d.id) };
  imports<DrillKeyFile, DrillAnswerSheet>(
    root,
    (text) => readDrillKey(text, target),
    (text) => readDrillSheet(text, target),
    (key, sheet) => {
      let matches = 0;
      root.querySelector<HTMLElement>('[data-compare-rows]')!.replaceChildren(
        ...sheet.diffs.map((d, i) => {
          const k = key.key[i]!;
          const match = d.verdict === k.verdict;
          if (match) matches++;
          const tr = el('tr');
          tr.append(
            el('td', data.diffs[i]!.title),
            el('td', `${d.verdict ?? 'no verdict'}${d.change ? `: ${d.change}` : ''}`, { 'data-match': match ? 'yes' : 'no' }),
            el('td', `${k.verdict}${k.change ? `: ${k.change}` : ''}`),
            el('td', d.reason.trim() || '(none)'),
            el('td', k.consequence),
          );
          return tr;
        }),
      );
      const scores = autoScores({ rows: data.rows }, { matches, total: sheet.diffs.length, testsGreen: null, visibleGreen: null, hiddenGreen: null });
      const filled = startCard(scoringForm(), scores, sheet.candidate);
      root.querySelector<HTMLElement>('[data-compare-summary]')!.textContent = `${matches} of ${sheet.diffs.length} verdicts match the key. The reasons are yours to judge against what a good reason names.`;
      root.querySelector<HTMLElement>('[data-auto-note]')!.textContent = filled.length ? `Ticked from the key: ${filled.join(', ')}. Every other row is yours to score.` : 'No automatic row could be ticked.';
      root.querySelector<HTMLElement>('[data-compare]')!.hidden = false;
      return scores;
    },
  );
}
