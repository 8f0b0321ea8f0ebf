import type { Packet } from '../packet.ts';
import { drillKind } from './drill.ts';
import type { KindDescriptor } from './kind.ts';
import { labKind } from './lab.ts';
import { takehomeKind } from './takehome.ts';

export type { KindDescriptor, SiteCollection, ValidParts } from './kind.ts';

/**
 * Every kind of packet, the one list of them: the loader, the lint and the site read each
 * kind's parts, schema, checks and public view from here. The first is the kind of a prompt
 * that names none.
 */
export const KINDS = [takehomeKind, labKind, drillKind] as const;

/** The descriptor of a kind. */
export function kindNamed<K extends Packet['kind']>(kind: K): KindDescriptor<Extract<Packet, { kind: K }>> {
  const found = KINDS.find((k) => k.kind === kind);
  if (!found) throw new Error(`packet kind "${kind}" is not in the list of kinds (src/packets/kinds/index.ts)`);
  return found as unknown as KindDescriptor<Extract<Packet, { kind: K }>>;
}

/** The descriptor of a packet's kind. */
export function kindOf<P extends Packet>(packet: P): KindDescriptor<P> {
  return kindNamed(packet.kind) as unknown as KindDescriptor<P>;
}
