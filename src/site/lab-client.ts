/**
 * The lab page in the browser: the candidate's choices drive the file view (a CodeMirror editor
 * per changed file, editable only inside the suggestions' regions), "Run tests" reads the
 * precomputed table, and the answer sheet autosaves in this browser and exports as JSON with the
 * lab's version and digest. No code of the lab runs here.
 */
import { history, redo, standardKeymap, undo } from '@codemirror/commands';
import { pythonLanguage } from '@codemirror/lang-python';
import { syntaxHighlighting } from '@codemirror/language';
import { EditorState, RangeSetBuilder, StateEffect, StateField, Transaction, type Extension } from '@codemirror/state';
import { Decoration, EditorView, keymap, lineNumbers, type DecorationSet } from '@codemirror/view';
import { CODE_HIGHLIGHT } from './code-theme.ts';
import { composeLab, stateOfText, variantOf, type ComposeFile, type ComposeSuggestion, type LabState } from '../packets/lab-compose.ts';
import { runView, type PageState } from '../labs/run-view.ts';
import { LAB_SHEET_KIND, missingReasons, PLAN_FIELDS, readLabSheet, SHEET_SCHEMA_VERSION, sheetFileName, type LabAnswerSheet, type LabPlan } from '../labs/sheets.ts';
import { LAB_TABLE_KIND, type CandidateTable } from '../labs/table.ts';
import { downloadJson } from './download-json.ts';
import { mountRound, type Round } from './round-page.ts';
import { labHasAnswers, labMissing } from './round-lab.ts';
import { touchedRegions } from './round-timeline.ts';

/** What the page hands its script (no key: the candidate's view only). */
export interface LabPageData {
  id: string;
  version: string;
  digest: string;
  /** The URL of the candidate's test table. */
  table: string;
  suggestions: ComposeSuggestion[];
  files: ComposeFile[];
}

/** A region of an editor: the suggestion it holds and where it is now. */
interface Region {
  index: number;
  from: number;
  to: number;
}

const setRegion = StateEffect.define<Region>();

/** The regions of a document, moved along with every edit; a programmatic replacement sets its region outright. */
function regionsField(initial: Region[]) {
  return StateField.define<Region[]>({
    create: () => initial,
    update(regions, tr) {
      let out = tr.docChanged ? regions.map((r) => ({ ...r, from: tr.changes.mapPos(r.from, -1), to: tr.changes.mapPos(r.to, -1) })) : regions;
      for (const e of tr.effects) if (e.is(setRegion)) out = out.map((r) => (r.index === e.value.index ? e.value : r));
      return out;
    },
  });
}

/** The positions inside a region a candidate may change: up to its final newline, which keeps it apart from the next line. */
function editable(doc: EditorState['doc'], r: Region): [number, number] {
  return [r.from, r.to > r.from && doc.sliceString(r.to - 1, r.to) === '\n' ? r.to - 1 : r.to];
}

/** Decorations marking every line of every region. */
function regionDecorations(field: StateField<Region[]>, ids: readonly string[]): Extension {
  return EditorView.decorations.compute([field, 'doc'], (state): DecorationSet => {
    const builder = new RangeSetBuilder<Decoration>();
    const regions = [...state.field(field)].sort((a, b) => a.from - b.from);
    for (const r of regions) {
      const [from, end] = editable(state.doc, r);
      const first = state.doc.lineAt(from).number;
      const last = state.doc.lineAt(Math.max(from, end)).number;
      for (let n = first; n <= last; n++) {
        const line = state.doc.line(n);
        builder.add(line.from, line.from, Decoration.line({ class: 'cm-region', attributes: { 'data-region': ids[r.index]! } }));
      }
    }
    return builder.finish();
  });
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

  // One editor per changed file; `programmatic` marks the page's own replacements.
  const editors = new Map<string, { view: EditorView; field: StateField<Region[]> }>();
  let programmatic = false;
  const composed = composeLab(data, data.suggestions.map(() => 'reject'));
  for (const file of data.files) {
    const host = q<HTMLElement>(`[data-editor="${CSS.escape(file.path)}"]`);
    if (!host) continue;
    const regions: Region[] = [];
    let at = 0;
    for (const seg of file.segments) {
      const text = typeof seg === 'string' ? seg : data.suggestions[seg]!.original;
      if (typeof seg === 'number') regions.push({ index: seg, from: at, to: at + text.length });
      at += text.length;
    }
    const field = regionsField(regions);
    const onlyInRegions = EditorState.changeFilter.of((tr: Transaction) => {
      const allowed = tr.startState.field(field).map((r) => editable(tr.startState.doc, r));
      let ok = true;
      tr.changes.iterChangedRanges((fromA, toA) => {
        if (!allowed.some(([from, to]) => fromA >= from && toA <= to)) ok = false;
      });
      return ok;
    });
    const view = new EditorView({
      parent: host,
      state: EditorState.create({
        doc: composed.get(file.path) ?? '',
        extensions: [
          lineNumbers(),
          // Wrapped lines: no horizontal scrolling region that the keyboard cannot reach.
          EditorView.lineWrapping,
          // Undo and redo act on the candidate's typing only: the page's own replacements stay out of the history.
          history(),
          // Undo and redo read from the key event itself: a redo with nothing left to redo stays a redo, where the
          // keymap would fall back to the key without Shift and undo the candidate's typing.
          EditorView.domEventHandlers({
            keydown(event, view) {
              if (!(event.ctrlKey || event.metaKey) || event.altKey) return false;
              const key = event.key.toLowerCase();
              if (key === 'z') (event.shiftKey ? redo : undo)(view);
              else if (key === 'y' && !event.shiftKey) redo(view);
              else return false;
              event.preventDefault();
              return true;
            },
          }),
          keymap.of(standardKeymap),
          pythonLanguage,
          syntaxHighlighting(CODE_HIGHLIGHT),
          field,
          onlyInRegions,
          regionDecorations(field, data.suggestions.map((s) => s.id)),
          EditorView.contentAttributes.of({ 'aria-label': `${file.path}: editable inside the highlighted regions, where the assistant's changes go` }),
          EditorView.updateListener.of((u) => {
            if (!u.docChanged || programmatic) return;
            for (const r of u.state.field(field)) {
              const text = u.state.doc.sliceString(r.from, r.to);
              const s = data.suggestions[r.index]!;
              const matched = stateOfText(s, text);
              if (matched) {
                choices[r.index] = matched;
                hand[r.index] = undefined;
              } else hand[r.index] = text;
            }
            for (const i of touchedRegions(u.changes, u.state.field(field))) round.timeline.handEdit(data.suggestions[i]!.id);
            refresh();
            save();
            markStale();
          }),
        ],
      }),
    });
    host.querySelector('pre')?.remove();
    editors.set(file.path, { view, field });
  }

  /** Put a suggestion's region text into its editor (a choice, or a restored hand edit). */
  const setText = (index: number, text: string) => {
    const ed = editors.get(data.suggestions[index]!.file);
    if (!ed) return;
    const r = ed.view.state.field(ed.field).find((x) => x.index === index)!;
    programmatic = true;
    try {
      ed.view.dispatch({
        changes: { from: r.from, to: r.to, insert: text },
        effects: setRegion.of({ index, from: r.from, to: r.from + text.length }),
        annotations: Transaction.addToHistory.of(false),
        filter: false,
      });
    } finally {
      programmatic = false;
    }
  };

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
  const dialog = q<HTMLDialogElement>('[data-reset-dialog]')!;
  const undoReset = q<HTMLButtonElement>('[data-undo-reset]')!;
  let beforeReset: LabAnswerSheet | undefined;
  q<HTMLButtonElement>('[data-reset]')!.addEventListener('click', () => dialog.showModal());
  dialog.addEventListener('close', () => {
    if (dialog.returnValue !== 'reset') return;
    dialog.returnValue = '';
    beforeReset = sheet();
    localStorage.removeItem(storageKey);
    for (const area of qa<HTMLTextAreaElement | HTMLInputElement>('textarea, input[type="text"]')) area.value = '';
    data.suggestions.forEach((s, i) => {
      choices[i] = null;
      hand[i] = undefined;
      setText(i, s.original);
    });
    refresh();
    markStale();
    undoReset.hidden = false;
    round.timeline.record('start-over');
    say('Started over: every choice, edit and note is cleared. "Undo start over" brings them back.');
  });
  undoReset.addEventListener('click', () => {
    if (!beforeReset) return;
    apply(beforeReset);
    beforeReset = undefined;
    undoReset.hidden = true;
    round.timeline.record('undo-start-over');
    say('Your answers are back as they were before you started over.', 'ok');
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
