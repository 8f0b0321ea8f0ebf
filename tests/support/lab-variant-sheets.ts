import { LAB_SHEET_KIND } from '../../src/labs/sheet-read.ts';
import { variantOf } from '../../src/packets/lab-compose.ts';
import type { Lab } from '../../src/packets/packet.ts';
import type { PacketVariant } from '../../src/packets/variants-render.ts';

/** The rendered lab of a variant. */
export const labModelOf = (x: PacketVariant) => (x.packet as Lab).lab!;

/** A sheet of variant `x` as its page exports it: the key's choices, `hand` edits by suggestion id, `extra` over it. */
export function variantSheet(x: PacketVariant, extra: Record<string, unknown> = {}, hand: Record<string, string> = {}) {
  return {
    schemaVersion: 1,
    kind: LAB_SHEET_KIND,
    id: x.packet.id,
    version: x.packet.prompt.data.version,
    digest: x.digest,
    variant: x.id,
    date: '2026-12-02T10:00:00.000Z',
    candidate: 'Ada',
    plan: { endState: 'slugs right', checkpoints: 'separators\nlength', invariant: 'tests green', byHand: 'the reasons' },
    suggestions: labModelOf(x).suggestions.map((s) => ({ id: s.id, choice: s.key.choice, ...(hand[s.id] !== undefined ? { hand: hand[s.id] } : {}), reason: `because ${s.id}` })),
    ...extra,
  };
}

/** The key's revised length cut of variant `x`, its MAX_LENGTH typed out as `x`'s limit: right for `x`, wrong for a variant of another limit. */
export function hardCodedCut(x: PacketVariant): string {
  const cut = labModelOf(x).suggestions.find((s) => s.id === 'length-cut')!;
  return variantOf(cut, 'revise').replaceAll('MAX_LENGTH', String(x.values.limit));
}
