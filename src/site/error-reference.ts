import { catalogEntries } from '../errors/catalog.ts';
import { areaOf, template, type EntryExample } from '../errors/reference.ts';

/** One catalog entry as the site's error reference shows it. */
export interface ReferenceEntry {
  /** `PK106`: the entry's anchor too (`/errors/#PK106`). */
  code: string;
  name: string;
  title: string;
  severity: 'error' | 'warning';
  /** The message with its parameters as `<placeholders>`. */
  message: string;
  /** The fix, likewise. */
  hint: string;
  /** For a lint rule's entry: the rule, what it checks, a bad and a good example. */
  example?: EntryExample;
}

/** The entries of one area (`Lint (PK2xx)`). */
export interface ReferenceArea {
  /** `Lint (PK2xx)`. */
  title: string;
  /** `pk2xx`, the area's anchor. */
  id: string;
  entries: ReferenceEntry[];
}

/** The whole catalog, grouped by area in code order, with the lint rules' examples by code. */
export function errorReferenceAreas(examples: ReadonlyMap<string, EntryExample>): ReferenceArea[] {
  const areas: ReferenceArea[] = [];
  for (const e of catalogEntries()) {
    const title = areaOf(e);
    let area = areas.at(-1);
    if (area?.title !== title) {
      area = { title, id: `pk${e.code[2]}xx`, entries: [] };
      areas.push(area);
    }
    const example = examples.get(e.code);
    area.entries.push({ code: e.code, name: e.name, title: e.title, severity: e.severity, message: template(e.message), hint: template(e.hint), ...(example ? { example } : {}) });
  }
  return areas;
}

/** Text split on backticks: even pieces are text, odd pieces are code (`npx packet check`). An unpaired backtick stays text. */
export function codeSpans(text: string): { code: boolean; text: string }[] {
  const pieces = text.split('`');
  if (pieces.length % 2 === 0) return [{ code: false, text }];
  return pieces.map((piece, i) => ({ code: i % 2 === 1, text: piece })).filter((p) => p.text !== '');
}
