/**
 * `packet grade` as a library call: for each submission, safe intake, the cheap findings before
 * any sandbox (deliverables, protected files, the contract, secrets, the version the submission
 * names, the receipts), then the one judge in the sandbox, then the scorecard (JSON and
 * Markdown) in its own folder, and a batch summary (CSV and JSON). A submission that cannot be
 * read is a scorecard with its finding; it never stops the batch. Nor does a scorecard that cannot
 * be written (a full disk, a folder gone or taken by a file): the others are written, the summary
 * marks it "not written" and the batch names it (PK541).
 */
import { rm, stat } from 'node:fs/promises';
import { shownName } from '../errors/safe-name.ts';
import path from 'node:path';
import pLimit from 'p-limit';
import { diagnose } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { fsFault } from '../errors/fs-fault.ts';
import { GradeErrors } from '../errors/grade-catalog.ts';
import { finding, type Finding } from '../judge/findings.ts';
import { judgeRun } from '../judge/judge-run.ts';
import { staticFindings } from '../judge/judge.ts';
import type { TestRunner } from '../judge/run-tests.ts';
import { planWorkspace, type PacketFiles } from '../judge/workspace.ts';
import { scanManyForSecrets } from '../lint/secrets.ts';
import { writeFileWhole } from '../runs/output-folder.ts';
import type { RunMessages } from '../runs/reporter.ts';
import { forJson } from '../errors/escape.ts';
import { csvCell } from '../judge/candidate-text.ts';
import { DEFAULT_INTAKE_LIMITS, readSubmission, type IntakeLimits } from './intake.ts';
import { buildScorecard, scorecardMarkdown, testsInWords, withGraderVeto, type Scorecard } from '../judge/scorecard.ts';
import { GRADE_SUMMARY_KIND } from '../judge/scorecard-format.ts';
import type { Judgement } from '../judge/judge.ts';
import type { Submission } from '../judge/workspace.ts';
import type { CardVariant } from '../judge/scorecard.ts';
import type { VariantValues } from '../packets/variants.ts';
import { digestOwner, readVariant, statedVariantId, variantOnCard } from './variant-read.ts';
import { variantBench, type VariantBench } from './grade-variants.ts';
import { leakCheckOver, type LeakOutcome } from './leak-check.ts';
import { nameAsGraded, rosterCheck, rosterRow, rosterSummary, sharedNameRefusal, type Roster, type RosterSummary, type StatedVariant } from './roster.ts';

export { GRADE_SUMMARY_KIND } from '../judge/scorecard-format.ts';

/** Version of `summary.json`. */
export const SUMMARY_SCHEMA_VERSION = 1;

/** Observes a batch, from its start to the summary written. Every hook is optional; grading never depends on one. */
export interface GradeReporter extends RunMessages {
  onRunStart?(total: number): void;
  /** The cheap findings of a submission, before the sandbox. */
  onCheap?(name: string, findings: readonly Finding[]): void;
  /** A submission's scorecard is written. */
  onCard?(card: Scorecard, done: number, total: number): void;
  /** The summary is written, in `outDir` (summary.json and summary.csv); `kind` when the batch is a lab's or a drill's answer sheets. */
  onRunEnd?(summary: GradeSummary, outDir: string, kind?: 'lab' | 'drill'): void;
}

/** What grading a batch needs. */
export interface GradeOptions {
  files: PacketFiles;
  /** Submission paths, absolute. */
  submissions: readonly string[];
  /** `out/grades/<id>`, absolute. */
  outDir: string;
  runner: TestRunner;
  /** How the code runs, for the cards (`bubblewrap`, `unconfined`). */
  sandboxKind: string;
  scratchDir: string;
  /** Submissions graded at once. */
  jobs: number;
  kitVersion: string;
  limits?: IntakeLimits;
  date: () => Date;
  now: () => number;
  random: () => number;
  reporter?: GradeReporter;
  /** For a packet with variants: how many were sent out (`--variants`); default the packet's `variants.count`. */
  variants?: number;
  /**
   * For a packet with variants: the roster of which variant was sent to whom (`--roster`). Each
   * submission is graded against its row's variant, whatever it states (PK585 when it states
   * another), and one the roster does not name is not graded (PK586). Read and checked by
   * `loadRoster`; a packet without variants takes none.
   */
  roster?: Roster;
}

/** One row of the batch summary. */
export interface SummaryRow {
  name: string;
  source: string;
  sha256: string | null;
  graded: boolean;
  verdict: string;
  /** e.g. "16/17 passed" or "not run". */
  tests: string;
  errors: number;
  warnings: number;
  codes: string[];
  autoPoints: number;
  maxPoints: number;
  decision: string;
  card: string;
  /** False when the scorecard could not be written (the disk full, its folder unwritable): `cardError` says why. */
  cardWritten: boolean;
  /** Why the scorecard is not there, when it is not. */
  cardError?: string;
  /** The variant graded (`v3`), for a packet with variants; null when none was (a refusal), absent for a packet without. */
  variant?: string | null;
  /** The very card written to `card` (its scorecard.json), so the rubric page imports the batch as a queue; null when it was not written. */
  scorecard: Scorecard | null;
}

/** The roster a batch was graded with, in its summary. */
export type SummaryRoster = RosterSummary;

/** The batch summary. */
export interface GradeSummary {
  schemaVersion: typeof SUMMARY_SCHEMA_VERSION;
  /** Always {@link GRADE_SUMMARY_KIND}, so the rubric page tells a summary from a scorecard. */
  kind: typeof GRADE_SUMMARY_KIND;
  /** `variants`: for a packet with variants, how many were sent out (the leak check's pool); absent otherwise. */
  packet: { id: string; version: string; digest: string; variants?: number };
  date: string;
  rows: SummaryRow[];
  /** The roster (`--roster`), when the batch was graded with one: its file and the rows no submission matched. Absent otherwise. */
  roster?: SummaryRoster;
}

/** A folder-safe, unique name for each submission: its file name without the archive extension. */
export function submissionNames(paths: readonly string[]): string[] {
  const bases = paths.map(nameAsGraded);
  // A suffixed name is never another submission's own name (alice, alice and alice-2 give alice, alice-3, alice-2).
  const own = new Set(bases.map((b) => b.toLowerCase()));
  const used = new Set<string>();
  return bases.map((base) => {
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()) || (name !== base && own.has(name.toLowerCase())); n++) name = `${base}-${n}`;
    used.add(name.toLowerCase());
    return name;
  });
}

/** The names (lower case) that more than one submission of a batch has before they are made unique: a roster cannot tell those submissions apart. */
export function sharedNames(paths: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const base of paths.map((p) => nameAsGraded(p).toLowerCase())) (seen.has(base) ? shared : seen).add(base);
  return shared;
}

/** The version and digest a submission's README.md names (the zip's README says `version` and `Digest:`). */
export function statedVersion(readme: string | undefined): { version: string | null; digest: string | null } {
  if (!readme) return { version: null, digest: null };
  const version = /\bversion `([^`]+)`/.exec(readme)?.[1] ?? null;
  const digest = /Digest: `([0-9a-f]{16,64})`/.exec(readme)?.[1] ?? null;
  return { version, digest };
}

/** summary.csv: one row per submission, every cell through `csvCell` so no name opens as a formula. */
export function summaryCsv(summary: GradeSummary): string {
  // A packet with variants gains a last column: the variant each submission was graded as.
  const withVariant = summary.packet.variants !== undefined;
  const head = ['name', 'sha256', 'graded', 'verdict', 'tests', 'errors', 'warnings', 'codes', 'auto_points', 'max_points', 'decision', 'scorecard', ...(withVariant ? ['variant'] : [])];
  const lines = summary.rows.map((r) => [r.name, r.sha256, r.graded, r.verdict, r.tests, r.errors, r.warnings, r.codes.join(' '), r.autoPoints, r.maxPoints, r.decision, r.cardWritten ? r.card : `not written: ${r.cardError ?? 'unknown'}`, ...(withVariant ? [r.variant ?? ''] : [])].map(csvCell).join(','));
  return `${head.join(',')}\n${lines.join('\n')}${lines.length ? '\n' : ''}`;
}

async function gradeOne(o: GradeOptions, source: string, name: string, bench?: VariantBench, shared?: ReadonlySet<string>): Promise<Scorecard> {
  const { packet } = o.files;
  const date = o.date().toISOString();
  const keep = new Set([...o.files.starter.keys()].filter((p) => p.includes('/')).map((p) => p.split('/')[0]!));
  const expected = { visible: o.files.expected.visible.length, hidden: o.files.expected.all.length - o.files.expected.visible.length };
  const base = { packet, kitVersion: o.kitVersion, date, expected };
  if (/\.json$/i.test(source) && (await stat(source).catch(() => null))?.isFile()) {
    // An answer sheet is a lab's or a drill's hand-in: a take-home is graded from its working folder.
    const file = shownName(path.basename(source));
    const refusal = finding('intake', GradeErrors.SheetForTakehome, { file, id: packet.id }, { file });
    return buildScorecard({ ...base, submission: { name, source, kind: 'unknown', sha256: null, stripped: null, dropped: [], stated: { version: null, digest: null } }, sandbox: null, judgement: null, extra: [refusal] });
  }
  const intake = await readSubmission(source, o.limits ?? DEFAULT_INTAKE_LIMITS, keep);
  if (!intake.ok) {
    return buildScorecard({
      ...base,
      submission: { name, source, kind: intake.kind, sha256: intake.sha256, stripped: null, dropped: [], stated: { version: null, digest: null } },
      sandbox: null,
      judgement: null,
      extra: [intake.refusal],
    });
  }
  const readme = intake.kitFiles.get('README.md')?.toString('utf8');
  const stated = statedVersion(readme);
  const extra: Finding[] = [];
  // A packet with variants: the submission's own variant's files, read from its README, or no grade at all.
  let files = o.files;
  let own: { number: number; values: VariantValues; digest: string } | undefined;
  if (bench && o.roster) {
    // The roster says which variant was sent; what the README says is only checked against it.
    const refuse = (refusal: Finding) => buildScorecard({ ...base, submission: { name, source, kind: intake.kind, sha256: intake.sha256, stripped: intake.stripped, dropped: intake.dropped, stated }, sandbox: null, judgement: null, extra: [refusal] });
    const sharedName = sharedNameRefusal(o.roster, source, name, shared);
    if (sharedName) return refuse(sharedName);
    const sent = rosterRow(o.roster, name);
    const sentVariant = sent ? await bench.byNumber(sent.number) : undefined;
    const said: StatedVariant[] = [];
    const statedId = statedVariantId(readme);
    if (statedId !== null) said.push({ id: statedId, by: "its README's Variant line names" });
    if (sentVariant && stated.digest && stated.digest !== sentVariant.digest) {
      const owner = await digestOwner(stated.digest, bench);
      if (owner) said.push({ id: owner.id, by: "its README's Digest line is the digest of" });
    }
    const check = rosterCheck(o.roster, name, said);
    if ('refusal' in check) return refuse(check.refusal);
    if (!sentVariant) throw new Error(`variant ${check.sent.variant} of ${packet.id} does not render, and the roster was checked`);
    if (check.finding) extra.push(check.finding);
    files = await bench.files(sentVariant.number);
    own = { number: sentVariant.number, values: bench.values(sentVariant.number), digest: sentVariant.digest };
  } else if (bench) {
    const reading = await readVariant({ variant: statedVariantId(readme), digest: stated.digest }, bench, packet.id);
    if ('refusal' in reading) {
      const sub = { name, source, kind: intake.kind, sha256: intake.sha256, stripped: intake.stripped, dropped: intake.dropped, stated };
      return buildScorecard({ ...base, submission: sub, sandbox: null, judgement: null, extra: [reading.refusal] });
    }
    files = await bench.files(reading.variant.number);
    own = { number: reading.variant.number, values: bench.values(reading.variant.number), digest: reading.variant.digest };
  }
  const digest = own?.digest ?? packet.digest;
  const current = `version ${packet.prompt.data.version} (digest ${digest.slice(0, 12)})`;
  if (!stated.version && !stated.digest) extra.push(finding('version', GradeErrors.VersionUnstated, {}, { file: 'README.md' }));
  else if (stated.version !== packet.prompt.data.version || (stated.digest && stated.digest !== digest)) {
    extra.push(finding('version', GradeErrors.VersionMismatch, { stated: `version ${stated.version ?? '?'}${stated.digest ? ` (digest ${stated.digest.slice(0, 12)})` : ''}`, current }, { file: 'README.md' }));
  }
  const texts = [...intake.files].filter(([, b]) => !b.includes(0));
  for (const s of await scanManyForSecrets(texts.map(([file, b]) => ({ text: b.toString('utf8'), file })))) {
    extra.push({ ...finding('secret', GradeErrors.SecretInSubmission, s.params, { file: s.place.file, ...(s.place.line ? { line: s.place.line } : {}) }) });
  }
  const submission = { files: intake.files, deleted: [] };
  // The cheap findings first, in milliseconds, before any sandbox.
  const plan = planWorkspace(files, submission, { withHidden: true, canaries: false, random: o.random });
  if (!('rejected' in plan)) o.reporter?.onCheap?.(name, [...staticFindings(files.rules, { starter: files.candidateStarter, before: plan.before, protectedEdits: plan.protectedEdits }).findings, ...extra]);
  const judged = await judgeRun({ files, submission, withHidden: true, runner: o.runner, scratchDir: o.scratchDir, random: o.random, now: o.now });
  const sub = { name, source, kind: intake.kind, sha256: intake.sha256, stripped: intake.stripped, dropped: intake.dropped, stated };
  if ('rejected' in judged) {
    return buildScorecard({ ...base, submission: sub, sandbox: null, judgement: null, extra: [finding('intake', GradeErrors.SubmissionUnreadable, { reason: `its files cannot be laid out: ${judged.rejected}` }), ...extra] });
  }
  if (!bench || !own) return buildScorecard({ ...base, submission: sub, sandbox: o.sandboxKind, judgement: judged.judgement, extra });
  const leak = await leakCheck(o, bench, own, submission, judged.judgement, texts.map(([, b]) => b.toString('utf8')));
  const card = buildScorecard({ ...base, submission: sub, sandbox: o.sandboxKind, judgement: judged.judgement, extra: leak.finding ? [...extra, leak.finding] : extra });
  return withVariant(card, { ...variantOnCard(own), leakCheck: leak.check });
}

/** A card with its variant, and the veto of a submission that answers another variant: never a hire, nor pending a reviewer's hire. */
export function withVariant(card: Scorecard, variant: CardVariant): Scorecard {
  return { ...card, decision: withGraderVeto(card.decision, card), variant };
}

/**
 * The leak check applied to a submission: when its own variant's tests are not all green (and
 * the run could be trusted), judge it against up to LEAK_CHECK_MAX other variants' tests, those
 * whose values its code carries first; the first that is all green is named. A submission green
 * on its own variant is not checked: a general solution passes every variant and is fine.
 */
async function leakCheck(o: GradeOptions, bench: VariantBench, own: { number: number; values: VariantValues }, submission: Submission, mine: Judgement, texts: readonly string[]): Promise<LeakOutcome> {
  return leakCheckOver(o, bench, own, texts, mine, async (k) => {
    const v = await bench.variant(k);
    return v ? { id: v.id, files: await bench.files(k), submission } : undefined;
  });
}

/** What a batch gave: the cards, the summary, and the faults of the files that could not be written (PK541, PK542). */
export interface GradeBatch {
  cards: Scorecard[];
  summary: GradeSummary;
  /** One PK541 per scorecard not written, and a PK542 when the summary is not; empty when everything was written. */
  unwritten: Diagnostic[];
}

/** Write a scorecard's two files, both or neither: why not in words (a file system fault), or undefined when written. */
async function writeCard(dir: string, card: Scorecard): Promise<{ reason: string; fix: string } | undefined> {
  try {
    await writeFileWhole(path.join(dir, 'scorecard.json'), forJson(card));
    await writeFileWhole(path.join(dir, 'scorecard.md'), scorecardMarkdown(card));
    return undefined;
  } catch (err) {
    const fault = fsFault(err);
    if (!fault) throw err;
    // A card of one file is not kept: its JSON without its Markdown would read as written.
    await rm(path.join(dir, 'scorecard.json'), { force: true }).catch(() => undefined);
    return fault;
  }
}

/** Grade every submission; write each scorecard and the summary, every one that can be. */
export async function gradeSubmissions(o: GradeOptions): Promise<GradeBatch> {
  const { packet } = o.files;
  const bench = packet.prompt.data.variants ? variantBench(packet, o.files.packetDir, o.scratchDir, o.variants) : undefined;
  if (o.roster && !bench) throw new Error(`packet ${packet.id} has no variants: a roster says which variant was sent, so it takes a packet with variants`);
  const shared = o.roster ? sharedNames(o.submissions) : undefined;
  const summaryRoster = o.roster && rosterSummary(o.roster, submissionNames(o.submissions));
  return gradeBatch({ ...o, packet: { id: packet.id, version: packet.prompt.data.version, digest: packet.digest, ...(bench ? { variants: bench.count } : {}) }, roster: summaryRoster }, (source, name) => gradeOne(o, source, name, bench, shared));
}

/** What a batch needs whatever it grades: the submissions, where the cards go, how many at once, the packet the summary names. */
export interface BatchOptions {
  packet: { id: string; version: string; digest: string; variants?: number };
  submissions: readonly string[];
  outDir: string;
  jobs: number;
  date: () => Date;
  reporter?: GradeReporter;
  /** A lab's or a drill's answer sheets (the next step is its scoring page); absent for a take-home. */
  kind?: 'lab' | 'drill';
  /** The roster the batch was graded with, for the summary. */
  roster?: SummaryRoster;
}

/** Grade a batch with `grade` (one card per submission, never throwing for a bad one); write each card and the summary, every one that can be. */
export async function gradeBatch(o: BatchOptions, grade: (source: string, name: string) => Promise<Scorecard>): Promise<GradeBatch> {
  const names = submissionNames(o.submissions);
  const limit = pLimit(Math.max(1, o.jobs));
  o.reporter?.onRunStart?.(o.submissions.length);
  let done = 0;
  const notWritten = new Map<Scorecard, string>();
  const unwritten: Diagnostic[] = [];
  const cards = await Promise.all(
    o.submissions.map((source, i) =>
      limit(async () => {
        const card = await grade(source, names[i]!);
        const dir = path.join(o.outDir, names[i]!);
        const fault = await writeCard(dir, card);
        if (fault) {
          notWritten.set(card, fault.reason);
          const d = diagnose(GradeErrors.ScorecardUnwritable, { file: dir }, { name: names[i]!, folder: dir, reason: fault.reason, fix: fault.fix });
          unwritten.push(d);
          o.reporter?.onDiagnostic?.(d);
        }
        o.reporter?.onCard?.(card, ++done, o.submissions.length);
        return card;
      }),
    ),
  );
  const summary: GradeSummary = {
    schemaVersion: SUMMARY_SCHEMA_VERSION,
    kind: GRADE_SUMMARY_KIND,
    packet: { ...o.packet },
    date: o.date().toISOString(),
    ...(o.roster ? { roster: o.roster } : {}),
    rows: cards.map((c) => ({
      name: c.submission.name,
      source: c.submission.source,
      sha256: c.submission.sha256,
      graded: c.graded,
      verdict: c.verdict,
      tests: testsInWords(c),
      errors: c.findings.filter((f) => f.severity === 'error').length,
      warnings: c.findings.filter((f) => f.severity === 'warning').length,
      codes: [...new Set(c.findings.map((f) => f.code))],
      autoPoints: c.decision.autoPoints,
      maxPoints: c.rows.reduce((n, r) => n + r.max, 0),
      decision: c.decision.state,
      card: `${c.submission.name}/scorecard.json`,
      ...(o.packet.variants !== undefined ? { variant: c.variant?.id ?? null } : {}),
      cardWritten: !notWritten.has(c),
      ...(notWritten.has(c) ? { cardError: notWritten.get(c)! } : {}),
      scorecard: notWritten.has(c) ? null : c,
    })),
  };
  try {
    await writeFileWhole(path.join(o.outDir, 'summary.json'), forJson(summary));
    await writeFileWhole(path.join(o.outDir, 'summary.csv'), summaryCsv(summary));
  } catch (err) {
    const fault = fsFault(err);
    if (!fault) throw err;
    // Both or neither: a summary.json without its CSV, or of another batch beside this CSV, would mislead.
    await rm(path.join(o.outDir, 'summary.json'), { force: true }).catch(() => undefined);
    const d = diagnose(GradeErrors.SummaryUnwritable, { file: o.outDir }, { folder: o.outDir, reason: fault.reason, fix: fault.fix });
    unwritten.push(d);
    o.reporter?.onDiagnostic?.(d);
    return { cards, summary, unwritten };
  }
  o.reporter?.onRunEnd?.(summary, o.outDir, o.kind);
  return { cards, summary, unwritten };
}
