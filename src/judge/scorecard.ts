/**
 * The scorecard of one submission: the rubric with its automatic rows scored from the judge's
 * evidence (the evidence quoted), each matched failure mode's cap applied, vetoes on automatic
 * rows pre-flagged, and the judgement rows left for the reviewer, with the decision so far. The
 * rehearsal's calibration scores the sample and each mutant through the same card, with every
 * judgement row at its best. Pure.
 */
import { autoEvidence, autoRowHolds, bearsOn, type AutoEvidence } from './auto-rows.ts';
import type { Finding } from './findings.ts';
import { verdictOf, type Judgement, type TestCounts, type Verdict } from './judge.ts';
import { failureModes, type CodePacket } from '../packets/packet.ts';
import { CANDIDATE_LABEL, CANDIDATE_TEXT_LIMITS, capLine, capList, markdownCandidate, markdownText, showControls } from './candidate-text.ts';
import { decide, type Decision } from './score.ts';
import { graderVeto, shortReason, verdictWords, vetoReason, type GraderWord } from './verdict-words.ts';

export type { GraderWord } from './verdict-words.ts';

import { SCORECARD_KIND, SCORECARD_SCHEMA_VERSION, type SheetAnswers } from './scorecard-format.ts';
import { forMarkdownCode } from '../errors/escape.ts';

export { SCORECARD_KIND, SCORECARD_SCHEMA_VERSION } from './scorecard-format.ts';

/** One rubric row on the card. */
export interface CardRow {
  id: string;
  criterion: string;
  max: number;
  /** The automatic check that scores it, or null for a judgement row. */
  auto: string | null;
  /** The score: set for automatic rows, null for the reviewer's. */
  score: number | null;
  /** Why an automatic row got its score, quoted from the evidence. */
  evidence: string | null;
  /** A matched failure mode's cap on this row (the reviewer may not score above it). */
  cap: { mode: string; max: number } | null;
  /**
   * Indexes into the card's `findings` that bear on this row: the evidence against its automatic
   * check, and the signal of every matched failure mode that caps it. A finding may bear on
   * several rows or none; those on none are the card's own. Absent on cards written before it.
   */
  findings: number[];
}

/** Where the decision stands before the reviewer scores the judgement rows. */
export interface DecisionSoFar {
  /** `hire` or `no-hire` when the judgement rows cannot change it; `pending` otherwise; `not-graded` when there is no evidence. */
  state: 'hire' | 'no-hire' | 'pending' | 'not-graded';
  reason: string;
  /** Points of the automatic rows. */
  autoPoints: number;
  /** The most and the least the card can reach once the reviewer scores the rest. */
  range: { min: number; max: number };
  hireBar: number;
  /** Vetoes already fired by automatic rows. */
  vetoes: Decision['vetoes'];
}

/**
 * Score the rows a machine can judge; the rest stay null (or, with `judgementAtBest`, at their
 * best allowed score). `findings` are the card's: each row lists the indexes of those that bear on it.
 */
export function cardRows(packet: CodePacket, evidence: AutoEvidence, quote: (auto: string, holds: boolean) => string, judgementAtBest = false, findings: readonly Finding[] = []): CardRow[] {
  return packet.rubric.data.rows.map((row) => {
    const capping = failureModes(packet).filter((m) => m.caps.row === row.id && evidence.matchedModes.includes(m.id));
    const tightest = capping.reduce<{ mode: string; max: number } | null>((c, m) => (c && c.max <= m.caps.max ? c : { mode: m.id, max: m.caps.max }), null);
    const ceiling = Math.min(row.max, tightest?.max ?? row.max);
    const modes = new Set(capping.map((m) => m.id));
    const bearing = findings.flatMap((f, i) => ((row.auto && bearsOn(row.auto, f)) || (f.kind === 'signal' && f.mode !== undefined && modes.has(f.mode)) ? [i] : []));
    if (!row.auto) return { id: row.id, criterion: row.criterion, max: row.max, auto: null, score: judgementAtBest ? ceiling : null, evidence: null, cap: tightest, findings: bearing };
    const holds = autoRowHolds(row.auto, evidence);
    return { id: row.id, criterion: row.criterion, max: row.max, auto: row.auto, score: holds ? ceiling : 0, evidence: quote(row.auto, holds), cap: tightest, findings: bearing };
  });
}

/**
 * The decision so far from a card's rows. A finding the grader counts as a veto (`graderVeto`,
 * src/judge/verdict-words.ts) makes it no-hire first, whatever the rows. Otherwise a no-hire says
 * what decides it: the veto (row, score, note), or the automatic rows that leave the card short
 * of the hire bar, each with the grader's verdict and its codes when the grader did not pass the
 * submission; a hire on automatic points alone names that verdict too.
 */
export function decisionSoFar(packet: Pick<CodePacket, 'rubric'>, rows: readonly CardRow[], graded: boolean, grader?: GraderWord): DecisionSoFar {
  return withGraderVeto(rubricDecision(packet, rows, graded, grader), grader);
}

/**
 * A decision with the grader's veto applied (the rule of `graderVeto`): no-hire, in the veto's
 * words, when a finding vetoes a hire; a card that was not graded stays not graded. Every
 * decision of a card goes through it, so scorecard.md, summary.json and summary.csv, the
 * terminal line of `packet grade` and the rubric page reach the same one.
 */
export function withGraderVeto(decision: DecisionSoFar, grader: GraderWord | undefined): DecisionSoFar {
  if (decision.state === 'not-graded') return decision;
  const vetoed = graderVeto(grader);
  return vetoed ? { ...decision, state: 'no-hire', reason: vetoed } : decision;
}

/** The decision so far by the rubric alone: its rows, its vetoes, its hire bar. */
function rubricDecision(packet: Pick<CodePacket, 'rubric'>, rows: readonly CardRow[], graded: boolean, grader?: GraderWord): DecisionSoFar {
  const rubric = packet.rubric.data;
  const autoPoints = rows.reduce((n, r) => n + (r.score ?? 0), 0);
  const open = rows.filter((r) => r.score === null);
  const best = autoPoints + open.reduce((n, r) => n + Math.min(r.max, r.cap?.max ?? r.max), 0);
  const scores = Object.fromEntries(rows.filter((r) => r.score !== null).map((r) => [r.id, r.score!]));
  const vetoes = rubric.vetoes.filter((v) => v.row in scores && scores[v.row]! <= v.atMost).map((v) => ({ row: v.row, score: scores[v.row]!, atMost: v.atMost, note: v.note }));
  const base = { autoPoints, range: { min: autoPoints, max: best }, hireBar: rubric.hireBar, vetoes };
  const caught = verdictWords(grader);
  if (!graded) return { ...base, state: 'not-graded', reason: 'the submission was not graded' };
  if (vetoes.length) return { ...base, state: 'no-hire', reason: vetoReason(vetoes, caught) };
  if (best < rubric.hireBar) return { ...base, state: 'no-hire', reason: shortReason(best, rubric.hireBar, caught) };
  if (open.length === 0) {
    const d = decide(rubric, scores);
    // Every row automatic: a hire the grader did not pass says so, as the hire on automatic points below does.
    return { ...base, state: d.decision, reason: `${d.reason}${caught ? `; ${d.decision === 'hire' ? 'yet ' : ''}${caught}` : ''}` };
  }
  if (autoPoints >= rubric.hireBar && !rubric.vetoes.some((v) => open.some((r) => r.id === v.row))) {
    // A hire the grader did not pass says so: the rubric hires, and the findings are still there to read.
    return { ...base, state: 'hire', reason: `${autoPoints} automatic points clear the hire bar of ${rubric.hireBar}, and no veto watches the reviewer's rows${caught ? `; yet ${caught}` : ''}` };
  }
  return { ...base, state: 'pending', reason: `${open.length} row${open.length === 1 ? '' : 's'} for the reviewer (${open.map((r) => r.id).join(', ')}); ${Math.max(0, rubric.hireBar - autoPoints)} more points reach the hire bar of ${rubric.hireBar}` };
}

/** How an automatic row's evidence reads on the card: the first finding that bears on it (see `bearsOn`). */
export function quoteEvidence(j: Pick<Judgement, 'description' | 'findings'>): (auto: string, holds: boolean) => string {
  const say = (f: Finding | undefined) => (f ? `${f.code} ${f.message}` : '');
  return (auto, holds) => {
    if (holds) {
      if (auto === 'tests' || auto === 'visible-tests' || auto === 'hidden-tests') return `green: ${j.description}`;
      if (auto === 'protected') return 'no protected file touched, none changed during the run';
      if (auto === 'workspace') return 'only allowed files changed (none protected), no forbidden pattern, no runner hook';
      return 'the receipts are there, add up, keep the caps and name the code handed in';
    }
    const testRow = auto === 'tests' || auto === 'visible-tests' || auto === 'hidden-tests';
    // Any other check reads as the receipts' (the only other one a take-home's card scores).
    const against = say(j.findings.find((f) => bearsOn(testRow || auto === 'protected' || auto === 'workspace' ? auto : 'receipts', f)));
    return against || (testRow ? `red: ${j.description}` : '');
  };
}

/**
 * The variant a submission was graded as (a packet with variants): read from its README's
 * `Variant:` line and proven by its `Digest:`; the reviewer's view of what the candidate got.
 */
export interface CardVariant {
  /** `v3`. */
  id: string;
  number: number;
  /** The values drawn for it, by parameter name (the packet's, not the candidate's). */
  values: Readonly<Record<string, string | number>>;
  /** The digest of the variant's rendered files (the card's `packet.digest` stays the packet's own). */
  digest: string;
  /**
   * The leak check: whether the submission was judged against other variants' tests (only when
   * its own are not all green), which, and the first whose tests it passes (PK584), or null.
   */
  leakCheck: { ran: boolean; reason: string; tried: string[]; passed: string | null };
}

/** The scorecard document. */
export interface Scorecard {
  schemaVersion: typeof SCORECARD_SCHEMA_VERSION;
  /** Always {@link SCORECARD_KIND}. */
  kind: typeof SCORECARD_KIND;
  /** The kit that graded it. */
  kit: { version: string };
  packet: { id: string; version: string; digest: string };
  submission: {
    /** The name the outputs use. */
    name: string;
    /** The path as given. */
    source: string;
    kind: string;
    /** sha256 of the archive (of the sorted files, for a folder); null when it could not be read. */
    sha256: string | null;
    /** The root folder that was stripped. */
    stripped: string | null;
    /** Paths set aside (caches, version control). */
    dropped: string[];
    /** The version and digest the submission's README names. */
    stated: { version: string | null; digest: string | null };
  };
  /** ISO time of grading. */
  date: string;
  /** How the code ran: `bubblewrap`, `unconfined`, or null when it did not run. */
  sandbox: string | null;
  /** False when the submission was refused at intake. */
  graded: boolean;
  /**
   * The judge's verdict on the code; REFUSED when the submission was refused at intake;
   * NOT-RUN for a drill's answer sheet, graded from its verdicts alone with no code to run (never a test PASS).
   */
  verdict: Verdict | 'REFUSED' | 'NOT-RUN';
  /**
   * The test run; null when nothing ran. The failing ids are the runner's words (code under test
   * can print such lines too): each cut at 200 characters, 50 to a list, then "… N more".
   */
  tests: (TestCounts & { failingVisible: string[]; failingHidden: string[]; expected: { visible: number; hidden: number }; description: string }) | null;
  /** Every finding; a message that quotes the submission (file names, test ids, lines) is cut at 2,000 characters, a file at 200. */
  findings: Finding[];
  rows: CardRow[];
  decision: DecisionSoFar;
  /** A card graded from a lab's or a drill's answer sheet: each answer beside the key, the plan, the final tests, the timeline. Absent on a take-home's card. */
  answers?: SheetAnswers;
  /** The variant graded, for a packet with variants (see {@link CardVariant}); absent for a packet without, or when no variant could be read (the card's finding says why). */
  variant?: CardVariant;
}

/**
 * The tests of a card in a few words, for the console and the summary: passed against the tests
 * the kit expected (read from the test files), never against the count the runner printed. When
 * the judge found the runner's report forged (a canary not reported failed, an exit code that
 * disagrees, two summaries), its numbers are not evidence and are not repeated.
 */
export function testsInWords(card: Pick<Scorecard, 'tests' | 'findings'>): string {
  const t = card.tests;
  if (!t || t.ran === null) return 'not run';
  const forged = [...new Set(card.findings.filter((f) => f.kind === 'tamper').map((f) => f.code))];
  if (forged.length) return `the runner's report is forged (${forged.join(' ')}): not counted`;
  const expected = t.expected.visible + t.expected.hidden;
  return `${Math.max(0, Math.min(t.ran, expected) - t.failed - t.errors)}/${expected} expected passed`;
}

/** What a card is made from. */
export interface CardInput {
  packet: CodePacket;
  kitVersion: string;
  submission: Scorecard['submission'];
  date: string;
  sandbox: string | null;
  /** The judgement, or null when the submission was refused. */
  judgement: Judgement | null;
  /** Expected tests, visible and hidden. */
  expected: { visible: number; hidden: number };
  /** Findings from outside the judge (intake, secrets, version). */
  extra: readonly Finding[];
}

/** A finding as a card keeps it: its message and place cut, since both may quote the submission. */
function cappedFinding(f: Finding): Finding {
  return { ...f, message: capLine(f.message, CANDIDATE_TEXT_LIMITS.sentence), hint: capLine(f.hint, CANDIDATE_TEXT_LIMITS.sentence), ...(f.file !== undefined ? { file: capLine(f.file) } : {}) };
}

/** A judgement as a card keeps it: every text its run or files gave it cut (see candidate-text.ts). */
function cappedJudgement(j: Judgement): Judgement {
  return {
    ...j,
    findings: j.findings.map(cappedFinding),
    tests: { ...j.tests, failing: capList(j.tests.failing) },
    failing: { visible: capList(j.failing.visible), hidden: capList(j.failing.hidden) },
    description: capLine(j.description, CANDIDATE_TEXT_LIMITS.sentence),
  };
}

/**
 * Build a scorecard. What the submission wrote (test ids its runner printed, file names, lines
 * quoted in findings, the version its README names) is cut to the limits of candidate-text.ts,
 * so no card carries a line of megabytes; the writers escape it for their medium.
 */
export function buildScorecard(input: CardInput): Scorecard {
  const i: CardInput = {
    ...input,
    judgement: input.judgement && cappedJudgement(input.judgement),
    extra: input.extra.map(cappedFinding),
    submission: { ...input.submission, dropped: capList(input.submission.dropped), stated: { version: input.submission.stated.version === null ? null : capLine(input.submission.stated.version), digest: input.submission.stated.digest } },
  };
  const j = i.judgement;
  const findings = [...(j?.findings ?? []), ...i.extra];
  // Stryker disable next-line ArrayDeclaration: equivalent; a made-up mode id caps no row.
  const none: AutoEvidence = { testsGreen: false, visibleGreen: false, hiddenGreen: false, protectedIntact: false, workspaceOk: false, receiptsOk: false, matchedModes: [] };
  // The findings from outside the judge count too: a secret fails the workspace row.
  const evidence = j ? autoEvidence({ ...j, findings }) : none;
  const rows = cardRows(i.packet, evidence, j ? quoteEvidence({ description: j.description, findings }) : () => 'not graded', false, findings);
  const verdict = j ? verdictOf(findings) : 'REFUSED';
  return {
    schemaVersion: SCORECARD_SCHEMA_VERSION,
    kind: SCORECARD_KIND,
    kit: { version: i.kitVersion },
    packet: { id: i.packet.id, version: i.packet.prompt.data.version, digest: i.packet.digest },
    submission: i.submission,
    date: i.date,
    sandbox: i.sandbox,
    graded: j !== null,
    verdict,
    tests: j ? { ...j.tests, failingVisible: j.failing.visible, failingHidden: j.failing.hidden, expected: i.expected, description: j.description } : null,
    findings,
    rows,
    decision: decisionSoFar(i.packet, rows, j !== null && j.verdict !== 'INCONCLUSIVE', { verdict, findings }),
  };
}

/** Calibration: the card of a judgement with every judgement row at its best allowed score. */
export function calibrationCard(packet: CodePacket, j: Pick<Judgement, 'testsGreen' | 'visibleGreen' | 'hiddenGreen' | 'findings' | 'signals' | 'description'>): { rows: CardRow[]; decision: Decision } {
  const rows = cardRows(packet, autoEvidence(j), quoteEvidence(j), true, j.findings);
  return { rows, decision: decide(packet.rubric.data, Object.fromEntries(rows.map((r) => [r.id, r.score ?? 0]))) };
}

/**
 * Where scoring goes on after the grader: the rubric page of the site, with a scorecard or the
 * batch's summary imported. One sentence, for the end of scorecard.md and of `packet grade`;
 * `code` marks a path or a command for the medium (backticks in Markdown, nothing on a terminal).
 */
export function nextStepWords(packetId: string, o: { card: string; summary: string; code?: (s: string) => string; kind?: 'lab' | 'drill' }): string {
  const code = o.code ?? ((x: string) => x);
  if (o.kind) {
    return `Score the reviewer's rows on the ${o.kind}'s scoring page: open ${code(`/${o.kind}s/${packetId}/score/`)} on the site (${code('npx packet preview')} serves it) and import ${o.summary} to score the batch's answer sheets one after another, or ${o.card} for a single sheet.`;
  }
  return `Score the reviewer's rows on the rubric page: open ${code(`/packets/${packetId}/rubric/`)} on the site (${code('npx packet preview')} serves it) and import ${o.summary} to score the batch's submissions one after another, or ${o.card} for a single submission.`;
}

/** The packet's own text on a line of the card (a table cell, the decision's reason): its Markdown kept, a newline, a `|` and any control character kept out. */
const cell = (s: string) => showControls(s.replace(/\r?\n/g, ' ')).replace(/\|/g, '\\|');

/**
 * scorecard.md: the card in a minute's reading. Everything the submission wrote is escaped (it
 * reads as text, never as the card's own bold, headings, rows or links) and what is only the
 * runner's or the submission's word is labelled as such.
 */
export function scorecardMarkdown(c: Scorecard): string {
  const out: string[] = [];
  const md = markdownCandidate;
  out.push(`# ${c.packet.id} ${c.packet.version}: ${markdownText(c.submission.name)}`, '');
  out.push(`**${c.verdict}**, decision so far: **${c.decision.state}** (${cell(c.decision.reason)}).`, '');
  out.push(`- Submission: ${md(c.submission.source, CANDIDATE_TEXT_LIMITS.sentence)} (${c.submission.kind}, sha256 \`${c.submission.sha256 ?? 'unknown'}\`)`);
  const ownDigest = c.variant?.digest ?? c.packet.digest;
  out.push(`- Packet digest: \`${c.packet.digest}\`${c.submission.stated.digest && c.submission.stated.digest !== ownDigest ? ` (the submission names \`${c.submission.stated.digest}\`)` : ''}`);
  if (c.variant) {
    const values = Object.entries(c.variant.values).map(([k, v]) => `${k} = ${md(String(v))}`).join(', ');
    const leak = c.variant.leakCheck;
    out.push(`- Variant: \`${c.variant.id}\` (digest \`${c.variant.digest}\`): ${values || 'no values'}`);
    out.push(`- Leak check: ${leak.ran ? `judged against ${leak.tried.length ? leak.tried.map((t) => `\`${t}\``).join(', ') : 'no other variant'}; ${leak.passed ? `passes \`${leak.passed}\`'s tests` : "passes none of their tests"}` : `not run (${leak.reason})`}`);
  }
  if (c.submission.stated.version !== null && c.submission.stated.version !== c.packet.version) out.push(`- The submission's README names version ${md(c.submission.stated.version)} (${CANDIDATE_LABEL})`);
  out.push(`- Graded ${c.date} by packet-kit ${c.kit.version}${c.sandbox ? ` in ${c.sandbox}` : ''}`);
  if (c.tests) out.push(`- Tests: ${markdownText(c.tests.description)}; expected ${c.tests.expected.visible} visible and ${c.tests.expected.hidden} held-out`);
  if (c.submission.dropped.length) out.push(`- Set aside (caches, version control): ${c.submission.dropped.map((p) => md(p)).join(', ')}`);
  out.push('', '| row | score | evidence | findings |', '|---|---|---|---|');
  const rowsOf = c.findings.map((_, i) => c.rows.filter((r) => (r.findings ?? []).includes(i)).map((r) => r.id));
  for (const r of c.rows) {
    const score = r.score === null ? `__ / ${r.cap ? `${r.cap.max} (capped by ${cell(r.cap.mode)})` : r.max}` : `${r.score} / ${r.max}`;
    const codes = [...new Set((r.findings ?? []).map((i) => c.findings[i]!.code))];
    out.push(`| ${cell(r.id)}${r.auto ? ` (auto: ${r.auto})` : ''} | ${score} | ${r.evidence === null ? cell(r.criterion) : markdownText(r.evidence)} | ${codes.join(' ') || '-'} |`);
  }
  out.push('');
  if (c.findings.length) {
    out.push('## Findings', '', 'The file names, test ids and lines these findings quote come from the submission and are not verified; they are shown escaped and cut. Each names the rows it bears on; one on no row bears on the card as a whole.', '');
    c.findings.forEach((f, i) => {
      const on = rowsOf[i]!.length ? ` (row${rowsOf[i]!.length === 1 ? '' : 's'} ${rowsOf[i]!.map(cell).join(', ')})` : ' (the card as a whole)';
      out.push(`- ${f.severity === 'warning' ? 'warning ' : ''}**${f.code}**${on} ${f.file ? `${md(`${capLine(f.file)}${f.line ? `:${f.line}` : ''}`, Infinity)} ` : ''}${markdownText(f.message)} _Hint: ${markdownText(f.hint)}_`);
    });
    out.push('');
  } else out.push('No findings.', '');
  if (c.tests?.failingVisible.length || c.tests?.failingHidden.length) {
    out.push('## Failing tests', '', `As the test runner printed them (${CANDIDATE_LABEL}: code under test can print these lines too):`, '');
    for (const t of c.tests.failingVisible) out.push(`> - visible: ${md(t)}`);
    for (const t of c.tests.failingHidden) out.push(`> - held-out: ${md(t)}`);
    out.push('');
  }
  if (c.answers) out.push(...answersMarkdown(c.answers));
  const tick = (x: string) => `\`${x}\``;
  out.push('## Next step', '', nextStepWords(c.packet.id, { card: `this card's ${tick('scorecard.json')} (beside this file)`, summary: `the batch's ${tick('summary.json')} (one folder up)`, code: tick, ...(c.answers ? { kind: c.answers.kind } : {}) }), '');
  return out.join('\n');
}

/** The most lines of a hand edit, and of a timeline, scorecard.md shows (the JSON keeps them all). */
const MARKDOWN_HAND_LINES = 80;
const MARKDOWN_TIMELINE_ENTRIES = 300;

/**
 * A sheet's answers in scorecard.md: each beside the key, hand edits beside the key's version,
 * the plan, the final tests and the timeline. Everything the candidate wrote goes through the
 * escapes (one line, nothing Markdown acts on, cut) and is labelled as the sheet's.
 */
export function answersMarkdown(a: SheetAnswers): string[] {
  const md = (s: string, max: number = CANDIDATE_TEXT_LIMITS.sentence) => markdownCandidate(s, max);
  const out: string[] = [];
  const word = a.kind === 'lab' ? 'choice' : 'verdict';
  out.push(`## Answers beside the key`, '', `The ${a.kind === 'lab' ? 'answers, reasons, hand edits, plan' : 'verdicts, reasons, changes'} and timeline are the candidate's (${CANDIDATE_LABEL}), shown escaped and cut; the key's column is reviewer material.${a.candidate !== null ? ` Candidate: ${md(a.candidate, CANDIDATE_TEXT_LIMITS.line)}.` : ''} Exported ${md(a.exported, CANDIDATE_TEXT_LIMITS.line)}.`, '');
  out.push(`| ${a.kind === 'lab' ? 'suggestion' : 'diff'} | ${word} | key | match | reason | the key's reason |`, '|---|---|---|---|---|---|');
  for (const i of a.items) {
    const answer = i.answer === null ? `no ${word}` : md(i.answer, CANDIDATE_TEXT_LIMITS.line);
    const change = i.change !== undefined ? `; change asked: ${md(i.change)}` : '';
    out.push(`| ${cell(i.id)}: ${cell(i.title)} | ${answer}${change} | ${cell(i.key)} | ${i.hand !== undefined ? 'yours to judge (hand edit)' : i.matches ? 'yes' : 'no'} | ${i.reason.trim() ? md(i.reason) : '(none)'} | ${cell(i.keyReason)} |`);
  }
  out.push('');
  const lines = (text: string) => {
    const all = text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
    const shown = all.slice(0, MARKDOWN_HAND_LINES).map((l) => `- ${forMarkdownCode(capLine(l, CANDIDATE_TEXT_LIMITS.line))}`);
    return all.length > MARKDOWN_HAND_LINES ? [...shown, `- … ${all.length - MARKDOWN_HAND_LINES} more lines (in scorecard.json)`] : shown;
  };
  for (const i of a.items) {
    if (i.hand === undefined) continue;
    out.push(`### Hand edit of ${cell(i.id)}`, '', `The candidate wrote (${CANDIDATE_LABEL}; it ran only in the sandbox, through the judge):`, '', ...lines(i.hand), '');
    if (i.reference !== undefined) out.push(`The key's version (${cell(i.key)}):`, '', ...lines(i.reference), '');
  }
  if (a.plan) {
    out.push('## Plan', '');
    for (const [label, text] of [['End state', a.plan.endState], ['Checkpoints', a.plan.checkpoints], ['The invariant', a.plan.invariant], ['By hand', a.plan.byHand]] as const) out.push(`- ${label}: ${text.trim() ? md(text) : '(empty)'}`);
    out.push('');
  }
  if (a.kind === 'lab') {
    out.push('## Final tests', '', a.tests.length ? "The tests of the code the answers give, from the judge's run in the sandbox (a test's message is what the code under test made it say):" : 'No test result: the final code did not run.', '');
    if (a.tests.length) {
      out.push('| test | held out | outcome | message |', '|---|---|---|---|');
      for (const t of a.tests) out.push(`| ${md(t.id, CANDIDATE_TEXT_LIMITS.line)} | ${t.hidden ? 'yes' : 'no'} | ${cell(t.outcome)} | ${t.message ? md(t.message, CANDIDATE_TEXT_LIMITS.line) : ''} |`);
      out.push('');
    }
  }
  out.push('## Timeline', '');
  if (!a.timeline.length) out.push('The sheet keeps no timeline.', '');
  else {
    out.push(`The round's steps as the page recorded them (${CANDIDATE_LABEL}: the candidate's own record proves nothing by itself):`, '');
    for (const e of a.timeline.slice(0, MARKDOWN_TIMELINE_ENTRIES)) out.push(`- ${md(e.at, CANDIDATE_TEXT_LIMITS.line)} ${md(e.action, CANDIDATE_TEXT_LIMITS.line)}${e.id !== undefined ? ` ${md(e.id, CANDIDATE_TEXT_LIMITS.line)}` : ''}${e.detail !== undefined ? `: ${md(e.detail, CANDIDATE_TEXT_LIMITS.line)}` : ''}`);
    if (a.timeline.length > MARKDOWN_TIMELINE_ENTRIES) out.push(`- … ${a.timeline.length - MARKDOWN_TIMELINE_ENTRIES} more steps (in scorecard.json)`);
    out.push('');
  }
  return out;
}
