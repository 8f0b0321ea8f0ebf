/**
 * The answer sheets of a lab with variants: which variant a sheet is (its `digest` decides; its
 * `variant`, when the page wrote it, must name the same one), that variant's rendered lab and
 * files for the judge, and the leak check applied to a sheet: the same answers composed over
 * another variant's starter and judged with its tests, hidden ones included. Take-home
 * submissions are read by variant-read.ts; the bench of rendered variants is grade-variants.ts's.
 */
import { GradeErrors } from '../errors/grade-catalog.ts';
import { shownName } from '../errors/safe-name.ts';
import { finding, type Finding } from '../judge/findings.ts';
import type { Judgement } from '../judge/judge.ts';
import type { PacketFiles } from '../judge/workspace.ts';
import { composeLab, type LabState } from '../packets/lab-compose.ts';
import type { Lab } from '../packets/packet.ts';
import { VARIANTS_MAX } from '../packets/schema/prompt-variants.ts';
import { variantNumber, type VariantValues } from '../packets/variants.ts';
import type { VariantBench } from './grade-variants.ts';
import type { SheetVariantStated } from './sheet-intake.ts';
import { leakCheckOver, type LeakOutcome, type LeakRunOptions } from './leak-check.ts';
import { digestOwner, type KnownVariant } from './variant-read.ts';

/** Which variant a sheet is, or the finding that keeps it from being graded against any. */
export type SheetVariantReading = { variant: KnownVariant } | { refusal: Finding };

/**
 * Read a sheet's variant from what it states: the variant whose digest its `digest` is, among
 * those sent out (1..count); a `variant` must name that same one (PK582), be one sent out
 * (PK581). A digest that is no variant's is PK583, or, when the sheet names another version of
 * the lab, PK562 as for a lab without variants. `file` is the sheet's name as shown.
 */
export async function readSheetVariant(stated: SheetVariantStated, bench: VariantBench, packet: Lab, file: string): Promise<SheetVariantReading> {
  const place = { file };
  const range = `v1..v${bench.count}`;
  const refuse = (f: Finding): SheetVariantReading => ({ refusal: f });
  // The sheet's text, shown with its controls escaped.
  const digestShown = stated.digest === null ? null : shownName(stated.digest.slice(0, 12));
  const owner = stated.digest ? await digestOwner(stated.digest, bench) : undefined;
  const version = packet.prompt.data.version;
  const otherVersion = () =>
    refuse(
      finding(
        'intake',
        GradeErrors.AnswerSheetOtherVersion,
        {
          file,
          stated: `${stated.version !== null ? `version ${shownName(stated.version.slice(0, 40))}` : 'no version'}, ${digestShown ? `digest ${digestShown}…` : 'no digest'}`,
          current: `version ${version}, whose variants ${range} each have a digest of their own`,
        },
        place,
      ),
    );
  if (stated.variant !== null) {
    const k = variantNumber(stated.variant);
    const own = k !== undefined && k <= Math.min(bench.count, VARIANTS_MAX) ? await bench.byNumber(k) : undefined;
    if (!own) return refuse(finding('intake', GradeErrors.VariantUnknown, { stated: shownName(stated.variant), id: packet.id, range, sheet: file }, place));
    if (stated.digest === own.digest) return { variant: own };
    if (owner) return refuse(finding('intake', GradeErrors.VariantDigestOther, { stated: own.id, owner: owner.id, digest: digestShown!, sheet: file }, place));
    if (stated.version !== version) return otherVersion();
    return refuse(finding('intake', GradeErrors.VariantDigestUnknown, { stated: own.id, digest: digestShown, range, sheet: file }, place));
  }
  if (owner) return { variant: owner };
  if (stated.version !== version) return otherVersion();
  return refuse(finding('intake', GradeErrors.VariantDigestUnknown, { stated: null, digest: digestShown, range, sheet: file }, place));
}

/** A variant of a lab as a sheet is graded against: its rendered lab (suggestions, key, rubric) and the judge's files (its starter and hidden tests). */
export interface LabVariant {
  number: number;
  id: string;
  digest: string;
  values: VariantValues;
  lab: Lab & { lab: NonNullable<Lab['lab']> };
  files: PacketFiles;
}

/** Variant k of a lab, rendered, or undefined when its files do not make a lab whose suggestions resolve. */
export async function labVariant(bench: VariantBench, k: number): Promise<LabVariant | undefined> {
  const v = await bench.variant(k);
  if (!v || v.packet.kind !== 'lab' || !v.packet.lab) return undefined;
  const files = await bench.files(k).catch(() => undefined);
  if (!files) return undefined;
  return { number: v.number, id: v.id, digest: v.digest, values: v.values, lab: v.packet as LabVariant['lab'], files };
}

/** What a sheet's leak check needs of the batch: the sandbox's runner and the judge's clock and randomness. */
export type SheetLeakOptions = LeakRunOptions;

/**
 * The leak check applied to a sheet: when its own variant's tests are not all green (and the run
 * could be trusted), its answers (the same choices and hand edits) are composed over up to
 * LEAK_CHECK_MAX other variants' starters, those whose values its hand edits carry first
 * (`leakCandidates`), and judged with each one's tests, hidden ones included; the first all
 * green is named (PK584). Answers green on their own variant are not checked: right answers may
 * be right for every variant.
 */
export async function sheetLeakCheck(
  o: SheetLeakOptions,
  bench: VariantBench,
  own: { number: number; values: VariantValues; suggestions: readonly string[] },
  answers: { states: readonly LabState[]; texts: ReadonlyMap<number, string> },
  mine: Judgement,
): Promise<LeakOutcome> {
  return leakCheckOver(o, bench, own, [...answers.texts.values()], mine, async (k) => {
    const v = await labVariant(bench, k);
    // The same answers fit another variant only when it has the same suggestions, in the same order.
    if (!v || v.lab.lab.suggestions.map((s) => s.id).join('\n') !== own.suggestions.join('\n')) return undefined;
    return { id: v.id, files: v.files, submission: { files: composeLab(v.lab.lab, answers.states, answers.texts), deleted: [] } };
  });
}
