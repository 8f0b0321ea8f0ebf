import { drillKind } from './drill.ts';
import type { KindDescriptor } from './kind.ts';
import { labKind } from './lab.ts';
import { takehomeKind } from './takehome.ts';

export type { KindDescriptor, SiteCollection, ValidParts } from './kind.ts';
export type { Drill } from './drill.ts';
export type { Lab } from './lab.ts';
export type { Takehome } from './takehome.ts';

/**
 * Every kind of packet, the one list of them: the `Packet` union is made of the kinds listed
 * here, and the loader, the lint and the site read each kind's parts, prompt schema, checks and
 * public view from its descriptor. The first is the kind of a prompt that names none. A new kind
 * is a file beside these (its packet type and its descriptor), its line here, its value in the
 * `kind` field of the prompt schema (tests/unit/packets/kinds.test.ts checks they agree) and the
 * template folder its descriptor names for `packet new` (tests/unit/cli/scaffold.test.ts).
 */
export const KINDS = [takehomeKind, labKind, drillKind] as const;

/** The packet type a kind descriptor describes. */
export type PacketOfDescriptor<D> = D extends KindDescriptor<infer P> ? P : never;

/** A loaded, validated packet of any kind (`Takehome | Lab | Drill`): the kinds of the list above; narrow it with `kind`. */
export type Packet = PacketOfDescriptor<(typeof KINDS)[number]>;

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
