/**
 * Where and what a candidate hands in, in the words the zip's README and the lab and drill pages
 * share: the packet's `handIn.to` as text (never fetched or linked), or the person who sent the
 * packet; for a lab or a drill, the exported answer sheet by its file name.
 */
import { sheetFileName } from './sheet-read.ts';

/** Where the work goes when the packet names no `handIn`. */
export const HAND_IN_FALLBACK = 'the person who sent you this packet';

/** The packet's hand-in field as the pages and the zip read it. */
export interface HandIn {
  to: string;
  note?: string;
}

/** Where the candidate sends their work, as text. */
export function handInTo(handIn: HandIn | undefined): string {
  return handIn?.to.trim() || HAND_IN_FALLBACK;
}

/** The exported sheet's file name with a placeholder for the candidate's name, as sheetFileName() makes it. */
export function sheetFilePattern(id: string, version: string): string {
  return sheetFileName({ id, version, digest: '' }).replace(/\.json$/, '-<your-name>.json');
}

/** The label of the done step's button on the lab and drill pages, which the zip's text names. */
export const DONE_LABEL = "I'm done: check and export";
