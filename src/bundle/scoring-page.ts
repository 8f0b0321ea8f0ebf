/**
 * Where on the site a packet's answers are scored, by kind: a take-home's scorecard on its rubric
 * page, a lab's and a drill's answer sheet on the kind's own scoring page. The reviewer bundle's
 * KEY.md names it; the site's pages link it.
 */

/** The kinds of packet the site scores. */
export type ScoredKind = 'takehome' | 'lab' | 'drill';

/** The site path of the page a reviewer scores this packet on. */
export function scoringPagePath(kind: ScoredKind, id: string): string {
  const slug = encodeURIComponent(id);
  if (kind === 'lab') return `/labs/${slug}/score/`;
  if (kind === 'drill') return `/drills/${slug}/score/`;
  return `/packets/${slug}/rubric/`;
}

/** What the reviewer does on that page, in a few words. */
export function scoringPageUse(kind: ScoredKind): string {
  if (kind === 'takehome') return "import a submission's scorecard.json (or a batch's summary.json) from packet grade and score it on the rubric";
  return `import ${kind === 'lab' ? 'LAB-KEY.json' : 'DRILL-KEY.json'} from this bundle and the candidate's answer sheet, and score it on the rubric`;
}
