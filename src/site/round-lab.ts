/**
 * What a lab's answer sheet still lacks before it can be handed in, each with the field that
 * takes it, in the page's order; and whether the page holds any answer at all.
 */
import { missingReasons, PLAN_FIELDS } from '../labs/sheets.ts';
import type { LabAnswerSheet } from '../labs/sheet-read.ts';
import type { Missing } from './round-page.ts';

const find = (root: HTMLElement, selector: string) => root.querySelector<HTMLElement>(selector)!;

/** A lab's sheet: the plan, a choice per suggestion, every required reason, the name. */
export function labMissing(root: HTMLElement, sheet: LabAnswerSheet): Missing[] {
  const out: Missing[] = [];
  for (const f of PLAN_FIELDS) if (!sheet.plan[f.key].trim()) out.push({ text: `Write the plan's "${f.label}".`, focus: find(root, `[data-plan="${f.key}"]`) });
  for (const s of sheet.suggestions) if (s.choice === null && s.hand === undefined) out.push({ text: `Make a choice on ${s.id}.`, focus: find(root, `input[data-choice="${CSS.escape(s.id)}"]`) });
  for (const id of missingReasons(sheet)) out.push({ text: `Give a reason for your choice on ${id}.`, focus: find(root, `[data-reason="${CSS.escape(id)}"]`) });
  if (!sheet.candidate) out.push({ text: 'Write your name.', focus: find(root, '[data-candidate]') });
  return out;
}

/** True when a lab's sheet holds any answer. */
export function labHasAnswers(sheet: LabAnswerSheet): boolean {
  return Boolean(sheet.candidate) || PLAN_FIELDS.some((f) => sheet.plan[f.key].trim()) || sheet.suggestions.some((s) => s.choice !== null || s.hand !== undefined || s.reason.trim());
}
