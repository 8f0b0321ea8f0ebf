/**
 * What a drill's answer sheet still lacks before it can be handed in, each with the field that
 * takes it, in the page's order; and whether the page holds any answer at all.
 */
import type { DrillAnswerSheet } from '../labs/sheet-read.ts';
import type { Missing } from './round-page.ts';

const find = (root: HTMLElement, selector: string) => root.querySelector<HTMLElement>(selector)!;

/** A drill's sheet: a verdict and a reason per diff, the change for accept-with-change, the name. */
export function drillMissing(root: HTMLElement, sheet: DrillAnswerSheet): Missing[] {
  const out: Missing[] = [];
  for (const d of sheet.diffs) {
    const id = CSS.escape(d.id);
    if (d.verdict === null) out.push({ text: `Give a verdict on ${d.id}.`, focus: find(root, `input[data-verdict="${id}"]`) });
    if (!d.reason.trim()) out.push({ text: `Give a reason for ${d.id}.`, focus: find(root, `[data-reason="${id}"]`) });
    if (d.verdict === 'accept-with-change' && !d.change?.trim()) out.push({ text: `Name the change you would ask for on ${d.id}.`, focus: find(root, `[data-change="${id}"]`) });
  }
  if (!sheet.candidate) out.push({ text: 'Write your name.', focus: find(root, '[data-candidate]') });
  return out;
}

/** True when a drill's sheet holds any answer. */
export function drillHasAnswers(sheet: DrillAnswerSheet): boolean {
  return Boolean(sheet.candidate) || sheet.diffs.some((d) => d.verdict !== null || d.reason.trim() || d.change?.trim());
}
