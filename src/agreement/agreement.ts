import { combineScores, DEFAULT_COMBINE, type CombineRule } from '../judge/combine.ts';
import { decide } from '../judge/score.ts';
import type { RubricFrontmatter } from '../packets/schema/rubric.ts';
import { bootstrapInterval, type BootstrapInterval } from './bootstrap.ts';
import { intraclass } from './icc.ts';
import { quadraticKappa } from './kappa.ts';
import type { CalibrationKey } from './key.ts';
import { krippendorffAlpha } from './krippendorff.ts';
import type { ReviewSheet } from './sheet.ts';

/**
 * How far reviewers agree, from their sheets of the same submissions: per rubric row
 * Krippendorff's alpha (ordinal) and, for two reviewers, Cohen's kappa with quadratic weights;
 * ICC(2,1) of the totals; agreement on the decision; the combined decision of each submission by
 * the rubric's declared rule; with a calibration key, each reviewer against it. Pure.
 */

/** The format version of the agreement report (`--json`). */
export const AGREEMENT_SCHEMA_VERSION = 1;
/** Its kind. */
export const AGREEMENT_KIND = 'packet-kit/agreement';

/** Under these a row or the totals are named too vague. */
export const THRESHOLDS = { alpha: 0.6, kappa: 0.6, icc: 0.75 } as const;

/** The rubric the sheets were scored on. */
export type AgreementRubric = Pick<RubricFrontmatter, 'rows' | 'hireBar' | 'vetoes'> & { combine?: CombineRule };

/** How the intervals are drawn. */
export interface AgreementOptions {
  seed: number;
  resamples: number;
}

/** A submission the reviewers split on, with each reviewer's score or decision. */
export interface Split {
  submission: string;
  by: Record<string, number | string>;
}

/** One rubric row's agreement. */
export interface RowAgreement {
  id: string;
  max: number;
  auto: string | null;
  /** Krippendorff's alpha, ordinal; null without data enough or without any variation. */
  alpha: number | null;
  alphaInterval: BootstrapInterval | null;
  /** With exactly two reviewers: Cohen's kappa, quadratic weights. */
  kappa: number | null;
  kappaInterval: BootstrapInterval | null;
  /** Submissions scored by two reviewers or more on this row. */
  submissions: number;
  /** Why alpha has no value, when it has none. */
  note: string | null;
  vague: boolean;
  splits: Split[];
}

/** The whole report. */
export interface AgreementReport {
  kind: typeof AGREEMENT_KIND;
  schemaVersion: number;
  packet: { id: string; version: string; digest: string };
  rule: CombineRule;
  method: { rows: string; kappa: string; totals: string; decision: string; intervals: string; thresholds: typeof THRESHOLDS };
  reviewers: { name: string; sheets: number; blind: number; overrides: number }[];
  submissions: { id: string; label: string; sheets: number; combined: { decision: string; total: number; max: number; reason: string; sheets: number } | null; decisions: Record<string, string> }[];
  rows: RowAgreement[];
  totals: {
    icc: number | null;
    icc1: number | null;
    icc3: number | null;
    interval: { lower: number; upper: number; level: number } | null;
    submissions: number;
    reviewers: number;
    note: string | null;
    vague: boolean;
  };
  decision: { percent: number | null; percentInterval: BootstrapInterval | null; alpha: number | null; alphaInterval: BootstrapInterval | null; submissions: number; splits: Split[] };
  vague: { rows: string[]; totals: boolean };
  key: KeyComparison | null;
}

/** Each reviewer against a calibration key. */
export interface KeyComparison {
  submissions: number;
  reviewers: {
    name: string;
    scored: number;
    decisionsMatched: number;
    decisionMisses: { submission: string; expected: string; got: string }[];
    rowsOff: { submission: string; row: string; expected: number; got: number }[];
    missing: string[];
    offKey: boolean;
  }[];
}

type Unit = { id: string; label: string; sheets: ReviewSheet[] };

/** The report of these sheets (already checked: one packet version, one sheet per reviewer and submission). */
export function agreementReport(packet: { id: string; version: string; digest: string }, rubric: AgreementRubric, sheets: readonly ReviewSheet[], options: AgreementOptions, key: CalibrationKey | null = null): AgreementReport {
  const rule = rubric.combine ?? DEFAULT_COMBINE;
  const reviewerNames = [...new Set(sheets.map((s) => s.reviewer))].sort();
  const byId = new Map<string, Unit>();
  for (const s of sheets) {
    const u = byId.get(s.submission) ?? { id: s.submission, label: s.label, sheets: [] };
    u.sheets.push(s);
    byId.set(s.submission, u);
  }
  const units = [...byId.values()].sort((a, b) => a.label.localeCompare(b.label) || a.id.localeCompare(b.id));
  const keyName = new Map((key?.submissions ?? []).map((k) => [`sha256:${k.sha256}`, k.name]));
  for (const u of units) u.label = keyName.get(u.id) ?? u.label;
  const boot = <U>(items: readonly U[], stat: (sample: readonly U[]) => number | null, salt: number) => bootstrapInterval(items, stat, { seed: (options.seed + salt * 7919) >>> 0, resamples: options.resamples });

  const rows = rubric.rows.map((row, i): RowAgreement => {
    const rated = units.map((u) => ({ u, values: u.sheets.filter((s) => row.id in s.scores).map((s) => ({ reviewer: s.reviewer, score: s.scores[row.id]! })) })).filter((r) => r.values.length >= 2);
    const alphaOf = (sample: readonly (typeof rated)[number][]) => krippendorffAlpha(sample.map((r) => r.values.map((v) => v.score)), 'ordinal').alpha;
    // From one submission alpha and kappa are 0 whatever the scores (chance and observed disagreement are the same pairs): none then.
    const alpha = rated.length < 2 ? null : alphaOf(rated);
    const two = reviewerNames.length === 2;
    const pairs = rated.filter((r) => r.values.length === 2).map((r) => [r.values.find((v) => v.reviewer === reviewerNames[0])!.score, r.values.find((v) => v.reviewer === reviewerNames[1])!.score] as [number, number]);
    const kappa = two && pairs.length >= 2 ? quadraticKappa(pairs) : null;
    const splits = rated
      .filter((r) => new Set(r.values.map((v) => v.score)).size > 1)
      .map((r) => ({ spread: Math.max(...r.values.map((v) => v.score)) - Math.min(...r.values.map((v) => v.score)), split: { submission: r.u.label, by: Object.fromEntries(r.values.map((v) => [v.reviewer, v.score])) } }))
      .sort((a, b) => b.spread - a.spread || a.split.submission.localeCompare(b.split.submission))
      .map((s) => s.split);
    const note = alpha !== null ? null : rated.length < 1 ? 'no submission scored by two reviewers' : rated.length < 2 ? 'one submission scored by two reviewers: alpha needs two or more' : splits.length === 0 ? 'every reviewer gave the same score everywhere (no variation: alpha is undefined, agreement is complete)' : 'too few scores';
    const vague = (alpha !== null && alpha < THRESHOLDS.alpha) || (kappa !== null && kappa < THRESHOLDS.kappa) || (alpha === null && splits.length > 0);
    return {
      id: row.id,
      max: row.max,
      auto: row.auto ?? null,
      alpha,
      alphaInterval: alpha === null ? null : boot(rated, alphaOf, i + 1),
      kappa,
      kappaInterval: kappa === null ? null : boot(pairs, (s) => quadraticKappa(s), i + 101),
      submissions: rated.length,
      note,
      vague,
      splits,
    };
  });

  const decisionOf = (s: ReviewSheet) => decide(rubric, s.scores);
  // Totals: the submissions every reviewer scored on every row.
  const full = units.filter((u) => reviewerNames.every((r) => u.sheets.some((s) => s.reviewer === r && s.complete)));
  const table = full.map((u) => reviewerNames.map((r) => decisionOf(u.sheets.find((s) => s.reviewer === r)!).total));
  const icc = intraclass(table);
  const totalsNote = icc
    ? null
    : reviewerNames.length < 2
      ? 'one reviewer: no agreement between reviewers to measure'
      : full.length < 2
      ? `ICC needs two submissions or more scored on every row by all ${reviewerNames.length} reviewers (${full.length} are)`
      : 'the totals do not vary (every reviewer gave every submission the same total)';

  const decided = units.map((u) => ({ u, d: u.sheets.filter((s) => s.complete).map((s) => ({ reviewer: s.reviewer, decision: decisionOf(s).decision })) })).filter((x) => x.d.length >= 2);
  const percentOf = (sample: readonly (typeof decided)[number][]) => {
    let agree = 0;
    let pairs = 0;
    for (const x of sample) {
      const hires = x.d.filter((d) => d.decision === 'hire').length;
      const nos = x.d.length - hires;
      agree += (hires * (hires - 1) + nos * (nos - 1)) / 2;
      pairs += (x.d.length * (x.d.length - 1)) / 2;
    }
    return pairs ? agree / pairs : null;
  };
  const decisionAlpha = (sample: readonly (typeof decided)[number][]) => krippendorffAlpha(sample.map((x) => x.d.map((d) => (d.decision === 'hire' ? 1 : 0))), 'nominal').alpha;
  const percent = percentOf(decided);
  const dAlpha = decided.length < 2 ? null : decisionAlpha(decided);

  const submissions = units.map((u) => {
    const complete = u.sheets.filter((s) => s.complete);
    const c = complete.length ? combineScores(rubric, complete.map((s) => s.scores)) : null;
    return {
      id: u.id,
      label: u.label,
      sheets: u.sheets.length,
      combined: c && { decision: c.decision, total: c.total, max: c.max, reason: c.reason, sheets: c.sheets },
      decisions: Object.fromEntries(complete.map((s) => [s.reviewer, decisionOf(s).decision])),
    };
  });

  const vagueRows = rows.filter((r) => r.vague).map((r) => r.id);
  const totalsVague = icc !== null && icc.icc2 < THRESHOLDS.icc;
  return {
    kind: AGREEMENT_KIND,
    schemaVersion: AGREEMENT_SCHEMA_VERSION,
    packet,
    rule,
    method: {
      rows: "Krippendorff's alpha, ordinal metric, over every reviewer's score of each submission (missing scores allowed)",
      kappa: "with exactly two reviewers, also Cohen's weighted kappa with quadratic weights (a disagreement of d points weighs d squared)",
      totals: 'ICC(2,1) of the totals: two-way random effects, absolute agreement, single rater (Shrout & Fleiss 1979; McGraw & Wong 1996), on the submissions every reviewer scored on every row; its interval is the F-based one of McGraw & Wong',
      decision: "the share of reviewer pairs that reach the same decision on a submission, and Krippendorff's alpha, nominal, of the decisions",
      intervals: `95% percentile bootstrap over submissions, ${options.resamples} resamples, seed ${options.seed} (the same sheets give the same intervals)`,
      thresholds: THRESHOLDS,
    },
    reviewers: reviewerNames.map((name) => {
      const mine = sheets.filter((s) => s.reviewer === name);
      return { name, sheets: mine.length, blind: mine.filter((s) => s.blind).length, overrides: mine.reduce((n, s) => n + s.overrides, 0) };
    }),
    submissions,
    rows,
    totals: {
      icc: icc?.icc2 ?? null,
      icc1: icc?.icc1 ?? null,
      icc3: icc?.icc3 ?? null,
      interval: icc?.interval ?? null,
      submissions: full.length,
      reviewers: reviewerNames.length,
      note: totalsNote,
      vague: totalsVague,
    },
    decision: {
      percent,
      percentInterval: percent === null ? null : boot(decided, percentOf, 201),
      alpha: dAlpha,
      alphaInterval: dAlpha === null ? null : boot(decided, decisionAlpha, 202),
      submissions: decided.length,
      splits: decided.filter((x) => new Set(x.d.map((d) => d.decision)).size > 1).map((x) => ({ submission: x.u.label, by: Object.fromEntries(x.d.map((d) => [d.reviewer, d.decision])) })),
    },
    vague: { rows: vagueRows, totals: totalsVague },
    key: key ? compareWithKey(key, rubric, reviewerNames, sheets) : null,
  };
}

/** Each reviewer's sheets of the key's submissions against the key: decisions matched, rows off. */
function compareWithKey(key: CalibrationKey, rubric: AgreementRubric, reviewers: readonly string[], sheets: readonly ReviewSheet[]): KeyComparison {
  return {
    submissions: key.submissions.length,
    reviewers: reviewers.map((name) => {
      const mine = sheets.filter((s) => s.reviewer === name);
      const decisionMisses: KeyComparison['reviewers'][number]['decisionMisses'] = [];
      const rowsOff: KeyComparison['reviewers'][number]['rowsOff'] = [];
      const missing: string[] = [];
      let scored = 0;
      let matched = 0;
      for (const k of key.submissions) {
        const sheet = mine.find((s) => s.sha256 === k.sha256);
        if (!sheet) {
          missing.push(k.name);
          continue;
        }
        scored++;
        for (const [row, expected] of Object.entries(k.expected.scores)) {
          const got = sheet.scores[row];
          if (got !== undefined && got !== expected) rowsOff.push({ submission: k.name, row, expected, got });
        }
        if (!sheet.complete) {
          decisionMisses.push({ submission: k.name, expected: k.expected.decision, got: 'not decided (rows left unscored)' });
          continue;
        }
        const got = decide(rubric, sheet.scores).decision;
        if (got === k.expected.decision) matched++;
        else decisionMisses.push({ submission: k.name, expected: k.expected.decision, got });
      }
      return { name, scored, decisionsMatched: matched, decisionMisses, rowsOff, missing, offKey: scored === 0 || decisionMisses.length > 0 || rowsOff.length > 0 };
    }),
  };
}
