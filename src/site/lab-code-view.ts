/**
 * The lab page's file views. Each changed file starts as the build's highlighted view (shiki's
 * lines, with line numbers and the suggestions' regions marked), and a choice swaps a region's
 * lines for the build's highlighted lines of that variant: reading the code and choosing load no
 * editor. The CodeMirror editor (src/site/lab-editor.ts) is loaded on demand and takes a file's
 * place the first time the candidate clicks or tabs into it, or when a region holds text the build
 * did not highlight (a restored hand edit). This module imports nothing of CodeMirror.
 */
import type { LabEditor, LabEditorOptions } from './lab-editor.ts';

/** What the file views need of the page's data. */
export interface FileViewData {
  suggestions: { id: string; file: string; original: string; offered: string; revised: string }[];
  files: { path: string; segments: (string | number)[] }[];
}

/** The file views, as the page drives them. */
export interface FileViews {
  /** Put a region's text in: the page's own change (a choice, a restore), never in the editor's undo history. */
  setText(index: number, text: string): void;
}

export interface FileViewOptions {
  /** The candidate edited a file by hand: the text of every region of that file now, and the suggestion indexes of the regions the edit touched. */
  onEdit(regions: { index: number; text: string }[], touched: number[]): void;
  /** The editor could not be loaded: a sentence for the page's status line. */
  onError(message: string): void;
}

/** The number of lines that start inside a piece of text (a final newline starts none). */
const linesIn = (text: string) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

const plainLine = (text: string) => {
  const line = document.createElement('span');
  line.className = 'line';
  line.textContent = text;
  return line;
};

let editorModule: Promise<typeof import('./lab-editor.ts')> | undefined;

/** One file: its highlighted view until the editor is wanted, then the editor. */
class FileView {
  private editor: LabEditor | undefined;
  private loading = false;
  private readonly pre: HTMLElement | null;
  /** The line elements of each segment, by segment, when the highlighted view is in use. */
  private segLines: HTMLElement[][] = [];
  private trailing: HTMLElement[] = [];
  /** The build's lines of each region's original text, in the file's own highlighting, by segment. */
  private originals: HTMLElement[][] = [];
  /** Where the candidate clicked in the highlighted view (1-based line, column). */
  private at: { line: number; column: number } | undefined;

  private readonly host: HTMLElement;
  private readonly file: FileViewData['files'][number];
  private readonly data: FileViewData;
  private readonly texts: string[];
  private readonly variants: (index: number, text: string) => HTMLElement[] | undefined;
  private readonly options: FileViewOptions;

  constructor(
    host: HTMLElement,
    file: FileViewData['files'][number],
    data: FileViewData,
    texts: string[],
    variants: (index: number, text: string) => HTMLElement[] | undefined,
    options: FileViewOptions,
  ) {
    this.host = host;
    this.file = file;
    this.data = data;
    this.texts = texts;
    this.variants = variants;
    this.options = options;
    this.pre = host.querySelector('pre');
    if (!this.pre || !this.enhance(this.pre)) {
      this.load(false);
      return;
    }
    // The editor loads when the view takes the focus (a click or tap, or Tab), not when a finger scrolls over it; the
    // caret goes where the pointer that gave the focus went down.
    let down: { at: { line: number; column: number } | undefined; time: number } | undefined;
    this.pre.addEventListener('pointerdown', (event) => {
      down = { at: this.position(event.clientX, event.clientY), time: event.timeStamp };
    });
    this.pre.addEventListener('focusin', (event) => {
      this.at = down && event.timeStamp - down.time < 1000 ? down.at : undefined;
      this.load(true);
    });
  }

  /** Split the build's lines by segment and mark the regions; false when they do not match the file. */
  private enhance(pre: HTMLElement): boolean {
    const code = pre.querySelector('code');
    if (!code) return false;
    const lines = [...code.querySelectorAll<HTMLElement>(':scope > .line')];
    let next = 0;
    const segLines: HTMLElement[][] = [];
    for (const seg of this.file.segments) {
      const text = typeof seg === 'string' ? seg : this.texts[seg]!;
      const n = linesIn(text);
      const mine = lines.slice(next, next + n);
      if (mine.length !== n || mine.map((l) => `${l.textContent}\n`).join('') !== (text.endsWith('\n') ? text : `${text}\n`)) return false;
      if (typeof seg === 'number') for (const l of mine) l.dataset.region = this.data.suggestions[seg]!.id;
      this.originals.push(typeof seg === 'number' && text === this.data.suggestions[seg]!.original ? mine.map((l) => l.cloneNode(true) as HTMLElement) : []);
      segLines.push(mine);
      next += n;
    }
    this.segLines = segLines;
    this.trailing = lines.slice(next);
    this.render(pre);
    pre.dataset.codeView = '';
    return true;
  }

  /** Lay the lines out, with a gutter as wide as the editor's (which numbers one more line after a final newline). */
  private render(pre: HTMLElement): void {
    const lines = [...this.segLines.flat(), ...this.trailing];
    pre.querySelector('code')!.replaceChildren(...lines);
    pre.style.setProperty('--digits', String(String(lines.length + 1).length));
  }

  /** The line and column of a point in the highlighted view. */
  private position(x: number, y: number): { line: number; column: number } | undefined {
    const all = this.segLines.flat();
    const target = document.elementFromPoint(x, y)?.closest<HTMLElement>('.line');
    const index = target ? all.indexOf(target) : -1;
    if (index < 0) return undefined;
    let column = 0;
    const caret = document.caretPositionFromPoint?.(x, y);
    if (caret && target!.contains(caret.offsetNode)) {
      const range = document.createRange();
      range.setStart(target!, 0);
      range.setEnd(caret.offsetNode, caret.offset);
      column = range.toString().length;
    }
    return { line: index + 1, column };
  }

  setText(index: number, text: string): void {
    if (this.editor) return this.editor.setText(index, text);
    const k = this.file.segments.indexOf(index);
    if (k < 0 || !this.pre) return;
    const original = text === this.data.suggestions[index]!.original && this.originals[k]!.length ? this.originals[k]!.map((l) => l.cloneNode(true) as HTMLElement) : undefined;
    const highlighted = original ?? this.variants(index, text);
    const lines = highlighted ?? text.replace(/\n$/, '').split('\n').map(plainLine);
    for (const l of lines) l.dataset.region = this.data.suggestions[index]!.id;
    this.segLines[k] = lines;
    this.render(this.pre);
    // Text the build did not highlight is a hand edit: the editor shows it, and takes it on.
    if (!highlighted) this.load(false);
  }

  /** Load the editor and put it in the highlighted view's place; `focus` when the candidate asked for it. */
  private load(focus: boolean): void {
    if (this.editor || this.loading) return;
    this.loading = true;
    editorModule ??= import('./lab-editor.ts');
    editorModule.then(
      ({ createLabEditor }) => {
        const options: LabEditorOptions = {
          parent: this.host,
          segments: this.file.segments,
          texts: this.texts,
          ids: this.data.suggestions.map((s) => s.id),
          label: `${this.file.path}: editable inside the highlighted regions, where the assistant's changes go`,
          onEdit: this.options.onEdit,
        };
        // The view in focus hands it to the editor, whatever started the load: the view itself goes away.
        const wasFocused = this.pre !== null && this.pre.contains(document.activeElement);
        this.editor = createLabEditor(options);
        this.pre?.remove();
        if (wasFocused || (focus && this.at)) this.editor.focus(this.at);
      },
      (err: unknown) => {
        this.loading = false;
        editorModule = undefined;
        this.options.onError(`The editor did not load (${(err as Error).message}): reload the page to edit by hand; your choices still work.`);
      },
    );
  }
}

/** Set up the view of every changed file of the lab; the regions start with their original text. */
export function mountFileViews(root: HTMLElement, data: FileViewData, options: FileViewOptions): FileViews {
  const texts = data.suggestions.map((s) => s.original);
  /** The build's highlighted lines of a suggestion's variant, when the text is one of them. */
  const variants = (index: number, text: string): HTMLElement[] | undefined => {
    const s = data.suggestions[index]!;
    const state = text === s.offered ? 'accept' : text === s.revised ? 'revise' : undefined;
    const template = state && root.querySelector<HTMLTemplateElement>(`template[data-code-variant="${CSS.escape(s.id)}"][data-state="${state}"]`);
    if (!template) return undefined;
    const lines = [...template.content.querySelectorAll<HTMLElement>('code > .line')].slice(0, linesIn(text)).map((l) => l.cloneNode(true) as HTMLElement);
    return lines.map((l) => l.textContent).join('\n') === text.replace(/\n$/, '') ? lines : undefined;
  };
  const views = new Map<string, FileView>();
  for (const file of data.files) {
    const host = root.querySelector<HTMLElement>(`[data-editor="${CSS.escape(file.path)}"]`);
    if (!host) continue;
    const onEdit: FileViewOptions['onEdit'] = (regions, touched) => {
      for (const r of regions) texts[r.index] = r.text;
      options.onEdit(regions, touched);
    };
    views.set(file.path, new FileView(host, file, data, texts, variants, { ...options, onEdit }));
  }
  return {
    setText(index, text) {
      texts[index] = text;
      views.get(data.suggestions[index]!.file)?.setText(index, text);
    },
  };
}
