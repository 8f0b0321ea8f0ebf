/**
 * Safe intake of a lab's or a drill's answer sheet for `packet grade`: the file read under a
 * size cap (a regular file, no link), then the JSON read strictly, stricter than the page that
 * re-imports it: the kind, the format version, the packet's id, version and digest; every
 * answer once, for an id the packet has; a choice or verdict of the allowed set; every field of
 * the type the page writes and under a cap. A field the page never writes (a forged "score" or
 * "results") is ignored and said as a warning, never believed. Each refusal names the file, the
 * field (`suggestions[2].choice`) and the fix. Once the strict checks pass, the page's own
 * readers (src/labs/sheet-read.ts) give the sheet's shape, so the grader and the page read the
 * same answers.
 */
import { createHash } from 'node:crypto';
import { lstat, open } from 'node:fs/promises';
import { GradeErrors } from '../errors/grade-catalog.ts';
import { shownName } from '../errors/safe-name.ts';
import { finding, type Finding } from '../judge/findings.ts';
import {
  DRILL_SHEET_KIND,
  LAB_SHEET_KIND,
  readDrillSheet,
  readLabSheet,
  SHEET_DRILL_VERDICTS,
  SHEET_SCHEMA_VERSION,
  TIMELINE_ACTIONS,
  TIMELINE_DETAIL_LIMIT,
  TIMELINE_LIMIT,
  type DrillAnswerSheet,
  type LabAnswerSheet,
  type SheetTarget,
  type TimelineEntry,
} from '../labs/sheet-read.ts';
import { LAB_STATES } from '../packets/lab-compose.ts';

/** Caps on one answer sheet. */
export const SHEET_LIMITS = {
  /** Bytes of the file: a sheet of six suggestions and a full timeline is far under it. */
  bytes: 2 * 1024 * 1024,
  /** Characters of a reason, a plan field or a drill's change. */
  text: 20_000,
  /** Characters of a hand-edited region. */
  hand: 64 * 1024,
  /** Characters of an id, a name or a date. */
  short: 200,
} as const;

/** The ignored fields a card names one by one; the rest are counted in one more warning. */
const IGNORED_SHOWN = 20;

/** The fields a page writes at the top of each sheet; any other is ignored and flagged. */
const LAB_FIELDS = new Set(['schemaVersion', 'kind', 'id', 'version', 'digest', 'date', 'candidate', 'plan', 'suggestions', 'timeline']);
/** A lab with variants: its page also writes the variant it shows (`variant`). */
const LAB_VARIANT_FIELDS = new Set([...LAB_FIELDS, 'variant']);
const DRILL_FIELDS = new Set(['schemaVersion', 'kind', 'id', 'version', 'digest', 'date', 'candidate', 'diffs', 'timeline']);
const PLAN_FIELDS = ['endState', 'checkpoints', 'invariant', 'byHand'] as const;
const SUGGESTION_FIELDS = new Set(['id', 'choice', 'hand', 'reason']);
const DIFF_FIELDS = new Set(['id', 'verdict', 'reason', 'change']);
const TIMELINE_FIELDS = new Set(['at', 'action', 'id', 'detail']);

/** The bytes of a sheet file, or its refusal. */
export type SheetBytes = { ok: true; bytes: Buffer; sha256: string } | { ok: false; sha256: string | null; refusal: Finding };

/** A sheet read strictly: its answers and the warnings said on the way, or the refusal. */
export type StrictRead<T> = { ok: true; sheet: T; warnings: Finding[] } | { ok: false; refusal: Finding };

class Refusal extends Error {
  readonly finding: Finding;
  constructor(f: Finding) {
    super(f.message);
    this.finding = f;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A value of the file in a sentence: short, its controls shown, never through its own toString. */
const shown = (v: unknown): string => {
  const s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return shownName(s.length > 80 ? `${s.slice(0, 80)}…` : s);
};
const what = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `the ${typeof v} ${shown(v)}`);

/** Read a sheet file's bytes: a regular file under the cap. */
export async function readSheetBytes(file: string, shownFile: string, limit: number = SHEET_LIMITS.bytes): Promise<SheetBytes> {
  const unreadable = (reason: string, fix: string, sha256: string | null = null): SheetBytes => ({ ok: false, sha256, refusal: finding('intake', GradeErrors.AnswerSheetUnreadable, { file: shownFile, reason, fix }, { file: shownFile }) });
  let st;
  try {
    st = await lstat(file);
  } catch (err) {
    return unreadable(`it cannot be opened (${(err as NodeJS.ErrnoException).code ?? 'error'})`, 'check the path and pass the .json file the page exported');
  }
  if (st.isSymbolicLink()) return unreadable('it is a symbolic link, which may point anywhere on this machine', 'pass the exported file itself, not a link to it');
  if (!st.isFile()) return unreadable('it is not a regular file', 'pass the .json file the page exported');
  if (st.size > limit) return unreadable(`it holds ${st.size} bytes, past the cap of ${limit}`, 'an exported sheet is a few kilobytes: ask the candidate for the file the page exported');
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(limit + 1);
    let size = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, size, buf.length - size, size);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > limit) return unreadable(`it grew past the cap of ${limit} bytes while it was read`, 'pass a file nothing is writing to');
    }
    const bytes = buf.subarray(0, size);
    return { ok: true, bytes: Buffer.from(bytes), sha256: createHash('sha256').update(bytes).digest('hex') };
  } finally {
    await handle.close();
  }
}

/** The strict checks both kinds share; throws a Refusal. */
class Reader {
  readonly warnings: Finding[] = [];
  readonly file: string;
  ignoredCount = 0;
  constructor(file: string) {
    this.file = file;
  }

  invalid(field: string, problem: string, fix: string): never {
    throw new Refusal(finding('intake', GradeErrors.AnswerSheetInvalid, { file: this.file, field, problem, fix }, { file: this.file }));
  }
  unreadable(reason: string, fix: string): never {
    throw new Refusal(finding('intake', GradeErrors.AnswerSheetUnreadable, { file: this.file, reason, fix }, { file: this.file }));
  }
  ignored(field: string): void {
    // A sheet stuffed with fields gets a few warnings, not one per field.
    if (++this.ignoredCount > IGNORED_SHOWN) return;
    this.warnings.push(finding('intake', GradeErrors.AnswerSheetFieldIgnored, { file: this.file, field: shownName(field.length > 120 ? `${field.slice(0, 120)}…` : field) }, { file: this.file }));
  }
  undecided(field: string, whatFor: string): void {
    this.warnings.push(finding('intake', GradeErrors.AnswerSheetUndecided, { file: this.file, field, what: whatFor }, { file: this.file }));
  }
  /** Flag every key of `v` outside `known`, as `at.key`. */
  unknownKeys(v: Record<string, unknown>, known: ReadonlySet<string>, at: string): void {
    for (const k of Object.keys(v)) if (!known.has(k)) this.ignored(at ? `${at}.${k}` : k);
  }
  /** A string field (optional when `optional`), at most `max` characters. */
  text(v: Record<string, unknown>, key: string, at: string, max: number, optional = false): string | undefined {
    const x = v[key];
    if (x === undefined && optional) return undefined;
    if (typeof x !== 'string') this.invalid(at, x === undefined ? 'is missing' : `is ${what(x)}, not a string`, `write "${key}" as a string (empty when there is nothing to say)`);
    if (x.length > max) this.invalid(at, `holds ${x.length} characters, past the cap of ${max}`, `keep "${key}" under ${max} characters`);
    return x;
  }

  /** Parse, and check kind, format version and id. */
  head(bytes: Buffer, kind: string, otherKind: string, kindWord: string, target: Pick<SheetTarget, 'id'>): Record<string, unknown> {
    let json: string;
    try {
      json = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      this.unreadable('it is not UTF-8 text', 'pass the .json file the page exported, unchanged');
    }
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch (err) {
      this.unreadable(`it is not JSON (${(err as Error).message.slice(0, 120)})`, 'pass the .json file the page exported, unchanged');
    }
    if (!isRecord(value)) this.unreadable(`it holds ${what(value)}, not an answer sheet`, 'pass the .json file the page exported');
    if (value.kind === otherKind) {
      this.unreadable(`it is the answer sheet of a ${kindWord === 'lab' ? 'drill' : 'lab'} ("kind": "${otherKind}"), and "${target.id}" is a ${kindWord}`, `grade it against the packet it names ("id": ${shown(value.id)})`);
    }
    if (value.kind !== kind) this.unreadable(`its "kind" is ${what(value.kind)}, not "${kind}"`, `pass the answer sheet the ${kindWord}'s page exported`);
    if (value.schemaVersion !== SHEET_SCHEMA_VERSION) this.unreadable(`its "schemaVersion" is ${what(value.schemaVersion)}; this kit reads version ${SHEET_SCHEMA_VERSION}`, 'grade it with the kit the page of that version was built with');
    if (value.id !== target.id) {
      throw new Refusal(finding('intake', GradeErrors.AnswerSheetOtherPacket, { file: this.file, stated: `"${typeof value.id === 'string' ? shownName(value.id.slice(0, SHEET_LIMITS.short)) : what(value.id)}"`, current: `"${target.id}"` }, { file: this.file }));
    }
    return value;
  }

  /** Parse, and check kind, format version, id, version and digest. */
  envelope(bytes: Buffer, kind: string, otherKind: string, kindWord: string, target: SheetTarget): Record<string, unknown> {
    const value = this.head(bytes, kind, otherKind, kindWord, target);
    if (value.version !== target.version || value.digest !== target.digest) {
      const v = typeof value.version === 'string' ? `version ${shownName(value.version.slice(0, 40))}` : `no version (${what(value.version)})`;
      const d = typeof value.digest === 'string' ? `digest ${shownName(value.digest.slice(0, 64))}` : `no digest (${what(value.digest)})`;
      throw new Refusal(finding('intake', GradeErrors.AnswerSheetOtherVersion, { file: this.file, stated: `${v}, ${d}`, current: `version ${target.version}, digest ${target.digest}` }, { file: this.file }));
    }
    this.text(value, 'date', 'date', SHEET_LIMITS.short);
    this.text(value, 'candidate', 'candidate', SHEET_LIMITS.short, true);
    return value;
  }

  /** The list of answers: an array of objects, each id a known one, once, every known id there. */
  answers(v: Record<string, unknown>, key: 'suggestions' | 'diffs', ids: readonly string[], fields: ReadonlySet<string>): Record<string, unknown>[] {
    const list = v[key];
    const word = key === 'suggestions' ? 'suggestion' : 'diff';
    if (!Array.isArray(list)) this.invalid(key, list === undefined ? 'is missing' : `is ${what(list)}, not a list`, `give one answer per ${word}, in a list`);
    const seen = new Map<string, number>();
    const out: Record<string, unknown>[] = [];
    list.forEach((x, i) => {
      const at = `${key}[${i}]`;
      if (!isRecord(x)) this.invalid(at, `is ${what(x)}, not an answer`, `give each ${word} an object with its "id"`);
      if (typeof x.id !== 'string') this.invalid(`${at}.id`, x.id === undefined ? 'is missing' : `is ${what(x.id)}, not a string`, `name the ${word} by its id (${ids.join(', ')})`);
      if (!ids.includes(x.id)) this.invalid(`${at}.id`, `names ${shown(x.id)}, which is no ${word} of this packet`, `answer only the packet's ${key} (${ids.join(', ')})`);
      const before = seen.get(x.id);
      if (before !== undefined) this.invalid(`${at}.id`, `answers "${x.id}" again (first at ${key}[${before}]), so which answer counts is not known`, `keep one answer per ${word}`);
      seen.set(x.id, i);
      this.unknownKeys(x, fields, at);
      out.push(x);
    });
    const missing = ids.filter((id) => !seen.has(id));
    if (missing.length) this.invalid(key, `has no answer for ${missing.map((m) => `"${m}"`).join(', ')}`, `give every ${word} an answer (null when undecided)`);
    if (list.length > ids.length) this.invalid(key, `holds ${list.length} answers for ${ids.length} ${key}`, `keep one answer per ${word}`);
    return out;
  }

  /** The timeline: absent, or a list of at most TIMELINE_LIMIT entries, each checked by hand. */
  timeline(v: Record<string, unknown>): TimelineEntry[] | undefined {
    const t = v.timeline;
    if (t === undefined) return undefined;
    if (!Array.isArray(t)) this.invalid('timeline', `is ${what(t)}, not a list`, 'leave "timeline" out, or give the list the page recorded');
    if (t.length > TIMELINE_LIMIT) this.invalid('timeline', `holds ${t.length} entries, past the cap of ${TIMELINE_LIMIT}`, `keep at most ${TIMELINE_LIMIT} entries`);
    return t.map((e, i) => {
      const at = `timeline[${i}]`;
      if (!isRecord(e)) this.invalid(at, `is ${what(e)}, not an entry`, 'give each entry "at" and "action"');
      const when = this.text(e, 'at', `${at}.at`, SHEET_LIMITS.short)!;
      if (Number.isNaN(Date.parse(when))) this.invalid(`${at}.at`, `is ${shown(when)}, not an ISO 8601 time`, 'write the time as the page does (2026-12-02T10:00:00.000Z)');
      const action = e.action;
      if (typeof action !== 'string' || !(TIMELINE_ACTIONS as readonly string[]).includes(action)) this.invalid(`${at}.action`, `is ${what(action)}, which is no action the page records`, `use one of ${TIMELINE_ACTIONS.join(', ')}`);
      const id = this.text(e, 'id', `${at}.id`, SHEET_LIMITS.short, true);
      const detail = this.text(e, 'detail', `${at}.detail`, TIMELINE_DETAIL_LIMIT, true);
      this.unknownKeys(e, TIMELINE_FIELDS, at);
      return { at: when, action: action as TimelineEntry['action'], ...(id !== undefined ? { id } : {}), ...(detail !== undefined ? { detail } : {}) };
    });
  }
}

function run<T>(file: string, body: (r: Reader) => T): StrictRead<T> {
  const r = new Reader(file);
  try {
    const sheet = body(r);
    if (r.ignoredCount > IGNORED_SHOWN) r.warnings.push(finding('intake', GradeErrors.AnswerSheetFieldIgnored, { file, field: `… and ${r.ignoredCount - IGNORED_SHOWN} more fields` }, { file }));
    return { ok: true, sheet, warnings: r.warnings };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, refusal: err.finding };
    throw err;
  }
}

/** The most characters of a sheet's `variant` (`v1`..`v100`, with room to show a wrong one). */
export const SHEET_VARIANT_MAX = 40;

/** What a lab's sheet says of its variant: its digest and, when the page wrote it, its `variant`. */
export interface SheetVariantStated {
  /** The sheet's `digest`, when it is a string (cut at 64 characters); null otherwise. */
  digest: string | null;
  /** The sheet's `variant` (`v3`), or null when it has none. */
  variant: string | null;
  /** The sheet's `version`, when it is a string. */
  version: string | null;
}

/**
 * The head of a lab's answer sheet, read strictly for a lab with variants: parsed, its kind,
 * format version and id checked (refused as {@link readLabSheetStrict} refuses them), and what it
 * states of its variant. A `variant` that is not a short string is refused by name. The digest
 * is not checked here: which variant it is decides the target of the strict read.
 */
export function readLabSheetVariant(bytes: Buffer, file: string, target: Pick<SheetTarget, 'id'>): StrictRead<SheetVariantStated> {
  return run(file, (r) => {
    const v = r.head(bytes, LAB_SHEET_KIND, DRILL_SHEET_KIND, 'lab', target);
    const variant = r.text(v, 'variant', 'variant', SHEET_VARIANT_MAX, true);
    return { digest: typeof v.digest === 'string' ? v.digest.slice(0, 64) : null, variant: variant ?? null, version: typeof v.version === 'string' ? v.version : null };
  });
}

/** Read a lab's answer sheet strictly, for the lab with these suggestions; `variants` for a lab with variants, whose page writes `variant`. */
export function readLabSheetStrict(bytes: Buffer, file: string, target: SheetTarget & { suggestions: readonly string[]; variants?: boolean }): StrictRead<LabAnswerSheet> {
  return run(file, (r) => {
    const v = r.envelope(bytes, LAB_SHEET_KIND, DRILL_SHEET_KIND, 'lab', target);
    r.unknownKeys(v, target.variants ? LAB_VARIANT_FIELDS : LAB_FIELDS, '');
    if (target.variants) r.text(v, 'variant', 'variant', SHEET_VARIANT_MAX, true);
    const plan = v.plan;
    if (!isRecord(plan)) return r.invalid('plan', v.plan === undefined ? 'is missing' : `is ${what(v.plan)}, not an object`, `give the plan's four fields (${PLAN_FIELDS.join(', ')}), each a string`);
    for (const k of PLAN_FIELDS) r.text(plan, k, `plan.${k}`, SHEET_LIMITS.text);
    r.unknownKeys(plan, new Set(PLAN_FIELDS), 'plan');
    const answers = r.answers(v, 'suggestions', target.suggestions, SUGGESTION_FIELDS);
    answers.forEach((s, i) => {
      const at = `suggestions[${i}]`;
      if (s.choice === undefined) r.invalid(`${at}.choice`, 'is missing', `write one of ${LAB_STATES.join(', ')}, or null while undecided`);
      if (s.choice !== null && !(LAB_STATES as readonly unknown[]).includes(s.choice)) r.invalid(`${at}.choice`, `is ${what(s.choice)}`, `write one of ${LAB_STATES.join(', ')}, or null while undecided`);
      const hand = r.text(s, 'hand', `${at}.hand`, SHEET_LIMITS.hand, true);
      r.text(s, 'reason', `${at}.reason`, SHEET_LIMITS.text);
      if (s.choice === null && hand === undefined) r.undecided(`${at}.choice`, `the suggestion "${String(s.id)}" has no choice; its region is graded as the starter has it (reject)`);
    });
    const timeline = r.timeline(v);
    const read = readLabSheet(new TextDecoder().decode(bytes), target);
    if (!read.ok) return r.unreadable(read.message.replace(/ Nothing was changed\.$/, '').replace(/\.$/, ''), 'pass the .json file the page exported, unchanged');
    // The shape as the page reads it, in the packet's order; the timeline as checked here.
    return { ...read.value, version: target.version, ...(timeline ? { timeline } : {}) };
  });
}

/** Read a drill's answer sheet strictly, for the drill with these diffs. */
export function readDrillSheetStrict(bytes: Buffer, file: string, target: SheetTarget & { diffs: readonly string[] }): StrictRead<DrillAnswerSheet> {
  return run(file, (r) => {
    const v = r.envelope(bytes, DRILL_SHEET_KIND, LAB_SHEET_KIND, 'drill', target);
    r.unknownKeys(v, DRILL_FIELDS, '');
    const answers = r.answers(v, 'diffs', target.diffs, DIFF_FIELDS);
    answers.forEach((d, i) => {
      const at = `diffs[${i}]`;
      if (d.verdict === undefined) r.invalid(`${at}.verdict`, 'is missing', `write one of ${SHEET_DRILL_VERDICTS.join(', ')}, or null while undecided`);
      if (d.verdict !== null && !(SHEET_DRILL_VERDICTS as readonly unknown[]).includes(d.verdict)) r.invalid(`${at}.verdict`, `is ${what(d.verdict)}`, `write one of ${SHEET_DRILL_VERDICTS.join(', ')}, or null while undecided`);
      r.text(d, 'reason', `${at}.reason`, SHEET_LIMITS.text);
      r.text(d, 'change', `${at}.change`, SHEET_LIMITS.text, true);
      if (d.verdict === null) r.undecided(`${at}.verdict`, `the diff "${String(d.id)}" has no verdict`);
    });
    const timeline = r.timeline(v);
    const read = readDrillSheet(new TextDecoder().decode(bytes), target);
    if (!read.ok) return r.unreadable(read.message.replace(/ Nothing was changed\.$/, '').replace(/\.$/, ''), 'pass the .json file the page exported, unchanged');
    return { ...read.value, version: target.version, ...(timeline ? { timeline } : {}) };
  });
}
