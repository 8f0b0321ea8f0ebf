/**
 * `packet grade` for a lab's or a drill's answer sheets: each sheet read safely and strictly
 * (sheet-intake.ts), then scored against the packet's own key. A lab's chosen combination is
 * composed (hand edits as the regions' texts), laid over the starter as the submission and run
 * through the one judge, visible and held-out tests with the trusted harness in the sandbox: a
 * hand edit is the candidate's code and runs nowhere else. A drill runs no code: its verdicts
 * meet the key. Each sheet gets the usual scorecard, with its answers beside the key
 * (`answers`), and the batch the usual summary. A refused sheet is a card with its finding.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { GradeErrors } from '../errors/grade-catalog.ts';
import { shownName } from '../errors/safe-name.ts';
import { bearsOn } from '../judge/auto-rows.ts';
import { capLine, capList, CANDIDATE_TEXT_LIMITS } from '../judge/candidate-text.ts';
import { finding, type Finding } from '../judge/findings.ts';
import { canaryRunnerIds, verdictOf, type Judgement } from '../judge/judge.ts';
import { judgeRun, type JudgedRun } from '../judge/judge-run.ts';
import type { TestRunner } from '../judge/run-tests.ts';
import { DRILL_SHEET_SUBMISSION, LAB_SHEET_SUBMISSION, type SheetAnswers } from '../judge/scorecard-format.ts';
import { decisionSoFar, SCORECARD_KIND, SCORECARD_SCHEMA_VERSION, type CardRow, type CardVariant, type Scorecard } from '../judge/scorecard.ts';
import { canonicalTestId } from '../judge/test-ids.ts';
import type { PacketFiles } from '../judge/workspace.ts';
import { scoreSheet, typedVersion, type SheetScoring } from '../labs/score.ts';
import type { DrillAnswerSheet, LabAnswerSheet, TimelineEntry } from '../labs/sheet-read.ts';
import { composeLab, LAB_STATES, variantOf, type LabState } from '../packets/lab-compose.ts';
import type { Drill, Lab } from '../packets/packet.ts';
import { gradeBatch, sharedNames, submissionNames, withVariant, type GradeBatch, type GradeReporter } from './grade.ts';
import { variantBench, type VariantBench } from './grade-variants.ts';
import { readDrillSheetStrict, readLabSheetStrict, readLabSheetVariant, readSheetBytes, SHEET_LIMITS, type SheetVariantStated } from './sheet-intake.ts';
import { rosterCheck, rosterRow, rosterSummary, sharedNameRefusal, type Roster, type StatedVariant } from './roster.ts';
import { labVariant, readSheetVariant, sheetLeakCheck, type LabVariant } from './sheet-variants.ts';
import { digestOwner, variantOnCard } from './variant-read.ts';

/** What grading a batch of answer sheets needs. */
export interface SheetGradeOptions {
  /** The lab (with its files read, `files`) or the drill. */
  packet: Lab | Drill;
  /** A lab's starter and hidden tests, read once; absent for a drill. */
  files?: PacketFiles;
  /** The sheets and folders of sheets, absolute. */
  submissions: readonly string[];
  outDir: string;
  /** A lab's: the sandbox's runner. */
  runner?: TestRunner;
  sandboxKind: string | null;
  scratchDir?: string;
  jobs: number;
  kitVersion: string;
  /** Bytes of one sheet (default {@link SHEET_LIMITS}.bytes). */
  maxBytes?: number;
  date: () => Date;
  now: () => number;
  random: () => number;
  reporter?: GradeReporter;
  /** A lab with variants: how many were sent out (`packet grade --variants`); default its `variants.count`. */
  variants?: number;
  /**
   * A lab with variants: the roster of which variant was sent to whom (`--roster`). Each sheet
   * is graded against the variant its row names, never the one its digest is (PK585 when that is
   * another); a sheet the roster does not name is not graded (PK586). Read by `loadRoster`.
   */
  roster?: Roster;
}

/** A batch's lab variants: rendered on demand, each once (set by {@link gradeSheets} for a lab with variants); with a roster, the names (lower case) more than one sheet of the batch has. */
type SheetBatchOptions = SheetGradeOptions & { bench?: VariantBench; shared?: ReadonlySet<string> };

/** The card's `submission` of a sheet. */
function submissionOf(name: string, source: string, kind: string, sha256: string | null, stated: { version: string | null; digest: string | null }): Scorecard['submission'] {
  return { name, source, kind, sha256, stripped: null, dropped: [], stated };
}

/**
 * The sheets a list of paths names: a file as it is; a folder's `.json` files (its own, sorted,
 * not its subfolders'). A folder with none stays, to be refused by name.
 */
export async function expandSheets(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const st = await stat(p).catch(() => null);
    if (!st?.isDirectory()) {
      out.push(p);
      continue;
    }
    const entries = await readdir(p, { withFileTypes: true });
    const sheets = entries.filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.json')).map((e) => path.join(p, e.name)).sort();
    out.push(...(sheets.length ? sheets : [p]));
  }
  return out;
}

/** The outcome words of the kit's harness, as the lab's test table writes them. */
const OUTCOME: Record<string, string> = { passed: 'pass', failed: 'fail', error: 'error', skipped: 'skip', 'expected-failure': 'xfail', 'unexpected-success': 'xpass' };

/** Every expected test of a judged run, visible and held out, with its outcome from the harness's sealed record. */
export function finalTests(run: JudgedRun): SheetAnswers['tests'] {
  const { evidence, judgement } = run;
  const files = evidence.testFiles;
  const canaries = canaryRunnerIds(evidence);
  const recorded = new Map<string, { outcome: string; message: string; tampered: boolean }>();
  for (const t of evidence.record?.tests ?? []) {
    if (canaries.has(t.id)) continue;
    const id = canonicalTestId(t.id, files);
    if (id) recorded.set(id, { outcome: OUTCOME[t.outcome] ?? t.outcome, message: t.message, tampered: t.tampered });
  }
  const failing = new Set([...judgement.failing.visible, ...judgement.failing.hidden]);
  return evidence.expected.map((e) => {
    const r = recorded.get(e.id);
    const outcome = r ? r.outcome : evidence.record ? (failing.has(e.id) ? 'fail' : 'missing') : failing.has(e.id) ? 'fail' : judgement.testsGreen ? 'pass' : 'unknown';
    const message = r ? (r.tampered ? `the test machinery was found changed after this test${r.message ? `; ${r.message}` : ''}` : r.message) : '';
    return { id: e.id, hidden: e.hidden, outcome, ...(message ? { message: capLine(message, CANDIDATE_TEXT_LIMITS.line) } : {}) };
  });
}

/** The evidence sentence of an automatic row. */
function rowEvidence(auto: string, score: number | undefined, scoring: SheetScoring, j: Judgement | null, findings: readonly Finding[], ids: readonly string[], word: string): string {
  if (auto === 'choices') {
    const said = `${scoring.evidence.matches} of ${scoring.evidence.total} ${word}s match the key`;
    const hands = scoring.handEdited.map((i) => ids[i]).join(', ');
    if (score === undefined) return `${said}; edited by hand: ${hands}, whether the change is right is yours to judge`;
    return hands ? `${said}; edited by hand: ${hands}, and even with every hand edit judged right the row scores at most ${score}, which a veto catches` : said;
  }
  if (!j) return 'no code ran';
  if (score === undefined) return `not known: ${j.description}`;
  const against = findings.find((f) => f.severity === 'error' && bearsOn(auto, f));
  return score > 0 ? `green: ${j.description}` : against ? `${against.code} ${capLine(against.message, CANDIDATE_TEXT_LIMITS.sentence)}` : `red: ${j.description}`;
}

/** The card's rows from a sheet's scoring: automatic rows scored (or left open), the others the reviewer's. */
export function sheetRows(rubric: Lab['rubric']['data'], scoring: SheetScoring, j: Judgement | null, findings: readonly Finding[], ids: readonly string[], word: string): CardRow[] {
  return rubric.rows.map((row) => {
    const bearing = row.auto ? findings.flatMap((f, i) => (bearsOn(row.auto!, f) ? [i] : [])) : [];
    if (!row.auto) return { id: row.id, criterion: row.criterion, max: row.max, auto: null, score: null, evidence: null, cap: null, findings: bearing };
    const score = scoring.scores[row.id];
    return { id: row.id, criterion: row.criterion, max: row.max, auto: row.auto, score: score ?? null, evidence: rowEvidence(row.auto, score, scoring, j, findings, ids, word), cap: null, findings: bearing };
  });
}

interface CardParts {
  o: SheetGradeOptions;
  submission: Scorecard['submission'];
  findings: Finding[];
  verdict: Scorecard['verdict'];
  judgement: Judgement | null;
  expected?: { visible: number; hidden: number };
  rows: CardRow[];
  answers: SheetAnswers;
  sandbox: string | null;
}

function card(p: CardParts): Scorecard {
  const { packet } = p.o;
  const j = p.judgement;
  const graded = p.verdict !== 'INCONCLUSIVE';
  return {
    schemaVersion: SCORECARD_SCHEMA_VERSION,
    kind: SCORECARD_KIND,
    kit: { version: p.o.kitVersion },
    packet: { id: packet.id, version: packet.prompt.data.version, digest: packet.digest },
    submission: p.submission,
    date: p.o.date().toISOString(),
    sandbox: p.sandbox,
    graded: true,
    verdict: p.verdict,
    tests: j && p.expected ? { ...j.tests, failing: capList(j.tests.failing), failingVisible: capList(j.failing.visible), failingHidden: capList(j.failing.hidden), expected: p.expected, description: capLine(j.description, CANDIDATE_TEXT_LIMITS.sentence) } : null,
    findings: p.findings,
    rows: p.rows,
    // A drill has no grader's verdict to name: its NOT-RUN is no finding against the answers.
    decision: decisionSoFar(packet, p.rows, graded, p.verdict === 'NOT-RUN' ? undefined : { verdict: p.verdict, findings: p.findings }),
    answers: p.answers,
  };
}

/** The card of a sheet that was not graded: its finding, no rows scored. */
function refusedCard(o: SheetGradeOptions, submission: Scorecard['submission'], refusal: Finding): Scorecard {
  const { packet } = o;
  const rows: CardRow[] = packet.rubric.data.rows.map((row) => ({ id: row.id, criterion: row.criterion, max: row.max, auto: row.auto ?? null, score: null, evidence: row.auto ? 'not graded' : null, cap: null, findings: [] }));
  return {
    schemaVersion: SCORECARD_SCHEMA_VERSION,
    kind: SCORECARD_KIND,
    kit: { version: o.kitVersion },
    packet: { id: packet.id, version: packet.prompt.data.version, digest: packet.digest },
    submission,
    date: o.date().toISOString(),
    sandbox: null,
    graded: false,
    verdict: 'REFUSED',
    tests: null,
    findings: [refusal],
    rows,
    decision: decisionSoFar(packet, rows, false),
  };
}

const timelineOf = (t: readonly TimelineEntry[] | undefined): SheetAnswers['timeline'] => (t ?? []).map((e) => ({ ...e }));

/** What the sheet says about its packet, for the card (cut: it is the candidate's file). */
const statedOf = (bytes: Buffer): { version: string | null; digest: string | null } => {
  try {
    const v = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    return { version: typeof v.version === 'string' ? capLine(v.version, 40) : null, digest: typeof v.digest === 'string' ? capLine(v.digest, 64) : null };
  } catch {
    return { version: null, digest: null };
  }
};

/** The variant a lab sheet is graded as: the bench it came from and the variant read from the sheet. */
interface GradedVariant {
  bench: VariantBench;
  own: LabVariant;
}

/**
 * Grade one lab sheet, read strictly, through the judge: against `packet` (the lab, or for a lab
 * with variants the sheet's variant rendered: its suggestions, key and rubric) and `files` (its
 * starter and hidden tests). A variant's card carries it, with the leak check's result.
 */
async function gradeLab(o: SheetGradeOptions, packet: Lab, files: PacketFiles, read: LabAnswerSheet, warnings: Finding[], submission: Scorecard['submission'], graded?: GradedVariant): Promise<Scorecard> {
  const model = packet.lab!;
  // A hand edit that types out a scripted version (line ends aside) is that choice: the page exports such a region as its choice, and it scores as one.
  const sheet: LabAnswerSheet = {
    ...read,
    suggestions: read.suggestions.map((a, i) => {
      if (a.hand === undefined) return a;
      const s = model.suggestions[i]!;
      const order = [s.key.choice, ...LAB_STATES.filter((st) => st !== s.key.choice)];
      const typed = typedVersion(a.hand, order.map((st) => [st, variantOf(s, st)] as const));
      if (typed === null) return a;
      const { hand: _typed, ...rest } = a;
      return { ...rest, choice: typed };
    }),
  };
  const states: LabState[] = sheet.suggestions.map((s) => s.choice ?? 'reject');
  const texts = new Map<number, string>();
  sheet.suggestions.forEach((s, i) => {
    if (s.hand === undefined) return;
    // The region keeps the whole lines the starter's has: a hand edit without its last newline does not run into the next line.
    const original = model.suggestions[i]!.original;
    texts.set(i, original.endsWith('\n') && !s.hand.endsWith('\n') ? `${s.hand}\n` : s.hand);
  });
  const composed = composeLab(model, states, texts);
  const judged = await judgeRun({ files, submission: { files: composed, deleted: [] }, withHidden: true, runner: o.runner!, scratchDir: o.scratchDir!, random: o.random, now: o.now });
  const ids = model.suggestions.map((s) => s.id);
  const items = (matches: readonly boolean[]): SheetAnswers['items'] =>
    model.suggestions.map((s, i) => {
      const a = sheet.suggestions[i]!;
      return {
        id: s.id,
        title: s.ask,
        answer: a.hand !== undefined ? 'hand edit' : a.choice,
        key: s.key.choice,
        matches: matches[i]!,
        reason: a.reason,
        keyReason: `${s.key.reason}${s.key.reviewOnly ? ` Only review catches it: ${s.key.reviewOnly.trim()}` : ''}`,
        ...(a.hand !== undefined ? { hand: a.hand, reference: variantOf(s, s.key.choice) } : {}),
      };
    });
  const answersBase = { kind: 'lab' as const, candidate: sheet.candidate ?? null, exported: capLine(sheet.date, SHEET_LIMITS.short), plan: { ...sheet.plan }, timeline: timelineOf(sheet.timeline) };
  const answersIn = sheet.suggestions.map((a) => ({ answer: a.choice, hand: a.hand !== undefined }));
  const onCard = (c: Scorecard, leakCheck: CardVariant['leakCheck']) => (graded ? withVariant(c, { ...variantOnCard(graded.own), leakCheck }) : c);
  if ('rejected' in judged) {
    const refusal = finding('intake', GradeErrors.SubmissionUnreadable, { reason: `the code the answers give cannot be laid out: ${judged.rejected}` });
    const c = refusedCard(o, submission, refusal);
    const refused = { ...c, findings: [refusal, ...warnings], answers: { ...answersBase, items: items(scoreSheet(packet.rubric.data, answersIn, ids.map((_, i) => model.suggestions[i]!.key.choice), null).matches), tests: [] } };
    return onCard(refused, { ran: false, reason: 'its code cannot be laid out', tried: [], passed: null });
  }
  const j = judged.judgement;
  // A lab with variants: answers red on their own variant and green on another's answer that one (PK584).
  const leak = graded ? await sheetLeakCheck({ runner: o.runner!, scratchDir: o.scratchDir!, random: o.random, now: o.now }, graded.bench, { ...graded.own, suggestions: ids }, { states, texts }, j) : undefined;
  const findings = [...j.findings, ...(leak?.finding ? [leak.finding] : []), ...warnings];
  const verdict = verdictOf(findings);
  // A run that could not judge (the sandbox failed) knows nothing of the tests: those rows stay open.
  const results = verdict === 'INCONCLUSIVE' ? null : { testsGreen: j.testsGreen, visibleGreen: j.visibleGreen, hiddenGreen: j.hiddenGreen };
  const scoring = scoreSheet(packet.rubric.data, answersIn, model.suggestions.map((s) => s.key.choice), results);
  const expected = { visible: files.expected.visible.length, hidden: files.expected.all.length - files.expected.visible.length };
  const c = card({
    o,
    submission,
    findings,
    verdict,
    judgement: j,
    expected,
    rows: sheetRows(packet.rubric.data, scoring, j, findings, ids, 'choice'),
    answers: { ...answersBase, items: items(scoring.matches), tests: finalTests(judged) },
    sandbox: o.sandboxKind,
  });
  return onCard(c, leak?.check ?? { ran: false, reason: 'no variant', tried: [], passed: null });
}

/**
 * Grade one sheet of a lab with variants: its variant read (the digest decides, `variant` must
 * agree), then read strictly against that variant's digest and suggestions, then graded against
 * that variant's key, starter and hidden tests.
 */
async function gradeLabVariant(o: SheetBatchOptions, bench: VariantBench, packet: Lab, bytes: Buffer, shownFile: string, submission: Scorecard['submission']): Promise<Scorecard> {
  const head = readLabSheetVariant(bytes, shownFile, packet);
  if (!head.ok) return refusedCard(o, submission, head.refusal);
  if (o.roster) return gradeLabSent(o, o.roster, bench, packet, head.sheet, bytes, shownFile, submission);
  const reading = await readSheetVariant(head.sheet, bench, packet, shownFile);
  if ('refusal' in reading) return refusedCard(o, submission, reading.refusal);
  const own = await labVariant(bench, reading.variant.number);
  if (!own) return refusedCard(o, submission, finding('intake', GradeErrors.LabVariantUnrendered, { file: shownFile, variant: reading.variant.id, id: packet.id }, { file: shownFile }));
  const target = { id: packet.id, version: packet.prompt.data.version, digest: own.digest, suggestions: own.lab.lab.suggestions.map((s) => s.id), variants: true };
  const strict = readLabSheetStrict(bytes, shownFile, target);
  if (!strict.ok) return refusedCard(o, submission, strict.refusal);
  return gradeLab(o, own.lab, own.files, strict.sheet, strict.warnings, submission, { bench, own });
}

/**
 * Grade one sheet of a lab with variants against the variant the roster sent its candidate: the
 * roster's row decides (PK586 when there is none), and what the sheet says of its own variant
 * (its digest, its `variant`) is only checked against it: another variant's is PK585, a veto.
 * A digest that is no variant's is refused as without a roster (PK583, or PK562 for another
 * version). The sheet is read strictly with the suggestions of the variant sent, and graded
 * with its key, starter and hidden tests; the leak check then tries the others' (PK584).
 */
async function gradeLabSent(o: SheetBatchOptions, roster: Roster, bench: VariantBench, packet: Lab, stated: SheetVariantStated, bytes: Buffer, shownFile: string, submission: Scorecard['submission']): Promise<Scorecard> {
  const { name, source } = submission;
  const sharedName = sharedNameRefusal(roster, source, name, o.shared);
  if (sharedName) return refusedCard(o, submission, sharedName);
  const row = rosterRow(roster, name);
  const sent = row ? await labVariant(bench, row.number) : undefined;
  const said: StatedVariant[] = [];
  let digest = sent?.digest;
  if (sent && stated.digest !== sent.digest) {
    const owner = stated.digest ? await digestOwner(stated.digest, bench) : undefined;
    // A digest that is no variant's names nothing to check: the sheet is refused as it would be without a roster.
    if (!owner) {
      const reading = await readSheetVariant(stated, bench, packet, shownFile);
      if ('refusal' in reading) return refusedCard(o, submission, reading.refusal);
    } else {
      said.push({ id: owner.id, by: "its sheet's digest is that of" });
      digest = owner.digest;
    }
  }
  if (stated.variant !== null) said.push({ id: stated.variant, by: "its sheet's variant field names" });
  const check = rosterCheck(roster, name, said);
  if ('refusal' in check) return refusedCard(o, submission, check.refusal);
  if (!sent) return refusedCard(o, submission, finding('intake', GradeErrors.LabVariantUnrendered, { file: shownFile, variant: check.sent.variant, id: packet.id }, { file: shownFile }));
  const notSent = check.finding ? [check.finding] : [];
  // Read against the digest the sheet has (a variant's, checked above) and the suggestions of the variant sent.
  const target = { id: packet.id, version: packet.prompt.data.version, digest: digest!, suggestions: sent.lab.lab.suggestions.map((s) => s.id), variants: true };
  const strict = readLabSheetStrict(bytes, shownFile, target);
  if (!strict.ok) {
    const refused = refusedCard(o, submission, strict.refusal);
    return notSent.length ? withVariant({ ...refused, findings: [...refused.findings, ...notSent] }, { ...variantOnCard(sent), leakCheck: { ran: false, reason: 'the sheet was not graded', tried: [], passed: null } }) : refused;
  }
  return gradeLab(o, sent.lab, sent.files, strict.sheet, [...notSent, ...strict.warnings], submission, { bench, own: sent });
}

/** Grade one drill sheet, read strictly: its verdicts against the key, no code run. */
function gradeDrill(o: SheetGradeOptions, packet: Drill, sheet: DrillAnswerSheet, warnings: Finding[], submission: Scorecard['submission']): Scorecard {
  const ids = packet.diffs.map((d) => d.id);
  const scoring = scoreSheet(packet.rubric.data, sheet.diffs.map((d) => ({ answer: d.verdict })), packet.diffs.map((d) => d.key.verdict), null);
  const items: SheetAnswers['items'] = packet.diffs.map((d, i) => {
    const a = sheet.diffs[i]!;
    return {
      id: d.id,
      title: d.title,
      answer: a.verdict,
      key: d.key.verdict,
      matches: scoring.matches[i]!,
      reason: a.reason,
      keyReason: `${d.key.consequence}${d.key.change ? ` The change to ask for: ${d.key.change}` : ''}`,
      ...(a.change !== undefined ? { change: a.change } : {}),
    };
  });
  return card({
    o,
    submission,
    findings: [...warnings],
    verdict: 'NOT-RUN',
    judgement: null,
    rows: sheetRows(packet.rubric.data, scoring, null, warnings, ids, 'verdict'),
    answers: { kind: 'drill', candidate: sheet.candidate ?? null, exported: capLine(sheet.date, SHEET_LIMITS.short), items, tests: [], timeline: timelineOf(sheet.timeline) },
    sandbox: null,
  });
}

/** Grade one sheet (never throws for a bad one: it is a card with its finding). */
export async function gradeSheet(o: SheetBatchOptions, source: string, name: string, firstCopy?: ReadonlyMap<string, string>): Promise<Scorecard> {
  const { packet } = o;
  const kind = packet.kind === 'lab' ? LAB_SHEET_SUBMISSION : DRILL_SHEET_SUBMISSION;
  const shownFile = shownName(path.basename(source));
  const none = { version: null, digest: null };
  const st = await stat(source).catch(() => null);
  if (st?.isDirectory() || !source.toLowerCase().endsWith('.json')) {
    return refusedCard(o, submissionOf(name, source, st?.isDirectory() ? 'folder' : 'unknown', null, none), finding('intake', GradeErrors.SheetExpected, { file: shownFile, id: packet.id, kind: packet.kind }, { file: shownFile }));
  }
  const read = await readSheetBytes(source, shownFile, o.maxBytes);
  if (!read.ok) return refusedCard(o, submissionOf(name, source, kind, read.sha256, none), read.refusal);
  const stated = statedOf(read.bytes);
  const submission = submissionOf(name, source, kind, read.sha256, stated);
  const first = firstCopy?.get(source);
  if (first !== undefined) return refusedCard(o, submission, finding('intake', GradeErrors.AnswerSheetRepeated, { file: shownFile, first: shownName(path.basename(first)), sha256: read.sha256 }, { file: shownFile }));
  const target = { id: packet.id, version: packet.prompt.data.version, digest: packet.digest };
  if (packet.kind === 'lab') {
    if (o.bench) return gradeLabVariant(o, o.bench, packet, read.bytes, shownFile, submission);
    const strict = readLabSheetStrict(read.bytes, shownFile, { ...target, suggestions: packet.lab!.suggestions.map((s) => s.id) });
    if (!strict.ok) return refusedCard(o, submission, strict.refusal);
    return gradeLab(o, packet, o.files!, strict.sheet, strict.warnings, submission);
  }
  const strict = readDrillSheetStrict(read.bytes, shownFile, { ...target, diffs: packet.diffs.map((d) => d.id) });
  if (!strict.ok) return refusedCard(o, submission, strict.refusal);
  return gradeDrill(o, packet, strict.sheet, strict.warnings, submission);
}

/** Grade a batch of answer sheets (files, and folders of .json files); write each card and the summary. */
export async function gradeSheets(o: SheetGradeOptions): Promise<GradeBatch> {
  const submissions = await expandSheets(o.submissions);
  const { packet } = o;
  // The same file twice (under two names, or two paths) is one candidate's answers: graded once, at its first place in the batch.
  const firstCopy = new Map<string, string>();
  const seen = new Map<string, string>();
  for (const source of submissions) {
    const read = await readSheetBytes(source, source, o.maxBytes).catch(() => null);
    if (!read?.ok) continue;
    const before = seen.get(read.sha256);
    if (before === undefined) seen.set(read.sha256, source);
    else firstCopy.set(source, before);
  }
  // A lab with variants: each sheet graded against its own variant, rendered once per batch.
  const bench = packet.kind === 'lab' && packet.prompt.data.variants ? variantBench(packet, o.files!.packetDir, o.scratchDir!, o.variants) : undefined;
  if (o.roster && !bench) throw new Error(`packet ${packet.id} is a ${packet.kind} without variants: a roster says which variant was sent, so it takes a lab with variants`);
  // With a roster, sheets are named as take-homes are: a name two sheets share before it is made unique is no row's.
  const shared = o.roster ? sharedNames(submissions) : undefined;
  return gradeBatch(
    {
      packet: { id: packet.id, version: packet.prompt.data.version, digest: packet.digest, ...(bench ? { variants: bench.count } : {}) },
      kind: packet.kind,
      submissions,
      outDir: o.outDir,
      jobs: o.jobs,
      date: o.date,
      ...(o.reporter ? { reporter: o.reporter } : {}),
      ...(o.roster ? { roster: rosterSummary(o.roster, submissionNames(submissions)) } : {}),
    },
    (source, name) => gradeSheet({ ...o, submissions, ...(bench ? { bench } : {}), ...(shared ? { shared } : {}) }, source, name, firstCopy),
  );
}
