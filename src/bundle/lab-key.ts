/**
 * The reviewer's side of labs and drills: the key's sections of KEY.md, the key files the scoring
 * pages import (LAB-KEY.json, DRILL-KEY.json), and the key's words as canaries, so the public site
 * can be searched for them. The key never goes anywhere else.
 */
import type { RootContent } from 'mdast';
import type { Drill } from '../packets/packet.ts';
import type { LabModel } from '../packets/lab-model.ts';
import { combinationIndex } from '../packets/lab-compose.ts';
import type { BodySource } from '../packets/markdown-tree.ts';
import { splitRubricBody } from '../packets/rubric-notes.ts';
import { DRILL_KEY_KIND, type DrillKeyFile } from '../labs/sheets.ts';
import { allPass, reviewerKey, type LabTable, type ReviewerKey } from '../labs/table.ts';
import type { CanarySource } from './canary.ts';
import { code, codeBlock, heading, list, paragraph, renderBody, toMarkdown } from './markdown.ts';
import { reviewerNotesSection, rubricCard } from './rubric-card.ts';
import { scoringPagePath, scoringPageUse } from './scoring-page.ts';

/** The file name of a lab's key in the reviewer bundle. */
export const LAB_KEY_FILE = 'LAB-KEY.json';
/** The file name of a drill's key in the reviewer bundle. */
export const DRILL_KEY_FILE = 'DRILL-KEY.json';

/** The key of a lab, as the scoring page imports it, from its table. */
export function labReviewerKey(model: LabModel, table: LabTable): ReviewerKey {
  return reviewerKey(
    table,
    model.suggestions.map((s) => ({ id: s.id, choice: s.key.choice, reason: s.key.reason, ...(s.key.reviewOnly ? { reviewOnly: s.key.reviewOnly } : {}) })),
  );
}

/** KEY.md's sections for a lab: each suggestion with its key, and what the key's combination gives. */
export function labKeySections(model: LabModel, table: LabTable | undefined): RootContent[] {
  const out: RootContent[] = [heading(2, 'Suggestions and the key')];
  out.push(paragraph('For each suggestion, the choice a careful engineer makes and the consequence a good reason names. Score the candidate\'s reasons against these.'));
  model.suggestions.forEach((s, i) => {
    out.push(heading(3, `${i + 1}. `, code(s.id), `: ${s.key.choice}`));
    out.push(
      list([
        ['Region: ', code(`${s.file}:${s.fromLine}-${s.toLine}`)],
        ['Asked: ', s.ask.trim()],
        ['Reason: ', s.key.reason.trim()],
        ...(s.key.reviewOnly ? [['Only review catches it: ', s.key.reviewOnly.trim()]] : []),
      ]),
    );
  });
  out.push(heading(2, 'The test table'));
  if (!table) {
    out.push(paragraph('Not computed in this build.'));
    return out;
  }
  const key = table.combinations[combinationIndex(model.suggestions.map((s) => s.key.choice))]!;
  const n = table.combinations.length;
  out.push(
    paragraph(
      `${n} combinations, each run with ${table.tests.visible.length} visible and ${table.tests.hidden.length} held-out tests. The key's combination: visible tests ${allPass(key.visible) ? 'all pass' : 'NOT all passing'}, held-out tests ${allPass(key.hidden) ? 'all pass' : 'NOT all passing'}. `,
      code(LAB_KEY_FILE),
      ' holds every combination; import it on the lab\'s scoring page with the candidate\'s answer sheet.',
    ),
  );
  return out;
}

/** KEY.md of a drill: each diff with its verdict and the consequence a good reason names, then the rubric and its reviewer notes. */
export function drillKeyMarkdown(drill: Drill): string {
  const p = drill.prompt.data;
  const children: RootContent[] = [
    heading(1, `Reviewer key: ${p.title}`),
    paragraph('Reviewer material: never give this file, or anything else in this bundle, to a candidate.'),
    list([
      ['Drill: ', code(drill.id), ', version ', code(p.version)],
      ['Digest: ', code(drill.digest)],
      ['Scoring page on the packet site: ', code(scoringPagePath('drill', drill.id)), ` (${scoringPageUse('drill')})`],
    ]),
    heading(2, 'Diffs and the key'),
  ];
  drill.diffs.forEach((d, i) => {
    children.push(heading(3, `${i + 1}. `, code(d.id), `: ${d.key.verdict}`));
    children.push(paragraph(d.title, ' (', code(d.file), ')'));
    children.push(codeBlock(d.diff.replace(/\n$/, ''), 'diff'));
    children.push(list([['Consequence: ', d.key.consequence.trim()], ...(d.key.change ? [['The change to ask for: ', d.key.change.trim()]] : [])]));
  });
  const notes = renderBody(drill.assistant.body, drill.assistant.file, { shiftHeadings: 2 });
  if (notes.children.length) children.push(heading(2, 'Notes'), ...notes.children);
  children.push(heading(2, 'Rubric'), ...rubricCard(drill.rubric.data, 3), ...reviewerNotesSection(drill.rubric));
  children.push(paragraph('Import ', code(DRILL_KEY_FILE), ' with the candidate\'s answer sheet on the drill\'s scoring page.'));
  return toMarkdown({ type: 'root', children });
}

/** DRILL-KEY.json of a drill. */
export function drillReviewerKey(drill: Drill): DrillKeyFile {
  return {
    schemaVersion: 1,
    kind: DRILL_KEY_KIND,
    id: drill.id,
    version: drill.prompt.data.version,
    digest: drill.digest,
    key: drill.diffs.map((d) => ({ id: d.id, verdict: d.key.verdict, consequence: d.key.consequence, ...(d.key.change ? { change: d.key.change } : {}) })),
  };
}

/** A secret text and where it comes from; the canary scan searches the site for it. */
export interface KeyText {
  text: string;
  source: CanarySource;
}

/** The sentences of a key's text long enough to search for, whole text first. */
function pieces(text: string): string[] {
  const whole = text.replace(/\s+/g, ' ').trim();
  return [whole, ...whole.split(/(?<=[.;:!?])\s+/)];
}

/** The words of a lab's or a drill's key (reasons, review-only notes, consequences, changes) and the assistant part's reviewer notes. */
export function keyTexts(item: { dir: string; assistant?: { file: string; body: string; data: { suggestions?: { key: { reason: string; reviewOnly?: string } }[]; diffs?: { key: { consequence: string; change?: string } }[] } } }): KeyText[] {
  const a = item.assistant;
  if (!a) return [];
  const source = { file: a.file, line: 1 };
  const texts: string[] = [];
  for (const s of a.data.suggestions ?? []) texts.push(...pieces(s.key.reason), ...(s.key.reviewOnly ? pieces(s.key.reviewOnly) : []));
  for (const d of a.data.diffs ?? []) texts.push(...pieces(d.key.consequence), ...(d.key.change ? pieces(d.key.change) : []));
  texts.push(...a.body.split('\n'));
  return texts.map((text) => ({ text, source }));
}

/** The lines of a rubric's reviewer-only sections (a drill's: a packet's are collected with its files), each with its own line. */
export function reviewerNotesTexts(item: { dir: string; rubric: BodySource }): KeyText[] {
  return splitRubricBody(item.rubric).reviewerLines.map(({ text, line }) => ({ text, source: { file: `${item.dir}/rubric.mdx`, line } }));
}

/** The public words of a lab's or a drill's assistant: what the candidate sees (asks, messages, changes, diffs, context). */
export function assistantPublicTexts(item: { assistant?: { data: { suggestions?: { ask: string; message: string; offered: string; revised: string; anchor?: string }[]; diffs?: { title: string; context: string; diff: string }[] } } }): string[] {
  const a = item.assistant?.data;
  if (!a) return [];
  return [
    ...(a.suggestions ?? []).flatMap((s) => [s.ask, s.message, s.offered, s.revised, s.anchor ?? '']),
    ...(a.diffs ?? []).flatMap((d) => [d.title, d.context, d.diff]),
  ];
}
