/**
 * Read a model's mutants: a JSON array `[{"fault", "path", "code"}]`, bare, in a fenced `json`
 * block, or (leniently) the first `[` to the last `]` of an answer with words around it; raw
 * line breaks inside JSON strings and a file wrapped in a Markdown fence inside `code` are read
 * as meant, and noted. An item may give `diff` (a unified diff against the sample's file)
 * instead of `code`. A reply with no readable array is malformed: the call is INCONCLUSIVE. An
 * item that is not a usable mutant (no code, a path outside the sample's sources, a diff that
 * does not apply) is kept, with its problem, and counted invalid: the model answered, and the
 * answer is judged.
 */
import { fencedBlocks, parseReply, unsafePathReason } from '../llm/reply-parse.ts';

/** One item of the reply. */
export interface Proposal {
  /** 1-based position in the reply. */
  index: number;
  /** The fault in one line ('' when the item gave none). */
  fault: string;
  /** The file it changes ('' when the item gave none). */
  path: string;
  /** The whole new file, from `code` or from `diff` applied to the sample. */
  code?: string;
  /** How the item gave its change. */
  form?: 'code' | 'diff';
  /** Why the item is not a usable mutant. */
  problem?: string;
}

/** A reply read into proposals, or why it could not be. */
export type ParsedMutants = { ok: true; proposals: Proposal[]; notes: string[] } | { ok: false; reason: string };

/** At most this many items are read from one reply. */
export const MAX_ITEMS = 100;

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * JSON with raw line breaks and tabs inside its strings escaped, or null when it has none. Models
 * often write a file's lines into a JSON string as they are, which JSON.parse refuses.
 */
export function escapeRawControls(text: string): string | null {
  let out = '';
  let inString = false;
  let changed = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === '\\') {
        out += ch + (text[i + 1] ?? '');
        i++;
        continue;
      }
      if (ch === '"') inString = false;
      else if (ch === '\n' || ch === '\r' || ch === '\t') {
        out += ch === '\n' ? '\\n' : ch === '\r' ? '\\r' : '\\t';
        changed = true;
        continue;
      }
    } else if (ch === '"') inString = true;
    out += ch;
  }
  return changed ? out : null;
}

function parseJson(text: string): { value: unknown; note?: string } | { error: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    const escaped = escapeRawControls(text);
    if (escaped !== null) {
      try {
        return { value: JSON.parse(escaped), note: 'raw line breaks inside its strings were read as \\n' };
      } catch {
        // Fall through to the first error.
      }
    }
    return { error: (err as Error).message };
  }
}

/** The JSON array in a reply, or why there is none. */
function findArray(text: string): { items: unknown[]; notes: string[] } | { reason: string } {
  const trimmed = text.trim();
  const candidates: { text: string; from: string }[] = [];
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) candidates.push({ text: trimmed, from: 'the reply' });
  for (const b of fencedBlocks(text)) {
    const lang = b.info.split(/\s+/)[0]!.toLowerCase();
    if (lang === 'json' || lang === 'jsonc' || (lang === '' && /^\s*[[{]/.test(b.content))) candidates.push({ text: b.content, from: 'a fenced block' });
  }
  const first = text.indexOf('[');
  const last = text.lastIndexOf(']');
  if (first >= 0 && last > first) candidates.push({ text: text.slice(first, last + 1), from: 'the text from the first "[" to the last "]"' });
  if (!candidates.length) return { reason: 'it holds no JSON array' };
  let firstError: string | undefined;
  for (const c of candidates) {
    const parsed = parseJson(c.text);
    if ('error' in parsed) {
      firstError ??= `the JSON in ${c.from} does not parse (${parsed.error})`;
      continue;
    }
    const { value } = parsed;
    const notes = parsed.note ? [`the JSON in ${c.from} was not strict: ${parsed.note}`] : [];
    if (Array.isArray(value)) return { items: value, notes: [...(c.from === 'the reply' || c.from === 'a fenced block' ? [] : [`the array was read from ${c.from}`]), ...notes] };
    // `{"mutants": [...]}`: one array inside an object.
    if (value && typeof value === 'object') {
      const arrays = Object.entries(value as Record<string, unknown>).filter(([, v]) => Array.isArray(v));
      if (arrays.length === 1) return { items: arrays[0]![1] as unknown[], notes: [`the array was read from the "${arrays[0]![0]}" field of an object`, ...notes] };
    }
    firstError ??= `the JSON in ${c.from} is not an array`;
  }
  return { reason: firstError ?? 'it holds no JSON array' };
}

/** A diff with file headers, so the shared diff reader takes it (a model often sends bare hunks). */
function withHeaders(diff: string, file: string): string {
  const text = diff.replace(/\r\n?/g, '\n');
  if (/^--- /m.test(text) && /^\+\+\+ /m.test(text)) return text;
  return `--- a/${file}\n+++ b/${file}\n${text}`;
}

/** The path a diff names in its `+++` header, if any. */
function diffTarget(diff: string): string | undefined {
  const m = /^\+\+\+ (?:b\/)?([^\t\n]+)/m.exec(diff);
  return m && m[1] !== '/dev/null' ? m[1]!.trim() : undefined;
}

/** Read one item against the sample's sources. */
function readItem(item: unknown, index: number, sources: ReadonlyMap<string, string>): Proposal {
  if (!item || typeof item !== 'object' || Array.isArray(item)) return { index, fault: '', path: '', problem: 'the item is not an object with "fault", "path" and "code"' };
  const o = item as Record<string, unknown>;
  const fault = typeof o.fault === 'string' ? oneLine(o.fault) : '';
  const code = typeof o.code === 'string' ? o.code : undefined;
  const diff = typeof o.diff === 'string' ? o.diff : undefined;
  let file = typeof o.path === 'string' ? o.path.trim().replace(/^\.\//, '') : '';
  if (!file && diff) file = diffTarget(diff) ?? '';
  const base = { index, fault, path: file };
  if (!fault) return { ...base, problem: 'it states no fault' };
  if (code === undefined && diff === undefined) return { ...base, problem: 'it has neither "code" nor "diff"' };
  if (!file) return { ...base, problem: 'it names no path' };
  const unsafe = unsafePathReason(file);
  if (unsafe) return { ...base, problem: `its path "${file}" ${unsafe}` };
  const original = sources.get(file);
  if (original === undefined) return { ...base, problem: `"${file}" is not one of the sample's source files (${[...sources.keys()].join(', ')})` };
  if (code !== undefined) {
    // A whole file wrapped in a Markdown fence inside the JSON string: the fence is not code.
    const inner = /^\s*(`{3,})[^\n]*\n([\s\S]*?)\n?\1\s*$/.exec(code)?.[2] ?? code;
    return { ...base, form: 'code', code: inner.endsWith('\n') || !inner ? inner : `${inner}\n` };
  }
  const applied = parseReply(withHeaders(diff!, file), new Map([[file, original]]));
  if (!applied.ok) return { ...base, form: 'diff', problem: `its diff cannot be applied: ${applied.reason}` };
  const touched = [...applied.files.keys(), ...applied.deleted];
  if (touched.length !== 1 || !applied.files.has(file)) return { ...base, form: 'diff', problem: `its diff changes ${touched.join(', ') || 'nothing'}, not the one file "${file}"` };
  return { ...base, form: 'diff', code: applied.files.get(file)! };
}

/** Read a reply into proposals. Pure. */
export function parseMutantReply(text: string, sources: ReadonlyMap<string, string>): ParsedMutants {
  const found = findArray(text);
  if ('reason' in found) return { ok: false, reason: found.reason };
  if (found.items.length === 0) return { ok: false, reason: 'the array is empty' };
  const notes = [...found.notes];
  const items = found.items.slice(0, MAX_ITEMS);
  if (found.items.length > MAX_ITEMS) notes.push(`the reply holds ${found.items.length} items; the first ${MAX_ITEMS} were read`);
  return { ok: true, proposals: items.map((item, i) => readItem(item, i + 1, sources)), notes };
}
