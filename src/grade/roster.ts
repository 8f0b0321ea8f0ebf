/**
 * The roster: which variant the hiring lead sent to whom, kept by the lead and never by the
 * candidate. `packet grade --roster FILE` grades each submission against the variant the roster
 * names for it; what the submission says of its own variant (its README's `Variant:` and
 * `Digest:` lines, a lab sheet's digest) is only checked against it (PK585). A submission the
 * roster does not name is not graded (PK586). The file is read strictly: any problem in it
 * (PK587) stops the batch before anything is graded or written.
 *
 * Two forms, the same content:
 *
 *     submission,variant          { "schemaVersion": 1, "kind": "packet-kit/variant-roster",
 *     alice,v3                      "sent": { "alice": "v3", "bob": "v7" } }
 *     bob,v7
 */
import { open } from 'node:fs/promises';
import { GradeErrors } from '../errors/grade-catalog.ts';
import { shownName } from '../errors/safe-name.ts';
import { finding, type Finding } from '../judge/findings.ts';
import { variantNumber } from '../packets/variants.ts';

/** The `kind` of a roster in JSON. */
export const ROSTER_KIND = 'packet-kit/variant-roster';

/** The `schemaVersion` of a roster in JSON. */
export const ROSTER_SCHEMA_VERSION = 1;

/** The first line of a roster in CSV, exactly. */
export const ROSTER_CSV_HEADER = 'submission,variant';

/** The largest roster read, in bytes (a roster of thousands of candidates is far smaller). */
export const ROSTER_MAX_BYTES = 1024 * 1024;

/** The most problems of one roster reported; the rest are counted. */
export const ROSTER_PROBLEMS_SHOWN = 20;

/** One row of a roster: a submission's name as `packet grade` names it, and the variant sent to its candidate. */
export interface RosterRow {
  /** The submission's name (its file name without the archive extension, as `packet grade` names its folder). */
  submission: string;
  /** The variant sent, `v3`. */
  variant: string;
  /** Its number, 3. */
  number: number;
  /** The 1-based line of the row in the file. */
  line: number;
}

/** A roster read and checked against the packet: its rows, and the file as messages name it. */
export interface Roster {
  /** The file, as given (relative to the working directory), shown safely. */
  file: string;
  rows: readonly RosterRow[];
}

/** One problem of a roster file: where (line, field), what, and the fix. */
export interface RosterProblem {
  line: number | null;
  field: string | null;
  problem: string;
  fix: string;
}

/** What reading a roster's text gave: the rows read well, and every problem found (a roster with one is not used). */
export interface RosterParse {
  rows: RosterRow[];
  problems: RosterProblem[];
}

/**
 * The name `packet grade` gives a submission at `p`: its file name without `.zip`, `.tar.gz`,
 * `.tgz` or `.json`, every run of characters outside letters, digits, `.`, `_` and `-` made one
 * `-`, no `-` or `.` at the start nor `-` at the end (`submission` when nothing is left).
 */
export function nameAsGraded(p: string): string {
  const base = (p.replace(/\/+$/, '').split('/').pop() ?? '').replace(/\.(zip|tar\.gz|tgz|json)$/i, '');
  return base.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '') || 'submission';
}

const problem = (line: number | null, field: string | null, what: string, fix: string): RosterProblem => ({ line, field, problem: what, fix });

/** A cell or a name as a message quotes it: escaped, cut at 60 characters. */
const quoted = (s: string) => `"${shownName(s.length > 60 ? `${s.slice(0, 60)}…` : s)}"`;

/** The checks one row's two fields get, whatever the form: the name as packet grade gives it, the variant as `v<k>`. */
function rowProblems(name: string, variant: string, line: number, fields: { name: string; variant: string }): RosterProblem[] {
  const out: RosterProblem[] = [];
  if (name !== nameAsGraded(name)) {
    out.push(problem(line, fields.name, `${quoted(name)} is not a name packet grade gives a submission`, `write the submission's name as packet grade names it (its file name without the archive extension, each run of other characters one "-"): ${quoted(nameAsGraded(name))}`));
  }
  if (variantNumber(variant) === undefined) {
    const near = /^\s*[vV]?\s*0*([1-9][0-9]{0,5})\s*$/.exec(variant);
    out.push(problem(line, fields.variant, `${quoted(variant)} is not a variant id`, `write the id as packet build names it and VARIANTS.json lists it: ${near ? `"v${near[1]}"` : 'v1, v2, ... (a "v" and the number)'}`));
  }
  return out;
}

/** The cells of one CSV line: plain or double-quoted ("" for a quote inside), spaces around a cell dropped. */
function csvCells(text: string): { cells: string[] } | { error: string } {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    while (text[i] === ' ' || text[i] === '\t') i++;
    let cell = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) return { error: 'a quoted cell has no closing quote (a cell cannot span lines)' };
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        cell += text[i++];
      }
      while (text[i] === ' ' || text[i] === '\t') i++;
      if (i < text.length && text[i] !== ',') return { error: 'text follows a quoted cell before the next comma' };
    } else {
      const end = text.indexOf(',', i);
      cell = (end < 0 ? text.slice(i) : text.slice(i, end)).trim();
      if (cell.includes('"')) return { error: 'a quote inside a cell that does not start with one' };
      i = end < 0 ? text.length : end;
    }
    cells.push(cell);
    if (i >= text.length) return { cells };
    i++; // the comma
  }
}

/** The rows of a roster in CSV: the header `submission,variant`, then a row per submission; blank lines skipped. */
export function parseRosterCsv(text: string): RosterParse {
  const problems: RosterProblem[] = [];
  const rows: RosterRow[] = [];
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  let header = false;
  for (const [i, raw] of lines.entries()) {
    const line = i + 1;
    if (raw.trim() === '') continue;
    if (!header && /^\s*[{[]/.test(raw)) {
      return { rows: [], problems: [problem(line, 'header', 'it reads as JSON, not as CSV with the header "submission,variant"', 'name the file with a .json extension (a roster in JSON is read from a .json file)')] };
    }
    const parsed = csvCells(raw);
    if ('error' in parsed) {
      problems.push(problem(line, null, `${parsed.error}`, 'write each row as two cells, the name and the variant, separated by one comma (a name needs no quotes)'));
      if (!header) header = true;
      continue;
    }
    const { cells } = parsed;
    if (!header) {
      header = true;
      if (cells.join(',') !== ROSTER_CSV_HEADER) {
        const looksRow = cells.length === 2 && variantNumber(cells[1]!) !== undefined;
        problems.push(
          problem(line, 'header', `the first line is ${quoted(raw)}, not the header "${ROSTER_CSV_HEADER}"`, looksRow ? `add the line "${ROSTER_CSV_HEADER}" above the first row` : `make the first line exactly "${ROSTER_CSV_HEADER}" (the submission's name, then the variant sent)`),
        );
        if (!looksRow) continue;
      } else continue;
    }
    if (cells.length > 2) {
      problems.push(problem(line, null, `the row has ${cells.length} fields, not 2`, 'keep two fields a row, the name and the variant; a name holds no comma'));
      continue;
    }
    const [name = '', variant = ''] = cells;
    if (name === '' || variant === '' || cells.length < 2) {
      const missing = [name === '' ? 'submission' : null, variant === '' || cells.length < 2 ? 'variant' : null].filter((x) => x !== null);
      problems.push(problem(line, missing.join(', '), `the row has no ${missing.join(' and no ')}`, `write both fields: the submission's name and the variant its candidate was sent (${name || 'alice'},${variant || 'v3'})`));
      continue;
    }
    const found = rowProblems(name, variant, line, { name: 'submission', variant: 'variant' });
    problems.push(...found);
    if (!found.length) rows.push({ submission: name, variant, number: variantNumber(variant)!, line });
  }
  if (!header) problems.push(problem(null, null, 'the file is empty', `write the header "${ROSTER_CSV_HEADER}" and a row per submission`));
  return { rows, problems };
}

/**
 * The keys of a JSON text's objects at depth 1 and 2, each with its line, in order: JSON.parse
 * keeps the last of two equal keys without a word, and a roster with a name twice must be told.
 * The text is known to parse.
 */
function jsonKeys(text: string): { depth: number; parent: string | null; key: string; line: number }[] {
  const out: { depth: number; parent: string | null; key: string; line: number }[] = [];
  const stack: { object: boolean; key: string | null; expectKey: boolean }[] = [];
  let line = 1;
  let lastKey: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\n') line++;
    else if (ch === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const value = JSON.parse(text.slice(i, j + 1)) as string;
      const top = stack.at(-1);
      if (top?.object && top.expectKey) {
        top.expectKey = false;
        lastKey = value;
        if (stack.length <= 2) out.push({ depth: stack.length, parent: stack.length === 2 ? stack[0]!.key : null, key: value, line });
      }
      i = j;
    } else if (ch === '{' || ch === '[') {
      const top = stack.at(-1);
      if (top) top.key = top.object ? lastKey : top.key;
      stack.push({ object: ch === '{', key: null, expectKey: ch === '{' });
    } else if (ch === '}' || ch === ']') stack.pop();
    else if (ch === ',') {
      const top = stack.at(-1);
      if (top?.object) top.expectKey = true;
    }
  }
  return out;
}

/** The rows of a roster in JSON: `{ "schemaVersion": 1, "kind": "packet-kit/variant-roster", "sent": { "<name>": "v3" } }`, nothing else. */
export function parseRosterJson(text: string): RosterParse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    const at = /line (\d+)/.exec(why);
    return { rows: [], problems: [problem(at ? Number(at[1]) : null, null, `it is not valid JSON (${why})`, 'write the roster as one JSON object, or as CSV in a file that does not end in .json')] };
  }
  const keys = jsonKeys(text);
  const lineOf = (parent: string | null, key: string) => keys.find((k) => k.parent === parent && k.key === key)?.line ?? null;
  const form = `{ "schemaVersion": ${ROSTER_SCHEMA_VERSION}, "kind": "${ROSTER_KIND}", "sent": { "<submission>": "v3" } }`;
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { rows: [], problems: [problem(1, null, 'it is not a JSON object', `write ${form}`)] };
  const o = json as Record<string, unknown>;
  const problems: RosterProblem[] = [];
  for (const k of keys.filter((k) => k.depth === 1)) {
    if (!['schemaVersion', 'kind', 'sent'].includes(k.key)) problems.push(problem(k.line, shownName(k.key), `${quoted(k.key)} is not a field of a roster`, `keep only schemaVersion, kind and sent: ${form}`));
  }
  for (const [i, k] of keys.entries()) {
    const earlier = keys.slice(0, i).find((e) => e.parent === k.parent && e.depth === k.depth && e.key === k.key);
    if (earlier && k.depth === 1) problems.push(problem(k.line, k.key, `the field "${k.key}" is written twice (lines ${earlier.line} and ${k.line})`, 'write each field once'));
  }
  if (o.schemaVersion !== ROSTER_SCHEMA_VERSION) problems.push(problem(lineOf(null, 'schemaVersion') ?? 1, 'schemaVersion', `schemaVersion is ${o.schemaVersion === undefined ? 'missing' : JSON.stringify(o.schemaVersion)}, not ${ROSTER_SCHEMA_VERSION}`, `write "schemaVersion": ${ROSTER_SCHEMA_VERSION}`));
  if (o.kind !== ROSTER_KIND) problems.push(problem(lineOf(null, 'kind') ?? 1, 'kind', `kind is ${o.kind === undefined ? 'missing' : quoted(String(JSON.stringify(o.kind)))}, not "${ROSTER_KIND}"`, `write "kind": "${ROSTER_KIND}"`));
  const sent = o.sent;
  if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) {
    problems.push(problem(lineOf(null, 'sent') ?? 1, 'sent', `sent is ${sent === undefined ? 'missing' : 'not an object'}`, 'write "sent": { "<submission>": "v3", ... }, a field per submission, its name to the variant sent'));
    return { rows: [], problems };
  }
  const rows: RosterRow[] = [];
  const entries = keys.filter((k) => k.depth === 2 && k.parent === 'sent');
  // Every key as written, a name twice included (JSON.parse kept its last value; checkRosterRows tells it): the same checks as CSV rows.
  for (const k of entries) {
    const value = (sent as Record<string, unknown>)[k.key];
    const field = `sent.${shownName(k.key)}`;
    if (typeof value !== 'string' || value === '') {
      problems.push(problem(k.line, field, `the variant of ${quoted(k.key)} is ${value === '' ? 'empty' : `${JSON.stringify(value)}, not a string`}`, `write the id of the variant sent, as a string: "${shownName(k.key)}": "v3"`));
      continue;
    }
    const found = rowProblems(k.key, value, k.line, { name: field, variant: field });
    problems.push(...found);
    if (!found.length) rows.push({ submission: k.key, variant: value, number: variantNumber(value)!, line: k.line });
  }
  return { rows, problems };
}

/** What a roster's variants are checked against: the packet, how many of its variants can exist, and how many `--variants` says were sent. */
export interface RosterPacket {
  id: string;
  /** The most variants the packet can have: 100, or fewer when its parameters have fewer combinations. */
  most: number;
  /** `--variants N` when given: the roster may name no variant above it. */
  sentOut?: number;
  /** Whether variant k renders into a packet (a value that breaks the YAML does not). */
  renders(k: number): Promise<boolean>;
}

/** The problems of rows read well one by one: a name twice (case aside, as packet grade tells names apart), a variant the packet does not have. */
export async function checkRosterRows(rows: readonly RosterRow[], packet: RosterPacket): Promise<RosterProblem[]> {
  const problems: RosterProblem[] = [];
  if (!rows.length) problems.push(problem(null, null, 'it names no submission', 'add a row per submission: its name and the variant sent to its candidate'));
  const first = new Map<string, RosterRow>();
  for (const r of rows) {
    const other = first.get(r.submission.toLowerCase());
    if (other) {
      const same = other.submission === r.submission ? `"${r.submission}"` : `"${other.submission}" and "${r.submission}" (packet grade tells names apart without their case)`;
      problems.push(problem(r.line, 'submission', `${same} is named twice, on lines ${other.line} and ${r.line}${other.variant !== r.variant ? `, sent ${other.variant} and ${r.variant}` : ''}`, 'keep one row per submission: the variant that candidate was sent'));
    } else first.set(r.submission.toLowerCase(), r);
  }
  const renders = new Map<number, Promise<boolean>>();
  for (const r of rows) {
    if (r.number > packet.most) {
      problems.push(problem(r.line, 'variant', `packet ${packet.id} has no variant ${r.variant}: it has v1..v${packet.most} at most`, 'check in VARIANTS.json which variant zip you sent this candidate and write its id'));
    } else if (packet.sentOut !== undefined && r.number > packet.sentOut) {
      problems.push(problem(r.line, 'variant', `${r.variant} is above the variants sent out that --variants ${packet.sentOut} names (v1..v${packet.sentOut})`, `grade with --variants ${r.number} or more if you built and sent that many, or leave --variants out (the roster says which were sent); else correct the row`));
    } else {
      let got = renders.get(r.number);
      if (!got) renders.set(r.number, (got = packet.renders(r.number)));
      if (!(await got)) problems.push(problem(r.line, 'variant', `variant ${r.variant} of packet ${packet.id} does not make a packet once its values are written in, so it cannot have been built or sent`, `run packet check ${packet.id} with --variants ${r.number} to see why, and check in VARIANTS.json which variant you sent`));
    }
  }
  return problems;
}

/** The text of a roster file's bytes: UTF-8 (a leading BOM dropped, as spreadsheets write it), or the problem. */
export function rosterText(bytes: Buffer): { text: string } | { problem: RosterProblem } {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return { problem: problem(1, null, 'it is saved as UTF-16 (its first bytes are a UTF-16 byte order mark)', 'save it as UTF-8 ("CSV UTF-8" in a spreadsheet)') };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { problem: problem(null, null, 'it is not UTF-8 text', 'save it as UTF-8 ("CSV UTF-8" in a spreadsheet)') };
  }
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const nul = text.indexOf('\0');
  if (nul >= 0) return { problem: problem(text.slice(0, nul).split('\n').length, null, 'it holds a NUL byte: it is not a text file', 'give the roster as a .csv or .json text file') };
  return { text };
}

/** Read a roster file, at most {@link ROSTER_MAX_BYTES}: its bytes, or the problem (missing, a folder, too large, unreadable). */
export async function readRosterBytes(file: string): Promise<{ bytes: Buffer } | { problem: RosterProblem }> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'there is no such file' : code === 'EACCES' || code === 'EPERM' ? 'it cannot be read (permission denied)' : `it cannot be opened (${code ?? String(err)})`;
    return { problem: problem(null, null, why, 'give the path of the roster you keep (roster.csv, or roster.json)') };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { problem: problem(null, null, 'it is not a file', 'give the path of the roster file itself') };
    if (info.size > ROSTER_MAX_BYTES) return { problem: problem(null, null, `it is ${info.size} bytes, more than a roster's ${ROSTER_MAX_BYTES}`, 'give the roster of this batch: a row per submission, the name and the variant') };
    const buf = Buffer.alloc(ROSTER_MAX_BYTES + 1);
    let n = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
      if (n > ROSTER_MAX_BYTES) return { problem: problem(null, null, `it grew past a roster's ${ROSTER_MAX_BYTES} bytes while it was read`, 'give the roster of this batch, not a file that is being written') };
    }
    return { bytes: buf.subarray(0, n) };
  } catch (err) {
    return { problem: problem(null, null, `it cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`, 'give the path of the roster you keep (roster.csv, or roster.json)') };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Read a roster from `path` and check it against the packet: JSON when the file ends in `.json`,
 * CSV otherwise. Every problem found is returned (the first {@link ROSTER_PROBLEMS_SHOWN}, then
 * a count of the rest); a roster with any problem is not used at all.
 */
export async function loadRoster(path: string, shownFile: string, packet: RosterPacket): Promise<{ roster: Roster } | { problems: RosterProblem[] }> {
  const read = await readRosterBytes(path);
  if ('problem' in read) return { problems: [read.problem] };
  const decoded = rosterText(read.bytes);
  if ('problem' in decoded) return { problems: [decoded.problem] };
  const parsed = /\.json$/i.test(path) ? parseRosterJson(decoded.text) : parseRosterCsv(decoded.text);
  // The rows read well are checked too, so one reading tells every problem; "no row" only when nothing else is wrong.
  const rowProblems = await checkRosterRows(parsed.rows, packet);
  const problems = [...parsed.problems, ...(parsed.problems.length && !parsed.rows.length ? rowProblems.filter((p) => p.problem !== 'it names no submission') : rowProblems)].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  if (!problems.length) return { roster: { file: shownFile, rows: parsed.rows } };
  if (problems.length > ROSTER_PROBLEMS_SHOWN) {
    const rest = problems.length - ROSTER_PROBLEMS_SHOWN;
    return { problems: [...problems.slice(0, ROSTER_PROBLEMS_SHOWN), problem(null, null, `${rest} more problem${rest === 1 ? '' : 's'} after these`, 'fix the ones above and read it again')] };
  }
  return { problems };
}

/** The highest variant a roster names (its rows are never empty once read). */
export function rosterMost(roster: Roster): number {
  return Math.max(0, ...roster.rows.map((r) => r.number));
}

/** The row of a submission, by its exact name. */
export function rosterRow(roster: Roster, name: string): RosterRow | undefined {
  return roster.rows.find((r) => r.submission === name);
}

/** What a submission says of its own variant, and where: "its README's Variant line names" variant `id`. */
export interface StatedVariant {
  /** The id stated (the candidate's text: shown escaped in the finding). */
  id: string;
  /** How the submission states it, completing "...and <by> variant <id>": "its README's Variant line names", "its sheet's digest is that of". */
  by: string;
}

/** The refusal of a submission the roster cannot place (PK586), `why` completing "It is not graded: ...". */
export function notOnRoster(roster: Roster, name: string, why?: string): Finding {
  const near = roster.rows.find((r) => r.submission.toLowerCase() === name.toLowerCase());
  const reason = why ?? `the roster names no submission "${name}"${near ? ` (it has "${near.submission}" on line ${near.line}: names match exactly, case included)` : ''}`;
  return finding('intake', GradeErrors.NotOnRoster, { name, file: roster.file, why: reason });
}

/** What the roster says of one submission: the row of the variant sent (and PK585 when the submission states another), or its refusal (PK586). */
export type RosterCheck = { sent: RosterRow; finding?: Finding } | { refusal: Finding };

/**
 * Check one submission against the roster: the variant it is graded against is the roster's,
 * never the one it states. `stated` is what the submission says of its own variant (none, an
 * id, or several ways of saying it, each checked in order): the first that is not the variant
 * sent gives PK585, a finding that vetoes a hire. A submission the roster does not name is
 * refused (PK586). Pure; the lab sheet path calls it with the variant its sheet's digest names.
 */
export function rosterCheck(roster: Roster, name: string, stated: string | null | readonly StatedVariant[]): RosterCheck {
  const row = rosterRow(roster, name);
  if (!row) return { refusal: notOnRoster(roster, name) };
  const said = stated === null ? [] : typeof stated === 'string' ? [{ id: stated, by: 'it names' }] : stated;
  const other = said.find((s) => s.id !== row.variant);
  if (!other) return { sent: row };
  const f = finding('version', GradeErrors.VariantNotSent, { sent: row.variant, stated: shownName(other.id), by: other.by, file: roster.file, line: row.line });
  return { sent: row, finding: f };
}

/** The rows no submission of the batch matched, for the end of the batch. */
export function rosterUnmatched(roster: Roster, names: readonly string[]): RosterRow[] {
  const have = new Set(names);
  return roster.rows.filter((r) => !have.has(r.submission));
}

/** What a batch's summary says of the roster it was graded with: its file, its rows, and the rows no submission matched. */
export interface RosterSummary {
  /** The roster's file, as given. */
  file: string;
  /** How many rows it has. */
  rows: number;
  /** The rows no submission of the batch matched (a candidate whose submission was not in the batch), in the roster's order. */
  unmatched: { submission: string; variant: string; line: number }[];
}

/** The roster's part of a batch's summary, from the names the batch's submissions are graded as (take-homes and lab sheets alike). */
export function rosterSummary(roster: Roster, names: readonly string[]): RosterSummary {
  return { file: roster.file, rows: roster.rows.length, unmatched: rosterUnmatched(roster, names).map((r) => ({ submission: r.submission, variant: r.variant, line: r.line })) };
}

/**
 * The refusal (PK586) of a submission whose name before it was made unique is shared with
 * another of the batch (`shared`, lower case): no row of the roster can tell which is whose.
 * Undefined when its name is its own. `source` is its path, `name` the name it is graded as.
 */
export function sharedNameRefusal(roster: Roster, source: string, name: string, shared: ReadonlySet<string> | undefined): Finding | undefined {
  const baseName = nameAsGraded(source);
  if (!shared?.has(baseName.toLowerCase())) return undefined;
  return notOnRoster(roster, name, `more than one submission of this batch is named "${baseName}" (this one is graded as ${name}), so no row of the roster can tell which is whose`);
}
