import type { z } from 'astro/zod';
import { diagnose } from '../../errors/catalog.ts';
import { LabErrors } from '../../errors/lab-catalog.ts';
import type { Diagnostic } from '../../errors/diagnostic.ts';
import type { PacketBase } from '../packet-base.ts';
import type { Part, PartData } from '../part.ts';
import type { PartName } from '../schema/index.ts';
import type { PacketSource } from '../source.ts';

/** The valid parts of one packet folder, by name, before they are put together. */
export type ValidParts = Partial<{ [N in PartName]: Part<PartData<N>> }>;

/** The site collection that shows a kind's public view: `packets` (with a starter tree) or `drills`. */
export type SiteCollection = 'packets' | 'drills';

/**
 * Everything that makes one kind of packet what it is, in one place: the parts it reads, the
 * schema of its prompt, the rubric rows it can score automatically, how its valid parts become a
 * packet (with its own cross-file checks) and what of it the site shows. The loader, the lint
 * and the site read these; a new kind is a new descriptor in kinds/index.ts.
 */
export interface KindDescriptor<P extends PacketBase & { kind: string } = PacketBase & { kind: string }> {
  /** The kind, as `prompt.mdx` declares it (`kind: lab`). */
  kind: P['kind'];
  /** The kind in words, in diagnostics: `take-home`. */
  word: string;
  /** The part files it reads, in reading order; `prompt` and `rubric` first. */
  parts: readonly PartName[];
  /** The schema of its `prompt.mdx` frontmatter. */
  promptSchema: z.core.$ZodType;
  /** The automatic rubric checks (`rows[].auto`) it can score. */
  autoChecks: readonly string[];
  /** The diagnostic of a part it reads that the folder lacks. */
  missingPart(file: string, part: PartName): Diagnostic;
  /**
   * Put the valid parts together (every part of `parts` is there) and run the kind's checks
   * across files; the packet comes back even with errors among the diagnostics, as the lint
   * and `packet check` still read it.
   */
  assemble(parts: ValidParts, source: PacketSource): { packet: P; diagnostics: Diagnostic[] };
  /** The site collection of its public view. */
  collection: SiteCollection;
  /**
   * The template `packet new --kind <kind>` writes: the folder of this name shipped beside the
   * CLI (`src/cli/<scaffold>/`), a small packet of the kind that passes `packet check`.
   */
  scaffold: string;
  /** Its public view: what the site stores (never a secret); `readStarter` gives a starter file's bytes. */
  publicView(packet: P, readStarter: (path: string) => Uint8Array | undefined): unknown;
}

/** Declare a kind, keeping its packet type. */
export function defineKind<P extends PacketBase & { kind: string }>(descriptor: KindDescriptor<P>): KindDescriptor<P> {
  return descriptor;
}

/** The missing-part diagnostic of a kind other than the take-home (PK180, naming the kind's parts). */
export function kindPartMissing(kind: Pick<KindDescriptor, 'word' | 'parts'>, file: string, part: PartName): Diagnostic {
  return diagnose(LabErrors.KindPartMissing, { file }, { kind: kind.word, part, parts: kind.parts.join(', ') });
}
