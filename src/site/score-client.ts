/**
 * The scoring pages of labs and drills in the browser. The reviewer imports the key (from the
 * reviewer bundle; it is never on the site) and the candidate's answer sheet; the page shows the
 * key beside each choice and reason, the final code's tests (visible and held out, from the
 * key's table), and pre-fills the rubric's automatic rows on the scoring form below it, which
 * then works as for a take-home: the judgement rows, the decision, export, print.
 */
import { showControls } from '../errors/escape.ts';
import { runView, type PageState } from '../labs/run-view.ts';
import { autoScores, scoreSheet, typedVersion } from '../labs/score.ts';
import { PLAN_FIELDS, readDrillKey, readDrillSheet, readLabKey, readLabSheet, type DrillAnswerSheet, type DrillKeyFile, type LabAnswerSheet, type LabPlan } from '../labs/sheets.ts';
import type { ReviewerKey } from '../labs/table.ts';
import { CARD_FILE_LIMIT, isSummary, readSheetScorecard, readSheetSummary, SHEET_FILE_LIMIT, tooLarge, type ScorePageTarget, type SheetQueueItem, type SheetScorecard } from './score-answers.ts';
import { timelineRows } from './score-timeline.ts';
import { decisionHeadline, type GraderEvidence, type ScoringCard } from './scored-sheet.ts';

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
  suggestions: LabScoringSuggestion[];
  /**
   * A lab with variants: every variant's digest and suggestions (as its page shows them). A key
   * and an answer sheet of any of these digests are read, and must be of the same variant; the
   * hand edits are compared with that variant's versions. Absent: `digest` is the only one.
   */
  variants?: { id: string; digest: string; suggestions: LabScoringSuggestion[] }[];
}

/** A suggestion as the scoring page compares a hand edit with it. */
export interface LabScoringSuggestion {
  id: string;
  ask: string;
  original: string;
  offered: string;
  revised: string;
}

/** The variant of a lab's scoring data a key's or a sheet's JSON names by its digest; the first (the page's own) when none does. */
export function scoringVariantOf(data: Pick<LabScoringData, 'digest' | 'suggestions' | 'variants'>, json: string): { id?: string; digest: string; suggestions: LabScoringSuggestion[] } {
  const own = { digest: data.digest, suggestions: data.suggestions };
  if (!data.variants?.length) return own;
  let digest: unknown;
  try {
    digest = (JSON.parse(json) as { digest?: unknown } | null)?.digest;
  } catch {
    return own;
  }
  return data.variants.find((v) => v.digest === digest) ?? own;
}

/**
 * How the lab's scoring page reads an answer sheet: against the variant its digest names (the
 * page's own digest when it names none, which no sheet of a variant has). A lab with variants:
 * the sheet's `variant`, when it has one, must be that variant's id, as its page writes it and
 * as `packet grade` has it (PK582); any other (another id, `V3`, a number) is refused, since the
 * sheet was changed after its page exported it.
 */
export function labSheetReader(data: Pick<LabScoringData, 'id' | 'version' | 'digest' | 'suggestions' | 'variants'>): Read<LabAnswerSheet> {
  const target = { id: data.id, version: data.version, digest: data.digest, suggestions: data.suggestions.map((s) => s.id) };
  return (text) => {
    const own = scoringVariantOf(data, text);
    const read = readLabSheet(text, { ...target, digest: own.digest });
    if (!read.ok || !data.variants?.length || own.id === undefined) return read;
    const said = (JSON.parse(text) as { variant?: unknown }).variant;
    if (said === undefined || said === own.id) return read;
    // packet grade's code for the same sheet: another variant's id, an id of none, or no text.
    const other = typeof said === 'string' && data.variants.some((v) => v.id === said);
    const code = typeof said !== 'string' ? 'PK563' : other ? 'PK582' : 'PK581';
    const what = typeof said === 'string' ? `is ${showControls(said.slice(0, 40))} and its digest is variant ${own.id}'s` : `is ${said === null ? 'null' : `a ${Array.isArray(said) ? 'list' : typeof said}`}, not a variant's id such as "${own.id}"`;
    return {
      ok: false,
      message: `the sheet's "variant" ${what}. A lab page writes the variant it shows, so the sheet was changed after it was exported, and packet grade refuses it too (${code}): ask the candidate for the sheet as the page exported it. Nothing was loaded.`,
    };
  };
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

/** Text from a candidate's sheet or a scorecard, as the page shows it: control and bidi characters as escapes, line breaks kept. */
const shown = (text: string) => text.split('\n').map(showControls).join('\n');

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, attrs: Record<string, string> = {}): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = shown(text);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** A table row of cells, each labelled with its column's heading (a phone shows the label above the cell). */
function row(columns: readonly string[], cells: (string | HTMLElement | { text: string; attrs: Record<string, string> })[], attrs: Record<string, string> = {}): HTMLTableRowElement {
  const tr = el('tr', undefined, attrs);
  tr.append(
    ...cells.map((c, i) => {
      const label = { 'data-label': columns[i] ?? '' };
      if (typeof c === 'string') return el('td', c, label);
      if (c instanceof HTMLElement) {
        const td = el('td', undefined, label);
        td.append(c);
        return td;
      }
      return el('td', c.text, { ...label, ...c.attrs });
    }),
  );
  return tr;
}

/** The column headings of a table on the page, as its head names them. */
function columnsOf(body: HTMLElement): string[] {
  return [...(body.closest('table')?.querySelectorAll('thead th') ?? [])].map((th) => th.textContent?.trim() ?? '');
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

/** What the page shows of one submission: its answers beside the key, its timeline, and, from a scorecard, the grader's words. */
interface View {
  /** The comparison table's rows: the first cell (an id or a title), the answer, the key, the reasons. */
  items: { first: string | HTMLElement; answer: string; match: 'yes' | 'no' | 'hand'; key: string; reason: string; keyReason: string }[];
  summary: string;
  timeline: unknown;
  grader?: GraderEvidence;
  /** A lab's hand edits, plan and final tests. */
  lab?: {
    hands: { id: string; hand: string; keyChoice: string; reference: string }[];
    plan: Record<keyof LabPlan, string>;
    tests: { name: string; hidden: boolean; outcome: string; message: string }[];
    testsSentence: string;
  };
}

/** What a page's kind does with a view and the scores to tick. */
interface Shown {
  scores: Record<string, number>;
  candidate: string | undefined;
  /** The auto note's words when a row could not be ticked. */
  none: string;
}

/** Put a view on the page (everything as text). */
function showView(root: HTMLElement, view: View): void {
  const body = root.querySelector<HTMLElement>('[data-compare-rows]')!;
  const columns = columnsOf(body);
  body.replaceChildren(...view.items.map((i) => row(columns, [i.first, { text: i.answer, attrs: { 'data-match': i.match } }, i.key, i.reason.trim() || '(none)', i.keyReason])));
  root.querySelector<HTMLElement>('[data-compare-summary]')!.textContent = shown(view.summary);

  const grader = root.querySelector<HTMLElement>('[data-graded]')!;
  grader.hidden = !view.grader;
  if (view.grader) {
    const g = view.grader;
    root.querySelector<HTMLElement>('[data-graded-headline]')!.textContent = shown(decisionHeadline(g));
    grader.dataset.state = g.decision.state;
    const list = root.querySelector<HTMLElement>('[data-graded-findings]')!;
    list.replaceChildren(
      ...g.findings.map((f) => {
        const li = el('li', undefined, { 'data-finding': f.code });
        li.append(el('code', f.code), ` ${shown(f.message)}`);
        return li;
      }),
    );
    if (!g.findings.length) list.append(el('li', 'No findings.'));
  }

  if (view.lab) {
    const lab = view.lab;
    root.querySelector<HTMLElement>('[data-hand-edits]')!.replaceChildren(
      ...lab.hands.map((h) => {
        const box = el('div', undefined, { class: 'hand-edit', 'data-hand-edit': h.id });
        box.append(el('h3', `Hand edit of ${h.id}: check it against the reference`), el('p', 'The candidate wrote:'), el('pre', h.hand, { tabindex: '0', 'aria-label': `The candidate's hand edit of ${h.id}` }), el('p', `The key's version (${h.keyChoice}):`), el('pre', h.reference, { tabindex: '0', 'aria-label': `The key's version of ${h.id}` }));
        return box;
      }),
    );
    root.querySelector<HTMLElement>('[data-plan-view]')!.replaceChildren(...PLAN_FIELDS.flatMap((f) => [el('dt', f.label), el('dd', lab.plan[f.key].trim() || '(empty)')]));
    const final = root.querySelector<HTMLElement>('[data-final-rows]')!;
    const finalColumns = columnsOf(final);
    final.replaceChildren(
      ...lab.tests.map((t) => row(finalColumns, [el('code', shown(t.name)), t.hidden ? 'yes' : 'no', { text: t.outcome, attrs: { 'data-outcome': t.outcome } }, t.message])),
    );
    root.querySelector<HTMLElement>('[data-final-summary]')!.textContent = shown(lab.testsSentence);
  }

  const { rows: steps, note } = timelineRows(view.timeline);
  const tl = root.querySelector<HTMLElement>('[data-timeline-rows]')!;
  const tlColumns = columnsOf(tl);
  tl.replaceChildren(...steps.map((s) => row(tlColumns, [s.after, s.clock, s.action, s.id ? el('code', shown(s.id)) : '', s.detail])));
  tl.closest('table')!.hidden = steps.length === 0;
  root.querySelector<HTMLElement>('[data-timeline-note]')!.textContent = note;
  root.querySelector<HTMLElement>('[data-compare]')!.hidden = false;
}

/** Tick the card for a shown view: a clean card, the automatic rows ticked, the auto note. */
function fillCard(root: HTMLElement, s: Shown, from: string): Record<string, number> {
  const filled = startCard(scoringForm(), s.scores, s.candidate);
  root.querySelector<HTMLElement>('[data-auto-note]')!.textContent = filled.length ? `Ticked from ${from}: ${filled.join(', ')}. Every other row is yours to score.` : s.none;
  return s.scores;
}

/**
 * The page's imports: the key and a sheet (compared here), or a scorecard.json or a batch's
 * summary.json of `packet grade` (compared by the grader). A new submission over a card the
 * reviewer has scored asks first; kept, nothing changes (the file is not loaded).
 */
function imports<K, S extends { candidate?: string }>(
  root: HTMLElement,
  readKey: Read<K>,
  readSheet: Read<S>,
  compare: (key: K, sheet: S) => { view: View; shown: Shown },
  target: ScorePageTarget,
  fromAnswers: (card: SheetScorecard) => { view: View; shown: Shown },
  /** Why a key and a sheet cannot be compared (a lab's variants: another variant's key), if they cannot. */
  disagree?: (key: K, sheet: S) => string | undefined,
  /** A lab with variants: the variant of a key and of a sheet, as the page names it (its id, from the page's own data). */
  variantOf?: { key: (key: K) => string; sheet: (sheet: S) => string },
): void {
  const status = root.querySelector<HTMLElement>('[data-import-status]')!;
  const say = (message: string, tone: 'ok' | 'error' | '' = '') => {
    status.textContent = shown(message);
    status.dataset.tone = tone;
  };
  let key: K | undefined;
  let sheet: S | undefined;
  // Which variant each file loaded is (a lab with variants), as text: a scorecard's id is the file's own words.
  const loaded = root.querySelector<HTMLElement>('[data-loaded-variant]');
  const sayVariants = (parts: string[]) => {
    if (!loaded || !variantOf) return;
    loaded.textContent = parts.map((p) => `${shown(p)}.`).join(' ');
    loaded.hidden = parts.length === 0;
  };
  const sayFileVariants = () => sayVariants(variantOf ? [...(key ? [`Key: variant ${variantOf.key(key)}`] : []), ...(sheet ? [`Answer sheet: variant ${variantOf.sheet(sheet)}`] : [])] : []);
  // What the last import ticked: ticks beyond these are the reviewer's own.
  let prefilled: Record<string, number> | null = null;
  /** True when the card may be replaced by the submission of `next` (asked when the reviewer has scored it). */
  const mayReplace = async (next: string, label: string): Promise<boolean> => {
    const form = scoringForm();
    const notes = form ? [...form.querySelectorAll<HTMLTextAreaElement>('textarea[data-note]')].map((n) => n.value) : [];
    if (!form || !holdsOwnScores(tickedScores(form), notes, prefilled)) return true;
    const current = (form.elements.namedItem('candidate') as HTMLInputElement | null)?.value.trim() ?? '';
    if (await askToReplace(root, current, next)) return true;
    say(`Kept the card of ${current || 'the candidate being scored'}; ${label} was not loaded.`, '');
    return false;
  };
  const load = <T>(selector: string, read: Read<T>, next: (v: T) => { key: K | undefined; sheet: S | undefined }, what: string) => {
    const input = root.querySelector<HTMLInputElement>(selector)!;
    input.disabled = false;
    input.addEventListener('change', async () => {
      const file = input.files?.[0];
      if (!file) return;
      const big = tooLarge(file.name, file.size, SHEET_FILE_LIMIT);
      if (big) {
        input.value = '';
        say(`${what}: ${big}`, 'error');
        return;
      }
      const result = read(await file.text());
      if (!result.ok) {
        input.value = '';
        say(`${what}: ${result.message}`, 'error');
        return;
      }
      let then = next(result.value);
      const apart = then.key && then.sheet ? disagree?.(then.key, then.sheet) : undefined;
      if (apart) {
        // The file just read is kept, the other one of another variant is set aside.
        then = selector === '[data-key-file]' ? { key: then.key, sheet: undefined } : { key: undefined, sheet: then.sheet };
        ({ key, sheet } = then);
        sayFileVariants();
        say(`Loaded ${file.name}; ${apart}`, 'error');
        return;
      }
      if (!then.key || !then.sheet) {
        ({ key, sheet } = then);
        sayFileVariants();
        say(`Loaded ${file.name}; now load the ${then.key ? 'answer sheet' : 'key'}.`, 'ok');
        return;
      }
      if (!(await mayReplace(then.sheet.candidate?.trim() ?? '', file.name))) {
        input.value = '';
        return;
      }
      ({ key, sheet } = then);
      sayFileVariants();
      const c = compare(then.key, then.sheet);
      showView(root, c.view);
      markQueue(-1);
      prefilled = fillCard(root, c.shown, 'the key');
      say(`Loaded ${file.name}. The key and the answer sheet are shown side by side; the card below starts clean, with the automatic rows ticked.`, 'ok');
    });
  };
  load('[data-key-file]', readKey, (v) => ({ key: v, sheet }), 'The key');
  load('[data-sheet-file]', readSheet, (v) => ({ key, sheet: v }), 'The answer sheet');

  // A scorecard, or a batch as a queue.
  let queue: SheetQueueItem[] = [];
  let at = -1;
  const queueBox = root.querySelector<HTMLElement>('[data-sheet-queue]')!;
  const queueBody = root.querySelector<HTMLElement>('[data-sheet-queue-rows]')!;
  const prev = root.querySelector<HTMLButtonElement>('[data-queue-prev]')!;
  const next = root.querySelector<HTMLButtonElement>('[data-queue-next]')!;
  const markQueue = (i: number) => {
    at = i;
    for (const tr of queueBody.querySelectorAll<HTMLElement>('tr')) {
      if (Number(tr.dataset.queueItem) === i) tr.setAttribute('aria-current', 'true');
      else tr.removeAttribute('aria-current');
    }
    const openable = queue.map((q, j) => (q.card.ok ? j : -1)).filter((j) => j >= 0);
    prev.disabled = !openable.some((j) => j < i) || i < 0;
    next.disabled = !openable.some((j) => j > i);
    root.querySelector<HTMLElement>('[data-sheet-queue-pos]')!.textContent = i >= 0 ? `Submission ${i + 1} of ${queue.length}` : `${queue.length} submission${queue.length === 1 ? '' : 's'}`;
  };
  const open = async (value: SheetScorecard, label: string): Promise<boolean> => {
    const name = value.card.candidate;
    if (!(await mayReplace(name, label))) return false;
    const c = fromAnswers(value);
    sayVariants([`Scorecard: ${value.variant !== undefined ? `variant ${value.variant}` : 'no variant named'}`]);
    showView(root, c.view);
    prefilled = fillCard(root, c.shown, 'the scorecard');
    const n = Object.keys(c.shown.scores).length;
    say(`Loaded the scorecard of ${name}: ${n} automatic row${n === 1 ? '' : 's'} ticked from packet grade's scores; the card below starts clean.`, 'ok');
    return true;
  };
  const openItem = async (i: number) => {
    const item = queue[i];
    if (!item?.card.ok) return;
    if (await open(item.card.value, `the scorecard of ${item.name}`)) {
      markQueue(i);
      say(`Opened ${item.name} (${i + 1} of ${queue.length}) from its scorecard.`, 'ok');
    }
  };
  const step = (by: number) => {
    for (let i = at + by; i >= 0 && i < queue.length; i += by) if (queue[i]!.card.ok) return void openItem(i);
  };
  prev.addEventListener('click', () => step(-1));
  next.addEventListener('click', () => step(1));
  const cardInput = root.querySelector<HTMLInputElement>('[data-card-file]')!;
  cardInput.disabled = false;
  cardInput.addEventListener('change', async () => {
    const file = cardInput.files?.[0];
    if (!file) return;
    const big = tooLarge(file.name, file.size, CARD_FILE_LIMIT);
    if (big) {
      cardInput.value = '';
      return say(big, 'error');
    }
    const text = await file.text();
    cardInput.value = '';
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return say(`${file.name} is not JSON, so it is neither a scorecard.json nor a summary.json. Nothing was changed.`, 'error');
    }
    if (isSummary(json)) {
      const read = readSheetSummary(json as Record<string, unknown>, target);
      if (!read.ok) return say(`${file.name}: ${read.message}`, 'error');
      queue = read.items;
      queueBody.replaceChildren(
        ...queue.map((item, i) => {
          const columns = columnsOf(queueBody);
          let first: string | HTMLElement = item.name;
          if (item.card.ok) {
            const b = el('button', item.name, { type: 'button', class: 'link-button' });
            b.addEventListener('click', () => void openItem(i));
            first = b;
          }
          return row(columns, [first, ...(variantOf ? [item.variant ?? '(none)'] : []), item.verdict, item.decision, item.codes.join(' ') || 'none', item.card.ok ? 'ready to score' : `cannot be scored: ${item.card.message}`], { 'data-queue-item': String(i) });
        }),
      );
      queueBox.hidden = false;
      markQueue(-1);
      const first = queue.findIndex((item) => item.card.ok);
      const ready = queue.filter((item) => item.card.ok).length;
      if (first >= 0) await openItem(first);
      say(`Loaded the batch ${file.name}: ${queue.length} submission${queue.length === 1 ? '' : 's'}, ${ready} to score${first >= 0 && at === first ? `; ${queue[first]!.name} is open` : ''}.`, ready ? 'ok' : 'error');
      return;
    }
    const read = readSheetScorecard(json, target);
    if (!read.ok) return say(`${file.name}: ${read.message}`, 'error');
    if (await open(read.value, file.name)) markQueue(-1);
  });
  root.querySelector<HTMLElement>('[data-no-script]')!.hidden = true;
}

/**
 * The sheet's timeline as the file has it, when the sheet's reader gave none: each step is read
 * by the timeline's display, one by one. A reader that checks the timeline keeps its own.
 */
function withTimeline<T extends { timeline?: unknown }>(result: ReturnType<Read<T>>, text: string): ReturnType<Read<T>> {
  if (!result.ok || result.value.timeline !== undefined) return result;
  try {
    const raw = (JSON.parse(text) as { timeline?: unknown }).timeline;
    return Array.isArray(raw) ? { ok: true, value: { ...result.value, timeline: raw } } : result;
  } catch {
    return result;
  }
}

const CHOICE_WORDS: Record<string, string> = { accept: 'accept', revise: 'revise', reject: 'reject' };

/** What a scorecard's answers give the card: its automatic rows' scores and the candidate. */
const shownOf = (card: SheetScorecard): Shown => ({ scores: { ...card.card.scores }, candidate: card.card.candidate, none: 'The scorecard scores no automatic row; score every row yourself.' });

/**
 * A lab's sheet with each hand edit that types out a scripted version (line ends aside) read as
 * that choice, as `packet grade` reads it: such a region is the choice, and its tests are the
 * key's table's. The key's version is tried first.
 */
export function typedOutSheet(sheet: LabAnswerSheet, key: Pick<ReviewerKey, 'key'>, data: Pick<LabScoringData, 'suggestions'>): LabAnswerSheet {
  return {
    ...sheet,
    suggestions: sheet.suggestions.map((s, i) => {
      const ref = data.suggestions[i];
      const k = key.key[i];
      if (s.hand === undefined || !ref || !k) return s;
      const text = { accept: ref.offered, revise: ref.revised, reject: ref.original } as const;
      const order = [k.choice, ...(['accept', 'revise', 'reject'] as const).filter((c) => c !== k.choice)];
      const typed = typedVersion(s.hand, order.map((c) => [c, text[c]] as const));
      if (typed === null) return s;
      const { hand: _typed, ...rest } = s;
      return { ...rest, choice: typed };
    }),
  };
}

/** The lab's scoring page. */
export function mountLabScoring(root: HTMLElement): void {
  const data = JSON.parse(root.dataset.labScoring ?? '{}') as LabScoringData;
  const target = { id: data.id, version: data.version, digest: data.digest, suggestions: data.suggestions.map((s) => s.id) };
  const card = scoringForm() ? (JSON.parse(scoringForm()!.dataset.scoringCard ?? '{}') as ScoringCard) : ({ id: data.id, version: data.version, digest: data.digest, rubric: { rows: data.rows } } as unknown as ScoringCard);
  const code = (id: string) => el('code', id);
  // A lab with variants: a key and a sheet are read against the variant their digest names.
  const targetOf = (text: string) => ({ ...target, digest: scoringVariantOf(data, text).digest });
  const readSheet = labSheetReader(data);
  const variantName = (digest: string) => data.variants?.find((v) => v.digest === digest)?.id ?? `digest ${digest.slice(0, 12)}`;
  imports<ReviewerKey, LabAnswerSheet>(
    root,
    (text) => readLabKey(text, targetOf(text)),
    (text) => withTimeline(readSheet(text), text),
    (key, read) => {
      const own = { ...data, suggestions: data.variants?.find((v) => v.digest === key.digest)?.suggestions ?? data.suggestions };
      const sheet = typedOutSheet(read, key, own);
      let matches = 0;
      const hands: string[] = [];
      const items = sheet.suggestions.map((s, i): View['items'][number] => {
        const k = key.key[i]!;
        const isHand = s.hand !== undefined;
        const match = !isHand && s.choice === k.choice;
        if (match) matches++;
        if (isHand) hands.push(s.id);
        return {
          first: code(s.id),
          answer: isHand ? `hand edit${s.choice ? ` (from ${s.choice})` : ''}` : s.choice ? CHOICE_WORDS[s.choice]! : 'no choice',
          match: isHand ? 'hand' : match ? 'yes' : 'no',
          key: `${k.choice}${k.reviewOnly ? ' (only review catches it)' : ''}`,
          reason: s.reason,
          keyReason: `${k.reason}${k.reviewOnly ? ` Review only: ${k.reviewOnly}` : ''}`,
        };
      });
      const states: PageState[] = sheet.suggestions.map((s) => (s.hand !== undefined ? 'hand' : (s.choice ?? 'reject')));
      const run = runView(key, states, key.visibleCount);
      const green = (hidden: boolean | null): boolean | null => {
        const subset = run.rows.filter((r) => hidden === null || r.hidden === hidden);
        if (subset.some((r) => r.outcome === 'skipped')) return null;
        return subset.every((r) => r.outcome === 'pass');
      };
      // A hand edit leaves the choices to the reviewer (whether it is the right change is a judgement), unless no judgement can lift the row past a veto: the grader's rule.
      const { scores } = scoreSheet(
        { rows: data.rows, vetoes: card.rubric.vetoes ?? [] },
        sheet.suggestions.map((s) => ({ answer: s.choice, hand: s.hand !== undefined })),
        key.key.map((k) => k.choice),
        { testsGreen: green(null), visibleGreen: green(false), hiddenGreen: green(true) },
      );
      const view: View = {
        items,
        summary: `${matches} of ${sheet.suggestions.length} choices match the key${hands.length ? `; ${hands.length} edited by hand (${hands.join(', ')}), for you to judge` : ''}.`,
        timeline: sheet.timeline,
        lab: {
          hands: sheet.suggestions.flatMap((s, i) => {
            if (s.hand === undefined) return [];
            const k = key.key[i]!;
            const ref = own.suggestions[i]!;
            return [{ id: s.id, hand: s.hand, keyChoice: k.choice, reference: k.choice === 'accept' ? ref.offered : k.choice === 'revise' ? ref.revised : ref.original }];
          }),
          plan: sheet.plan,
          tests: run.rows.map((r) => ({ name: r.name, hidden: r.hidden, outcome: r.outcome, message: r.message ?? '' })),
          testsSentence: run.sentence,
        },
      };
      return { view, shown: { scores, candidate: sheet.candidate, none: 'No automatic row could be ticked; score every row yourself.' } };
    },
    { kind: 'lab', card, items: target.suggestions },
    (scored) => {
      const a = scored.answers;
      const matches = a.items.filter((i) => i.matches).length;
      const hands = a.items.filter((i) => i.hand !== undefined || i.answer === 'hand edit');
      const passed = a.tests.filter((t) => t.outcome === 'pass').length;
      const held = a.tests.filter((t) => t.hidden).length;
      const view: View = {
        items: a.items.map((i) => {
          const isHand = i.hand !== undefined || i.answer === 'hand edit';
          return { first: code(i.id), answer: isHand ? 'hand edit' : (i.answer ?? 'no choice'), match: isHand ? 'hand' : i.matches ? 'yes' : 'no', key: i.key, reason: i.reason, keyReason: i.keyReason };
        }),
        summary: `${matches} of ${a.items.length} choices match the key${hands.length ? `; ${hands.length} edited by hand (${hands.map((h) => h.id).join(', ')}), for you to judge` : ''}.`,
        timeline: a.timeline,
        grader: scored.card.graderEvidence!,
        lab: {
          hands: hands.map((h) => ({ id: h.id, hand: h.hand ?? '', keyChoice: h.key, reference: h.reference ?? '(the scorecard carries no reference for this region)' })),
          plan: a.plan ?? { endState: '', checkpoints: '', invariant: '', byHand: '' },
          tests: a.tests.map((t) => ({ name: t.id, hidden: t.hidden, outcome: t.outcome, message: t.message ?? '' })),
          testsSentence: a.tests.length ? `${passed} of ${a.tests.length} tests pass in the judge's run of the final code (${held} of them held out).` : 'The judge ran no test of the final code.',
        },
      };
      return { view, shown: shownOf(scored) };
    },
    (key, sheet) =>
      key.digest === sheet.digest
        ? undefined
        : `this key is variant ${variantName(key.digest)}'s and the answer sheet is variant ${variantName(sheet.digest)}'s: load the key of the sheet's variant (VARIANTS.json names each variant's key), or that variant's sheet.`,
    data.variants?.length ? { key: (k) => variantName(k.digest), sheet: (s) => variantName(s.digest) } : undefined,
  );
}

/** The drill's scoring page. */
export function mountDrillScoring(root: HTMLElement): void {
  const data = JSON.parse(root.dataset.drillScoring ?? '{}') as DrillScoringData;
  const target = { id: data.id, version: data.version, digest: data.digest, diffs: data.diffs.map((d) => d.id) };
  const card = JSON.parse(scoringForm()?.dataset.scoringCard ?? '{}') as ScoringCard;
  imports<DrillKeyFile, DrillAnswerSheet>(
    root,
    (text) => readDrillKey(text, target),
    (text) => withTimeline(readDrillSheet(text, target), text),
    (key, sheet) => {
      let matches = 0;
      const items = sheet.diffs.map((d, i): View['items'][number] => {
        const k = key.key[i]!;
        const match = d.verdict === k.verdict;
        if (match) matches++;
        return { first: data.diffs[i]!.title, answer: `${d.verdict ?? 'no verdict'}${d.change ? `: ${d.change}` : ''}`, match: match ? 'yes' : 'no', key: `${k.verdict}${k.change ? `: ${k.change}` : ''}`, reason: d.reason, keyReason: k.consequence };
      });
      const scores = autoScores({ rows: data.rows }, { matches, total: sheet.diffs.length, testsGreen: null, visibleGreen: null, hiddenGreen: null });
      const view: View = { items, summary: `${matches} of ${sheet.diffs.length} verdicts match the key. The reasons are yours to judge against what a good reason names.`, timeline: sheet.timeline };
      return { view, shown: { scores, candidate: sheet.candidate, none: 'No automatic row could be ticked.' } };
    },
    { kind: 'drill', card, items: target.diffs },
    (scored) => {
      const a = scored.answers;
      const matches = a.items.filter((i) => i.matches).length;
      const view: View = {
        items: a.items.map((i) => ({ first: i.title, answer: `${i.answer ?? 'no verdict'}${i.change ? `: ${i.change}` : ''}`, match: i.matches ? 'yes' : 'no', key: i.key, reason: i.reason, keyReason: i.keyReason })),
        summary: `${matches} of ${a.items.length} verdicts match the key. The reasons are yours to judge against what a good reason names.`,
        timeline: a.timeline,
        grader: scored.card.graderEvidence!,
      };
      return { view, shown: shownOf(scored) };
    },
  );
}
