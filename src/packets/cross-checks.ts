import picomatch from 'picomatch';
import { diagnose, Errors } from '../errors/catalog.ts';
import { shownPath, type Diagnostic } from '../errors/diagnostic.ts';
import { packetLimits, sizeText } from './file-limits.ts';
import { LabErrors } from '../errors/lab-catalog.ts';
import type { KindDescriptor } from './kinds/kind.ts';
import { MUTANTS_REPLY, type CodePacketBase } from './packet-base.ts';
import type { Part } from './part.ts';
import { placeOf } from './place.ts';
import type { FailuresFrontmatter } from './schema/failures.ts';
import type { RubricFrontmatter } from './schema/rubric.ts';

/** Files over this size in a tree are warned about. */
export const LARGE_FILE_BYTES = 1024 * 1024;

/** The rubric's own checks, for every kind: row ids unique, vetoes on known rows, a hire bar in reach, automatic rows the kind can score. */
export function rubricChecks(rubric: Part<RubricFrontmatter>, kind: Pick<KindDescriptor, 'word' | 'autoChecks'>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const rowIds = rubric.data.rows.map((r) => r.id);
  const rowList = rowIds.join(', ');
  const seenRows = new Set<string>();
  rubric.data.rows.forEach((row, i) => {
    if (seenRows.has(row.id)) out.push(diagnose(Errors.DuplicateEntryId, placeOf(rubric, ['rows', i, 'id']), { kind: 'rubric row', id: row.id }));
    seenRows.add(row.id);
    const scorable = kind.autoChecks;
    if (row.auto && !scorable.includes(row.auto)) {
      out.push(diagnose(LabErrors.AutoRowNotScorable, placeOf(rubric, ['rows', i, 'auto']), { row: row.id, auto: row.auto, kind: kind.word, scorable: scorable.join(', ') }));
    }
  });
  rubric.data.vetoes.forEach((veto, i) => {
    if (!rowIds.includes(veto.row)) out.push(diagnose(Errors.VetoUnknownRow, placeOf(rubric, ['vetoes', i, 'row']), { row: veto.row, rows: rowList }));
  });
  const total = rubric.data.rows.reduce((sum, r) => sum + r.max, 0);
  if (rubric.data.hireBar > total) {
    out.push(diagnose(Errors.HireBarOutOfReach, placeOf(rubric, ['hireBar']), { hireBar: rubric.data.hireBar, total }));
  }
  return out;
}

/**
 * Checks that span the files of a packet with code: the rubric's, the failure catalog's (rows
 * named by caps, overlays and replies that exist; a take-home passes its `failures`, and then
 * its sample tree is required), globs that match, trees that exist.
 */
export function crossCheck(packet: CodePacketBase, kind: Pick<KindDescriptor, 'word' | 'autoChecks'>, failures?: Part<FailuresFrontmatter>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { prompt, rubric, trees } = packet;
  const rowIds = rubric.data.rows.map((r) => r.id);
  const rowList = rowIds.join(', ');
  out.push(...rubricChecks(rubric, kind));

  const seenModes = new Set<string>();
  failures?.data.modes.forEach((mode, i) => {
    if (seenModes.has(mode.id)) out.push(diagnose(Errors.DuplicateEntryId, placeOf(failures, ['modes', i, 'id']), { kind: 'failure mode', id: mode.id }));
    seenModes.add(mode.id);
    const row = rubric.data.rows.find((r) => r.id === mode.caps.row);
    if (!row) out.push(diagnose(Errors.CapUnknownRow, placeOf(failures, ['modes', i, 'caps', 'row']), { mode: mode.id, row: mode.caps.row, rows: rowList }));
    else if (mode.caps.max >= row.max)
      out.push(diagnose(Errors.CapAboveRowMax, placeOf(failures, ['modes', i, 'caps', 'max']), { mode: mode.id, row: row.id, cap: mode.caps.max, max: row.max }));

    const mutant = mode.mutant.replace(/\/+$/, '');
    const [top, name, ...deeper] = mutant.split('/');
    if (top !== 'mutants' || !name || deeper.length) {
      out.push(diagnose(Errors.UnsafePath, placeOf(failures, ['modes', i, 'mutant']), { path: mode.mutant, reason: 'is not a folder directly under mutants/' }));
    } else if (!trees.mutants[name]?.length) {
      out.push(diagnose(Errors.MutantMissing, placeOf(failures, ['modes', i, 'mutant']), { mode: mode.id, path: mutant }));
    }
    if (mode.reply !== undefined) {
      if (!mode.reply.startsWith('replies/')) {
        out.push(diagnose(Errors.UnsafePath, placeOf(failures, ['modes', i, 'reply']), { path: mode.reply, reason: 'is not under replies/' }));
      } else if (!trees.replies.includes(mode.reply.slice('replies/'.length))) {
        out.push(diagnose(Errors.ReplyMissing, placeOf(failures, ['modes', i, 'reply']), { mode: mode.id, path: mode.reply }));
      }
    }
  });

  prompt.data.workspace.forbid.forEach((rule, i) => {
    try {
      new RegExp(rule.pattern);
    } catch (err) {
      out.push(diagnose(Errors.ForbidPatternInvalid, placeOf(prompt, ['workspace', 'forbid', i, 'pattern']), { pattern: rule.pattern, reason: (err as Error).message }));
    }
  });
  const allowMatchers: ((f: string) => boolean)[] = [];
  prompt.data.workspace.allow.forEach((glob, i) => {
    const where = placeOf(prompt, ['workspace', 'allow', i]);
    let re: RegExp;
    try {
      re = picomatch.makeRe(glob, { dot: true });
    } catch (err) {
      return void out.push(diagnose(Errors.AllowGlobInvalid, where, { glob, reason: `does not compile (${(err as Error).message})` }));
    }
    // picomatch turns a glob it cannot read (an unclosed brace, a reversed range) into a pattern that matches nothing.
    if (re.source === '$^') return void out.push(diagnose(Errors.AllowGlobInvalid, where, { glob, reason: 'can never match a path (an unclosed brace or bracket, or a reversed range?)' }));
    allowMatchers.push(picomatch(glob, { dot: true }));
  });
  prompt.data.deliverables.forEach((d, i) => {
    if (!/[/.]/.test(d) || trees.starter.includes(d) || allowMatchers.some((m) => m(d))) return;
    out.push(diagnose(Errors.DeliverableOutsideAllow, placeOf(prompt, ['deliverables', i]), { deliverable: d }));
  });

  // A reply file nothing names is never rehearsed: say so, since what it was meant to prove goes unproven.
  const namedReplies = (failures?.data.modes ?? []).flatMap((m) => (m.reply?.startsWith('replies/') ? [m.reply.slice('replies/'.length)] : []));
  for (const file of trees.replies) {
    if (file === 'sample.md' || file === MUTANTS_REPLY || namedReplies.includes(file)) continue;
    out.push(
      diagnose(Errors.UnusedReply, { file: `${packet.dir}/replies/${file}` }, { path: `replies/${file}`, named: namedReplies.map((r) => `replies/${r}`).join(', ') || 'none' }),
    );
  }

  prompt.data.protected.forEach((glob, i) => {
    const match = picomatch(glob, { dot: true });
    if (!trees.starter.some((f) => match(f))) out.push(diagnose(Errors.ProtectedNoMatch, placeOf(prompt, ['protected', i]), { glob }));
  });
  prompt.data.context?.forEach((file, i) => {
    if (!trees.starter.includes(file)) out.push(diagnose(Errors.ContextFileMissing, placeOf(prompt, ['context', i]), { path: file }));
  });

  const limits = packetLimits(prompt.data.limits);
  for (const e of packet.entries) {
    const file = `${packet.dir}/${e.path}`;
    if (e.kind === 'symlink') out.push(diagnose(Errors.SymlinkInTree, { file }, { path: e.path }));
    else if (e.kind === 'other') out.push(diagnose(Errors.UnreadableFile, { file }, { reason: 'it is not a regular file' }));
    else if (e.size > limits.fileBytes) {
      out.push(diagnose(Errors.FileTooLarge, { file }, { path: shownPath(e.path), size: `${sizeText(e.size)} (${e.size.toLocaleString('en-US')} bytes)`, limit: sizeText(limits.fileBytes), override: limits.fileOverride }));
    } else if (e.size > LARGE_FILE_BYTES && !limits.fileOverride) out.push(diagnose(Errors.LargeTreeFile, { file }, { path: e.path, size: e.size }));
  }
  if (!trees.starter.length) out.push(diagnose(Errors.TreeMissing, { file: `${packet.dir}/starter` }, { tree: 'starter' }));
  if (failures && !trees.sample.length) out.push(diagnose(Errors.TreeMissing, { file: `${packet.dir}/sample` }, { tree: 'sample' }));
  if (!trees.hidden.length) out.push(diagnose(Errors.TreeMissing, { file: `${packet.dir}/hidden` }, { tree: 'hidden' }, 'warning'));
  return out;
}
