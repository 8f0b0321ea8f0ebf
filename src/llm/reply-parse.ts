/**
 * Read a model's answer into whole files: fenced code blocks whose info string names the path
 * (```` ```python path=src/client.py ````), and unified diffs applied with jsdiff to the files
 * the model was given. Every path is checked before anything is written: relative, inside the
 * workspace, no `..`, no `.git`, no symlink. The text parsed is the final answer only: the
 * client removes the reasoning first (reasoning.ts), so a draft in `<think>` never counts.
 */
import { applyPatch, parsePatch } from 'diff';

/** The files a reply writes. */
export interface ParsedReply {
  ok: true;
  /** `files`: whole files; `diff`: a diff; `files+diff`: whole files, and a diff for other files. */
  format: 'files' | 'diff' | 'files+diff';
  /** Whole new texts by path (relative to the workspace root). */
  files: Map<string, string>;
  /** Paths the reply deletes (diffs only). */
  deleted: string[];
  /** Things worth knowing that did not stop the reply (a path given twice, a whole file and a diff for one path and which was applied). */
  notes: string[];
}

/** A reply that cannot be applied, and why. */
export interface RejectedReply {
  ok: false;
  reason: string;
  /** The reply holds no code at all (a refusal, an answer in words): no fenced path block, no diff. */
  noCode?: true;
}

/** At most this many files per reply, and this many bytes in all. */
export const REPLY_LIMITS = { files: 200, bytes: 2 * 1024 * 1024 };

/** Why a path may not be written, or null when it may. */
export function unsafePathReason(p: string): string | null {
  if (!p) return 'is empty';
  if (/[\u0000-\u001f\u007f]/.test(p)) return 'contains a control character';
  if (p.includes('\\')) return 'contains a backslash';
  if (p.startsWith('/') || p.startsWith('~') || /^[A-Za-z]:/.test(p)) return 'is absolute';
  const segments = p.split('/');
  if (segments.includes('..')) return 'climbs out of the workspace with ".."';
  if (segments.some((s) => s === '' || s === '.')) return 'has an empty or "." segment';
  if (segments.some((s) => s.toLowerCase() === '.git')) return 'writes inside .git';
  if (p.length > 400) return 'is too long';
  return null;
}

const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const PATH_ATTR = /(?:^|\s)path=(?:"([^"]+)"|'([^']+)'|(\S+))/;

/** The fenced blocks of a Markdown text: info string and content. */
export function fencedBlocks(text: string): { info: string; content: string }[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: { info: string; content: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE_OPEN.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const fence = open[2]!;
    const info = open[3]!.trim();
    if (fence[0] === '`' && info.includes('`')) continue;
    const body: string[] = [];
    let j = i + 1;
    const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    for (; j < lines.length && !close.test(lines[j]!); j++) {
      const line = lines[j]!;
      let strip = 0;
      while (strip < indent && line[strip] === ' ') strip++;
      body.push(line.slice(strip));
    }
    blocks.push({ info, content: body.length ? body.join('\n') + '\n' : '' });
    i = j;
  }
  return blocks;
}

function stripPrefix(name: string | undefined): string | undefined {
  if (!name) return undefined;
  const n = name.split('\t')[0]!.trim();
  if (n === '/dev/null') return n;
  return n.replace(/^[ab]\//, '');
}

function diffText(text: string): string | undefined {
  const blocks = fencedBlocks(text).filter((b) => /^(diff|patch|udiff)\b/i.test(b.info));
  if (blocks.length) return blocks.map((b) => b.content).join('\n');
  if (/^--- /m.test(text) && /^\+\+\+ /m.test(text) && /^@@ /m.test(text)) return text;
  return undefined;
}

function checkLimits(files: Map<string, string>): string | null {
  if (files.size > REPLY_LIMITS.files) return `the reply writes ${files.size} files, more than ${REPLY_LIMITS.files}`;
  let bytes = 0;
  for (const t of files.values()) bytes += Buffer.byteLength(t);
  return bytes > REPLY_LIMITS.bytes ? `the reply writes ${bytes} bytes, more than ${REPLY_LIMITS.bytes}` : null;
}

/** Apply a diff's sections to `base`: the files they write and the paths they delete, or why they cannot be applied. */
function applyDiff(diff: string, base: ReadonlyMap<string, string>, skip: ReadonlySet<string> = new Set()): { files: Map<string, string>; deleted: string[]; skipped: string[] } | RejectedReply {
  let patches: ReturnType<typeof parsePatch>;
  try {
    patches = parsePatch(diff);
  } catch (err) {
    return { ok: false, reason: `the diff does not parse: ${(err as Error).message}` };
  }
  patches = patches.filter((p) => p.hunks.length || p.isRename || p.isDelete || p.isCreate || p.isBinary || p.newMode || p.oldMode);
  if (!patches.length) return { ok: false, reason: 'the diff changes no file' };
  const current = new Map(base);
  const files = new Map<string, string>();
  const deleted: string[] = [];
  const skipped: string[] = [];
  for (const patch of patches) {
    const oldName = stripPrefix(patch.oldFileName);
    const newName = stripPrefix(patch.newFileName);
    if (patch.isBinary) return { ok: false, reason: `the diff changes a binary file (${newName ?? oldName})` };
    if (patch.newMode === '120000' || patch.oldMode === '120000') return { ok: false, reason: `the diff makes or changes a symlink (${newName ?? oldName}); symlinks are refused` };
    const target = newName && newName !== '/dev/null' ? newName : undefined;
    const source = oldName && oldName !== '/dev/null' ? oldName : undefined;
    for (const name of [target, source]) {
      if (name === undefined) continue;
      const why = unsafePathReason(name);
      if (why) return { ok: false, reason: `the path "${name}" ${why}` };
    }
    if (!target && !source) return { ok: false, reason: 'a diff section names no file' };
    if ((target && skip.has(target)) || (source && skip.has(source))) {
      skipped.push((target ?? source)!);
      continue;
    }
    const removing = patch.isDelete || newName === '/dev/null';
    const creating = patch.isCreate || oldName === '/dev/null';
    const from = creating ? '' : current.get(source ?? target!);
    if (from === undefined) return { ok: false, reason: `the diff changes "${source ?? target}", a file the model was not given` };
    const after = patch.hunks.length ? applyPatch(from, patch) : from;
    if (after === false) return { ok: false, reason: `the diff for "${target ?? source}" does not apply to the file the model was given` };
    if (removing) {
      current.delete(source!);
      files.delete(source!);
      deleted.push(source!);
      continue;
    }
    if (patch.isRename && source && source !== target) {
      current.delete(source);
      files.delete(source);
      deleted.push(source);
    }
    current.set(target!, after);
    files.set(target!, after);
  }
  return { files, deleted: deleted.filter((d) => !files.has(d)), skipped };
}

/**
 * Parse an answer. `base` holds the texts the model saw (the starter, or the workspace after the
 * last turn); a diff applies to them. Whole files come first: a diff section for a path also
 * given whole is not applied, and a note says so; diff sections for other paths are applied
 * too (only fenced `diff` blocks count next to whole files, so a file that holds a patch is not
 * read as one).
 */
export function parseReply(text: string, base: ReadonlyMap<string, string>): ParsedReply | RejectedReply {
  const notes: string[] = [];
  const blocks = fencedBlocks(text);
  const withPath = blocks
    .map((b) => {
      const m = PATH_ATTR.exec(b.info);
      return m ? { path: (m[1] ?? m[2] ?? m[3])!, content: b.content } : undefined;
    })
    .filter((b) => b !== undefined);
  if (withPath.length) {
    const files = new Map<string, string>();
    for (const b of withPath) {
      const p = b.path.replace(/^\.\//, '');
      const why = unsafePathReason(p);
      if (why) return { ok: false, reason: `the path "${b.path}" ${why}` };
      if (files.has(p)) notes.push(`${p} is given twice; the last block is used`);
      files.set(p, b.content);
    }
    const diffBlocks = blocks.filter((b) => /^(diff|patch|udiff)\b/i.test(b.info) && !PATH_ATTR.test(b.info));
    let format: ParsedReply['format'] = 'files';
    let deleted: string[] = [];
    if (diffBlocks.length) {
      const applied = applyDiff(
        diffBlocks.map((b) => b.content).join('\n'),
        new Map([...base, ...files]),
        new Set(files.keys()),
      );
      if ('reason' in applied) {
        notes.push(`a diff next to the whole files was not applied: ${applied.reason}`);
      } else if ('files' in applied) {
        for (const p of applied.skipped) notes.push(`${p} is given as a whole file and in a diff; the whole file was applied, the diff for it was not`);
        for (const [p, t] of applied.files) files.set(p, t);
        deleted = applied.deleted;
        if (applied.files.size || applied.deleted.length) {
          format = 'files+diff';
          notes.push(`the diff was applied to ${[...applied.files.keys(), ...applied.deleted].join(', ')}, next to the whole files`);
        }
      }
    }
    const limit = checkLimits(files);
    if (limit) return { ok: false, reason: limit };
    return { ok: true, format, files, deleted, notes };
  }

  const diff = diffText(text);
  if (!diff) return { ok: false, noCode: true, reason: 'the reply has no fenced block with a path= attribute and no unified diff' };
  const applied = applyDiff(diff, base);
  if ('reason' in applied) return applied;
  const limit = checkLimits(applied.files);
  if (limit) return { ok: false, reason: limit };
  return { ok: true, format: 'diff', files: applied.files, deleted: applied.deleted, notes };
}
