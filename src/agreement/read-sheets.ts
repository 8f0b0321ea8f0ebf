import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { diagnose } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { GradeErrors } from '../errors/grade-catalog.ts';
import { loadPackets } from '../packets/load.ts';
import { agreementReport, type AgreementReport, type AgreementRubric } from './agreement.ts';
import { readCalibrationKey, type CalibrationKey } from './key.ts';
import { reviewerIdentity, reviewSheet, sheetHead, type ReviewSheet } from './sheet.ts';

/**
 * `packet agreement` as a library: the sheets named (files, or folders searched for *.json),
 * the rubric of the one packet version they score (from the packets folder), the key, and the
 * report. Every bad sheet is a diagnostic; any diagnostic means no report.
 */

/** A sheet is a few kilobytes; a file much larger is not one, and is not read into memory. */
const MAX_SHEET_BYTES = 1024 * 1024;

/** What the command passes. */
export interface AgreementRun {
  inputs: readonly string[];
  packets: string;
  key?: string | undefined;
  seed: number;
  resamples: number;
  cwd: string;
}

/** The report, or the diagnostics that stopped it; `skipped` counts JSON files in folders that are not sheets, `read` holds the absolute paths of the sheets and the key read. */
export type AgreementOutcome = { ok: true; report: AgreementReport; skipped: number; read: string[] } | { ok: false; diagnostics: Diagnostic[] };

/** The .json files under a folder, sorted, or the file itself. */
async function filesOf(input: string, cwd: string): Promise<{ files: { file: string; named: boolean }[] } | { diagnostic: Diagnostic }> {
  const abs = path.resolve(cwd, input);
  const info = await stat(abs).catch((err: NodeJS.ErrnoException) => err);
  if (info instanceof Error) return { diagnostic: diagnose(GradeErrors.SheetUnreadable, { file: input }, { reason: info.code === 'ENOENT' ? 'there is no such file or folder' : info.message }) };
  if (!info.isDirectory()) return { files: [{ file: input, named: true }] };
  const entries = await readdir(abs, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => path.relative(cwd, path.join(e.parentPath, e.name)))
    .sort();
  return { files: files.map((file) => ({ file, named: false })) };
}

/** Read, check and report. */
export async function runAgreement(run: AgreementRun): Promise<AgreementOutcome> {
  const diagnostics: Diagnostic[] = [];
  const heads: { file: string; json: Record<string, unknown>; id: string; version: string; digest: string }[] = [];
  let skipped = 0;
  for (const input of run.inputs) {
    const listed = await filesOf(input, run.cwd);
    if ('diagnostic' in listed) {
      diagnostics.push(listed.diagnostic);
      continue;
    }
    for (const { file, named } of listed.files) {
      const size = await stat(path.resolve(run.cwd, file)).then((i) => i.size, () => 0);
      if (size > MAX_SHEET_BYTES) {
        diagnostics.push(diagnose(GradeErrors.SheetUnreadable, { file }, { reason: `it is ${size} bytes, more than a scored sheet's ${MAX_SHEET_BYTES}` }));
        continue;
      }
      const source = await readFile(path.resolve(run.cwd, file), 'utf8').catch((err: Error) => err);
      if (source instanceof Error) {
        diagnostics.push(diagnose(GradeErrors.SheetUnreadable, { file }, { reason: source.message }));
        continue;
      }
      const head = sheetHead(file, source);
      if ('diagnostic' in head) {
        if (head.notSheet && !named) skipped++;
        else diagnostics.push(head.diagnostic);
        continue;
      }
      heads.push({ file, json: head.json, ...head.head });
    }
  }
  if (diagnostics.length) return { ok: false, diagnostics };
  if (!heads.length) return { ok: false, diagnostics: [diagnose(GradeErrors.AgreementTooFewReviewers, { file: run.inputs.join(' ') }, { count: 0 })] };
  const versions = [...new Set(heads.map((h) => `${h.id}@${h.digest}`))];
  if (versions.length > 1) {
    const shown = versions.map((v) => {
      const h = heads.find((x) => `${x.id}@${x.digest}` === v)!;
      return `"${h.id}" ${h.version} digest ${h.digest.slice(0, 12)} in ${h.file}`;
    });
    return { ok: false, diagnostics: [diagnose(GradeErrors.SheetsOfSeveralVersions, { file: heads[0]!.file }, { versions: shown.join('; ') })] };
  }
  const { id, digest } = heads[0]!;
  const loaded = await loadPackets({ packetsDir: run.packets, cwd: run.cwd, ids: [id] });
  const packet = loaded.packets.find((p) => p.id === id);
  if (!packet || packet.digest !== digest) {
    const found = packet ? `version ${packet.prompt.data.version} at digest ${packet.digest.slice(0, 12)}` : 'no packet of that id';
    return { ok: false, diagnostics: [diagnose(GradeErrors.SheetPacketMissing, { file: run.packets }, { id, digest: digest.slice(0, 12), found })] };
  }
  const rubric = packet.rubric.data as AgreementRubric;
  const sheets: ReviewSheet[] = [];
  // One reviewer, however the name was spelled on each card, is shown as first spelled.
  const spelled = new Map<string, string>();
  for (const h of heads) {
    const read = reviewSheet(h.file, h.json, rubric);
    if ('code' in read) {
      diagnostics.push(read);
      continue;
    }
    const identity = reviewerIdentity(read.reviewer);
    if (!spelled.has(identity)) spelled.set(identity, read.reviewer);
    const s = { ...read, reviewer: spelled.get(identity)! };
    const twin = sheets.find((o) => o.reviewer === s.reviewer && o.submission === s.submission);
    if (twin) diagnostics.push(diagnose(GradeErrors.SheetDuplicate, { file: s.file }, { reviewer: s.reviewer, submission: s.label, other: twin.file }));
    else sheets.push(s);
  }
  let key: CalibrationKey | null = null;
  if (run.key) {
    const source = await readFile(path.resolve(run.cwd, run.key), 'utf8').catch((err: Error) => err);
    const read = source instanceof Error ? diagnose(GradeErrors.CalibrationKeyInvalid, { file: run.key }, { field: '(file)', problem: `cannot be read (${source.message})` }) : readCalibrationKey(run.key, source, { id, digest }, rubric);
    if ('code' in read) diagnostics.push(read);
    else key = read;
  }
  if (diagnostics.length) return { ok: false, diagnostics };
  const reviewers = new Set(sheets.map((s) => s.reviewer)).size;
  if (reviewers < 2 && !key) return { ok: false, diagnostics: [diagnose(GradeErrors.AgreementTooFewReviewers, { file: run.inputs.join(' ') }, { count: reviewers })] };
  const report = agreementReport({ id, version: packet.prompt.data.version, digest }, rubric, sheets, { seed: run.seed, resamples: run.resamples }, key);
  const read = [...heads.map((h) => path.resolve(run.cwd, h.file)), ...(run.key ? [path.resolve(run.cwd, run.key)] : [])];
  return { ok: true, report, skipped, read };
}
