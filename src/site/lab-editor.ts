/**
 * The lab's CodeMirror editor for one file, editable only inside the suggestions' regions. The
 * page loads this module on demand, the first time the candidate clicks or tabs into a file (or
 * when a restored hand edit needs it): until then the file is the build's highlighted view
 * (src/site/lab-code-view.ts), which weighs nothing to load.
 */
import { touchedRegions } from './round-timeline.ts';
import { history, redo, standardKeymap, undo } from '@codemirror/commands';
import { pythonLanguage } from '@codemirror/lang-python';
import { syntaxHighlighting } from '@codemirror/language';
import { EditorSelection, EditorState, RangeSetBuilder, StateEffect, StateField, Transaction, type Extension } from '@codemirror/state';
import { Decoration, EditorView, keymap, lineNumbers, type DecorationSet } from '@codemirror/view';
import { CODE_HIGHLIGHT } from './code-theme.ts';

/** A region of an editor: the suggestion it holds and where it is now. */
interface Region {
  index: number;
  from: number;
  to: number;
}

/** What an editor is made from, and what it reports. */
export interface LabEditorOptions {
  /** The element the editor goes into (its highlighted view is replaced by the caller). */
  parent: HTMLElement;
  /** The file as segments: fixed text, or the index of the suggestion whose region goes there. */
  segments: readonly (string | number)[];
  /** The current text of every suggestion's region, by suggestion index. */
  texts: readonly string[];
  /** The suggestions' ids, by index (each region line carries its id as `data-region`). */
  ids: readonly string[];
  /** The accessible name of the editor's content. */
  label: string;
  /** The candidate changed the file: the text of every region of this file now, and the suggestion indexes of the regions the change touched. */
  onEdit(regions: { index: number; text: string }[], touched: number[]): void;
}

/** An editor, as the page drives it. */
export interface LabEditor {
  /** Put a region's text in, as the page's own change: never in the candidate's undo history. */
  setText(index: number, text: string): void;
  /** Give the editor focus, the caret at a line (1-based) and column, or where it was. */
  focus(at?: { line: number; column: number }): void;
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

/** Make the editor of one file. */
export function createLabEditor(o: LabEditorOptions): LabEditor {
  const regions: Region[] = [];
  let doc = '';
  for (const seg of o.segments) {
    const text = typeof seg === 'string' ? seg : o.texts[seg]!;
    if (typeof seg === 'number') regions.push({ index: seg, from: doc.length, to: doc.length + text.length });
    doc += text;
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
  // `programmatic` marks the page's own replacements.
  let programmatic = false;
  const view = new EditorView({
    parent: o.parent,
    state: EditorState.create({
      doc,
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
        regionDecorations(field, o.ids),
        EditorView.contentAttributes.of({ 'aria-label': o.label }),
        EditorView.updateListener.of((u) => {
          if (!u.docChanged || programmatic) return;
          const now = u.state.field(field);
          o.onEdit(
            now.map((r) => ({ index: r.index, text: u.state.doc.sliceString(r.from, r.to) })),
            touchedRegions(u.changes, now),
          );
        }),
      ],
    }),
  });
  return {
    setText(index, text) {
      const r = view.state.field(field).find((x) => x.index === index);
      if (!r) return;
      programmatic = true;
      try {
        view.dispatch({
          changes: { from: r.from, to: r.to, insert: text },
          effects: setRegion.of({ index, from: r.from, to: r.from + text.length }),
          annotations: Transaction.addToHistory.of(false),
          filter: false,
        });
      } finally {
        programmatic = false;
      }
    },
    focus(at) {
      view.focus();
      if (!at) return;
      const doc = view.state.doc;
      const line = doc.line(Math.min(Math.max(at.line, 1), doc.lines));
      const pos = line.from + Math.min(Math.max(at.column, 0), line.length);
      // No scrolling: the caret goes where the candidate clicked, on the screen already.
      view.dispatch({ selection: EditorSelection.cursor(pos) });
    },
  };
}
