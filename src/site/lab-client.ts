/**
 * The lab page in the browser: the candidate's choices drive the file views (the build's
 * highlighted code, src/site/lab-code-view.ts, each replaced by a CodeMirror editor editable only
 * inside the suggestions' regions, src/site/lab-editor.ts, loaded on demand), "Run tests" reads the
 * precomputed table, and the answer sheet autosaves in this browser and exports as JSON with the
 * lab's version and digest. No code of the lab runs here.
 */
import { mountFileViews } from './lab-code-view.ts';
import { stateOfText, variantOf, type ComposeFile, type ComposeSuggestion, type LabState } from '../packets/lab-compose.ts';
import { runView, type PageState } from '../labs/run-view.ts';
import { LAB_SHEET_KIND, missingReasons, PLAN_FIELDS, readLabSheet, SHEET_SCHEMA_VERSION, sheetFileName, type LabAnswerSheet, type LabPlan } from '../labs/sheets.ts';
import { LAB_TABLE_KIND, type CandidateTable } from '../labs/table.ts';
import { downloadJson } from './download-json.ts';
import { mountRound, mountStartOver, type Round } from './round-page.ts';
import { labHasAnswers, labMissing } from './round-lab.ts';

/** What the page hands its script (no key: the candidate's view only). */
export interface LabPageData {
  id: string;
  version: string;
  /** The digest of the files the page shows: for a lab with variants, its variant's (`PacketVariant.digest`). */
  digest: string;
  /** For a lab with variants: the variant the page shows (`v1`, `v2`, ...), written into the answer sheet as `variant`. */
  variant?: string;
  /** The URL of the candidate's test table (its variant's, for a lab with variants). */
  table: string;
  suggestions: ComposeSuggestion[];
  files: ComposeFile[];
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, attrs: Record<string, string> = {}): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** Start the lab page. */
export function mountLab(root: HTMLElement): void {
  const data = JSON.parse(root.dataset.lab ?? '{}') as LabPageData;
  const storageKey = `packet-kit:lab:${data.id}:${data.digest}`;
  const choices: (LabState | null)[] = data.suggestions.map(() => null);
  const hand: (string | undefined)[] = data.suggestions.map(() => undefined);
  const q = <T extends Element>(sel: string) => root.querySelector<T>(sel);
  const qa = <T extends Element>(sel: string) => [...root.querySelectorAll<T>(sel)];
  const status = q<HTMLElement>('[data-sheet-status]')!;
  const say = (message: string, tone: 'ok' | 'error' | '' = '') => {
    status.textContent = message;
    status.dataset.tone = tone;
  };

  // The file views: highlighted views that follow the choices, each an editor once the candidate goes into it.
  const files = mountFileViews(root, data, {
    onEdit(regions, touched) {
      for (const i of touched) round.timeline.handEdit(data.suggestions[i]!.id);
      for (const r of regions) {
        const s = data.suggestions[r.index]!;
        const matched = stateOfText(s, r.text);
        if (matched) {
          choices[r.index] = matched;
          hand[r.index] = undefined;
        } else hand[r.index] = r.text;
      }
      refresh();
      save();
      markStale();
    },
    onError: (message) => say(message, 'error'),
  });
  /** Put a suggestion's region text into its file (a choice, or a restored hand edit), out of the candidate's undo history. */
  const setText = (index: number, text: string) => files.setText(index, text);

  const pageStates = (): PageState[] => choices.map((c, i) => (hand[i] !== undefined ? 'hand' : (c ?? 'reject')));

  const plan = (): LabPlan => Object.fromEntries(PLAN_FIELDS.map((f) => [f.key, q<HTMLTextAreaElement>(`[data-plan="${f.key}"]`)!.value])) as unknown as LabPlan;
  const sheet = (): LabAnswerSheet => {
    const candidate = q<HTMLInputElement>('[data-candidate]')!.value.trim();
    return {
      schemaVersion: SHEET_SCHEMA_VERSION,
      kind: LAB_SHEET_KIND,
      id: data.id,
      version: data.version,
      digest: data.digest,
      // The sheet names the variant the page shows; the digest decides it, `variant` agrees with it.
      ...(data.variant ? { variant: data.variant } : {}),
      date: new Date().toISOString(),
      ...(candidate ? { candidate } : {}),
      plan: plan(),
      suggestions: data.suggestions.map((s, i) => ({
        id: s.id,
        choice: choices[i] ?? null,
        ...(hand[i] !== undefined ? { hand: hand[i] } : {}),
        reason: q<HTMLTextAreaElement>(`[data-reason="${s.id}"]`)!.value,
      })),
      ...round.timeline.field(),
    };
  };
  const save = () => {
    try {
      localStorage.setItem(storageKey, JSON.stringify(sheet()));
    } catch {
      // Storage full or disabled: the page still works, without autosave.
    }
  };

  const CHOSEN: Record<LabState, string> = { accept: 'you accepted it as offered', revise: 'you took the revision', reject: 'you rejected it' };
  const refresh = () => {
    data.suggestions.forEach((s, i) => {
      const article = q<HTMLElement>(`[data-suggestion="${s.id}"]`)!;
      for (const input of article.querySelectorAll<HTMLInputElement>(`[data-choice]`)) input.checked = hand[i] === undefined && input.value === choices[i];
      article.querySelector<HTMLElement>('[data-hand-note]')!.hidden = hand[i] === undefined;
      if (choices[i] === 'revise' && hand[i] === undefined) article.querySelector<HTMLDetailsElement>('[data-revision]')!.open = true;
      const required = hand[i] !== undefined || choices[i] === 'reject' || choices[i] === 'revise';
      q<HTMLElement>(`[data-required="${s.id}"]`)!.hidden = !required;
      q<HTMLTextAreaElement>(`[data-reason="${s.id}"]`)!.required = required;
      q<HTMLElement>(`[data-chosen="${s.id}"]`)!.textContent = hand[i] !== undefined ? '(you edited it by hand)' : choices[i] ? `(${CHOSEN[choices[i]!]})` : '(no choice yet)';
    });
  };

  for (const input of qa<HTMLInputElement>('[data-choice]')) {
    input.addEventListener('change', () => {
      const index = data.suggestions.findIndex((s) => s.id === input.dataset.choice);
      choices[index] = input.value as LabState;
      hand[index] = undefined;
      setText(index, variantOf(data.suggestions[index]!, choices[index]!));
      refresh();
      save();
      markStale();
      round.timeline.record(choices[index]!, data.suggestions[index]!.id);
    });
  }
  root.addEventListener('input', (event) => {
    const target = event.target as HTMLElement;
    if (target.matches('textarea, input[type="text"]')) save();
  });

  // "Run tests": the table is fetched once. Results shown stay tied to the states they were run for.
  let table: Promise<CandidateTable> | undefined;
  let shownFor: string | undefined;
  const summary = q<HTMLElement>('[data-run-summary]')!;
  const runTable = q<HTMLTableElement>('[data-run-table]')!;
  const caption = runTable.querySelector('caption')!;
  const runButton = q<HTMLButtonElement>('[data-run-tests]')!;
  const CURRENT = caption.textContent ?? '';
  /** Results for choices that are no longer the page's: said so at once, in the caption and the summary. */
  function markStale(): void {
    if (runTable.hidden || shownFor === undefined || shownFor === pageStates().join()) return;
    shownFor = undefined;
    runTable.dataset.stale = '';
    caption.textContent = 'Visible tests for your earlier choices (out of date)';
    summary.textContent = 'Your choices changed since these results: run the tests again.';
    summary.dataset.tone = '';
  }
  runButton.addEventListener('click', async () => {
    table ??= fetch(data.table).then(async (res) => {
      if (!res.ok) throw new Error(`the test table is not in this build (HTTP ${res.status})`);
      const t = (await res.json()) as CandidateTable;
      if (t.kind !== LAB_TABLE_KIND || t.digest !== data.digest || t.suggestions.join() !== data.suggestions.map((s) => s.id).join()) throw new Error('the test table belongs to another version of this lab');
      return t;
    });
    try {
      const states = pageStates();
      const view = runView(await table, states);
      const body = runTable.tBodies[0]!;
      body.replaceChildren(
        ...view.rows.map((row) => {
          const tr = el('tr', undefined, { 'data-test': row.test });
          const name = el('td');
          name.append(el('code', row.name));
          name.dataset.label = 'Test';
          tr.append(
            name,
            el('td', row.outcome, { 'data-outcome': row.outcome, 'data-label': 'Outcome' }),
            el('td', row.message ?? '', { 'data-label': 'Message' }),
            el('td', row.dependsOn.join(', ') || 'none', { 'data-label': 'Depends on' }),
          );
          return tr;
        }),
      );
      runTable.hidden = false;
      delete runTable.dataset.stale;
      caption.textContent = CURRENT;
      shownFor = states.join();
      summary.textContent = view.sentence;
      round.timeline.record('test-run', undefined, view.sentence);
      summary.dataset.tone = view.failed || view.skipped ? 'error' : 'ok';
    } catch (err) {
      table = undefined;
      summary.textContent = `No test results: ${(err as Error).message}.`;
    }
  });

  // Export and start over.
  q<HTMLButtonElement>('[data-export]')!.addEventListener('click', () => {
    const s = sheet();
    const undecided = s.suggestions.filter((x) => x.choice === null && x.hand === undefined).map((x) => x.id);
    const missing = missingReasons(s);
    if (undecided.length || missing.length) {
      const parts = [undecided.length ? `make a choice on ${undecided.join(', ')}` : '', missing.length ? `give a reason for ${missing.join(', ')}` : ''].filter(Boolean);
      say(`Not exported yet: ${parts.join(', and ')}.`, 'error');
      return;
    }
    const name = sheetFileName(s);
    downloadJson(name, s);
    round.exported();
    say(`Exported ${name} (version ${data.version}, digest ${data.digest.slice(0, 12)}).`, 'ok');
  });
  /** Put a whole sheet's answers on the page: the plan, the name, every choice, hand edit and reason. */
  const apply = (s: LabAnswerSheet) => {
    for (const f of PLAN_FIELDS) q<HTMLTextAreaElement>(`[data-plan="${f.key}"]`)!.value = s.plan[f.key];
    q<HTMLInputElement>('[data-candidate]')!.value = s.candidate ?? '';
    s.suggestions.forEach((x, i) => {
      choices[i] = x.choice;
      hand[i] = x.hand;
      q<HTMLTextAreaElement>(`[data-reason="${x.id}"]`)!.value = x.reason;
      setText(i, x.hand ?? (x.choice ? variantOf(data.suggestions[i]!, x.choice) : data.suggestions[i]!.original));
    });
    refresh();
    markStale();
  };

  // Start over: asked first, and undone in one click with everything it cleared.
  mountStartOver<LabAnswerSheet>(root, {
    sheet,
    clear() {
      localStorage.removeItem(storageKey);
      for (const area of qa<HTMLTextAreaElement | HTMLInputElement>('textarea, input[type="text"]')) area.value = '';
      data.suggestions.forEach((s, i) => {
        choices[i] = null;
        hand[i] = undefined;
        setText(i, s.original);
      });
      refresh();
      markStale();
    },
    apply,
    record: (action) => round.timeline.record(action),
    say,
    cleared: 'every choice, edit and note is cleared.',
  });

  const readSheet = (json: string) => readLabSheet(json, { id: data.id, version: data.version, digest: data.digest, suggestions: data.suggestions.map((s) => s.id) });
  const round: Round = mountRound(root, { sheet, read: readSheet, apply, save, say, missing: (s) => labMissing(root, s), hasAnswers: labHasAnswers });

  // Restore what this browser saved for this version of the lab.
  const saved = localStorage.getItem(storageKey);
  if (saved) {
    const read = readSheet(saved);
    if (read.ok) {
      round.timeline.set(read.value.timeline);
      apply(read.value);
      say('Your saved answers for this version were restored from this browser.');
    }
  }
  refresh();
  for (const b of qa<HTMLButtonElement>('[data-run-tests], [data-export], [data-reset]')) b.disabled = false;
  q<HTMLElement>('[data-no-script]')!.hidden = true;
}
