/**
 * `packet calibrate` as a library call: the packet's calibration set (calibration-set.ts) written
 * as anonymous zips into `<out>/<id>/reviewer/submissions/`, graded by the same run as `packet
 * grade` (scorecards and summary.json in `reviewer/grades/<id>/`, so they import as a queue on the
 * rubric page), then the key in `lead/calibration-key.json`, apart from what the reviewer gets,
 * and a README saying which folder goes where.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { diagnose } from '../errors/catalog.ts';
import { forJson } from '../errors/escape.ts';
import { fsFault } from '../errors/fs-fault.ts';
import { GradeErrors } from '../errors/grade-catalog.ts';
import { gradeRun, type GradeFlags } from '../grade/grade-run.ts';
import type { GradeReporter } from '../grade/grade.ts';
import type { Scorecard } from '../judge/scorecard.ts';
import { loadPackets } from '../packets/load.ts';
import type { RunHost } from '../runs/context.ts';
import { writeFileWhole } from '../runs/output-folder.ts';
import { calibrationKey, calibrationReadme, calibrationSubmissions, decisionFor, type CalibrationKey } from './calibration-set.ts';

/** The flags of `packet calibrate`, as parsed. */
export interface CalibrateFlags extends Omit<GradeFlags, 'submissions'> {
  /** The order of the set; default: the packet's digest (one packet version, one order). */
  seed?: string | undefined;
}

/** What a calibration gave, for the command to print. */
export interface CalibrationOutcome {
  /** `<out>/<id>/`, absolute. */
  dir: string;
  key?: CalibrationKey;
}

/** Whether the set's folder can take a new set: absent or empty, already used, or a fault (a file in its place, no permission). */
async function folderState(dir: string): Promise<'empty' | 'used' | { reason: string; fix: string }> {
  try {
    return (await readdir(dir)).length ? 'used' : 'empty';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'empty';
    const fault = fsFault(err);
    if (!fault) throw err;
    return fault;
  }
}

/** Make the calibration set; returns the exit code (0 the set and its key written; 1 a submission ungraded or off the rehearsal's expectation, no key written; 2 as `packet grade`, or a folder that cannot be used). */
export async function calibrateRun(flags: CalibrateFlags, host: RunHost, reporter: GradeReporter, outcome: CalibrationOutcome = { dir: '' }): Promise<number> {
  const { id } = flags;
  const dir = path.resolve(host.cwd, flags.out, id);
  outcome.dir = dir;
  const shown = path.relative(host.cwd, dir) || '.';
  const loaded = await loadPackets({ packetsDir: flags.packets, cwd: host.cwd, ids: [id] });
  const packet = loaded.packets.find((p) => p.id === id);
  const source = loaded.sources.find((s) => s.id === id);
  if (packet && packet.kind !== 'takehome') {
    reporter.onDiagnostic?.(diagnose(GradeErrors.PacketNotTakehome, { file: `${flags.packets}/${id}` }, { id, kind: packet.kind }));
    return 2;
  }
  // A missing or unclean packet is said as `packet grade` says it.
  if (!packet || !source) return gradeRun({ ...flags, submissions: [] }, host, reporter);
  const state = await folderState(dir);
  if (state === 'used') {
    reporter.onDiagnostic?.(diagnose(GradeErrors.CalibrationOutNotEmpty, { file: shown }, { folder: `${shown}/` }));
    return 2;
  }
  if (state !== 'empty') {
    reporter.onDiagnostic?.(diagnose(GradeErrors.CalibrationUnwritable, { file: shown }, { folder: `${shown}/`, reason: state.reason, fix: state.fix }));
    return 2;
  }
  const made = await calibrationSubmissions(packet, path.resolve(host.cwd, flags.packets, source.folder), flags.seed ?? packet.digest);
  if (made.diagnostics.length) {
    reporter.onPacketDiagnostics?.(made.diagnostics);
    return 2;
  }
  const subsDir = path.join(dir, 'reviewer', 'submissions');
  try {
    await mkdir(subsDir, { recursive: true });
    for (const s of made.submissions) await writeFile(path.join(subsDir, `${s.name}.zip`), s.bytes);
  } catch (err) {
    const fault = fsFault(err);
    if (!fault) throw err;
    reporter.onDiagnostic?.(diagnose(GradeErrors.CalibrationUnwritable, { file: shown }, { folder: `${shown}/`, reason: fault.reason, fix: fault.fix }));
    return 2;
  }
  const cards = new Map<string, Scorecard>();
  const code = await gradeRun(
    { ...flags, submissions: made.submissions.map((s) => path.join(subsDir, `${s.name}.zip`)), out: path.join(dir, 'reviewer', 'grades') },
    host,
    {
      ...reporter,
      onCard: (card, done, total) => {
        cards.set(card.submission.name, card);
        reporter.onCard?.(card, done, total);
      },
    },
  );
  if (code === 2) return 2;
  let off = false;
  for (const s of made.submissions) {
    const card = cards.get(s.name);
    if (!card || !card.graded || card.verdict === 'INCONCLUSIVE') {
      reporter.onDiagnostic?.(diagnose(GradeErrors.CalibrationUngraded, { file: path.join(shown, 'reviewer', 'submissions', `${s.name}.zip`) }, { name: s.name, source: s.source, verdict: card?.verdict ?? 'not graded' }));
      off = true;
    }
  }
  if (off) return 1;
  const key = calibrationKey(packet, made.submissions, cards);
  for (const s of key.submissions) {
    if (s.expected.decision === decisionFor(s.source)) continue;
    reporter.onDiagnostic?.(diagnose(GradeErrors.CalibrationOffRehearsal, { file: `${flags.packets}/${id}` }, { name: s.name, source: s.source, decision: s.expected.decision, expected: decisionFor(s.source), reason: s.expected.reason }));
    off = true;
  }
  if (off) return 1;
  try {
    await writeFileWhole(path.join(dir, 'lead', 'calibration-key.json'), forJson(key));
    await writeFileWhole(path.join(dir, 'README.md'), calibrationReadme(key, `grades/${id}`));
  } catch (err) {
    const fault = fsFault(err);
    if (!fault) throw err;
    reporter.onDiagnostic?.(diagnose(GradeErrors.CalibrationUnwritable, { file: shown }, { folder: `${shown}/`, reason: fault.reason, fix: fault.fix }));
    return 2;
  }
  outcome.key = key;
  return 0;
}
