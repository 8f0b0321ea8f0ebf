import { diagnose, Errors } from '../../errors/catalog.ts';
import { crossCheck } from '../cross-checks.ts';
import { packetDigest } from '../digest.ts';
import type { CodePacketBase } from '../packet-base.ts';
import type { Part, PartData } from '../part.ts';
import { publicPacket } from '../public.ts';
import { PARTS, promptSchema } from '../schema/index.ts';
import { treesOf } from '../trees.ts';
import { defineKind, type KindDescriptor } from './kind.ts';

/** A take-home: the four parts and the code trees (starter, sample, hidden tests, mutants, replies). */
export interface Takehome extends CodePacketBase {
  kind: 'takehome';
  /** The labeled sample. */
  sample: Part<PartData<'sample'>>;
  /** The failure catalog. */
  failures: Part<PartData<'failures'>>;
}

/** A take-home: the candidate changes a starter until the hidden tests pass; the sample, the failure catalog and the mutants prove the packet. */
export const takehomeKind: KindDescriptor<Takehome> = defineKind<Takehome>({
  kind: 'takehome',
  word: 'take-home',
  parts: PARTS,
  promptSchema,
  autoChecks: ['tests', 'hidden-tests', 'visible-tests', 'protected', 'workspace', 'receipts'],
  missingPart: (file, part) => diagnose(Errors.PartMissing, { file }, { part }),
  assemble(parts, source) {
    const packet: Takehome = {
      kind: 'takehome',
      id: source.id,
      dir: source.dir,
      digest: packetDigest(source.entries),
      prompt: parts.prompt!,
      rubric: parts.rubric!,
      sample: parts.sample!,
      failures: parts.failures!,
      entries: source.entries,
      trees: treesOf(source.entries),
    };
    return { packet, diagnostics: crossCheck(packet, takehomeKind, packet.failures) };
  },
  collection: 'packets',
  scaffold: 'scaffold-template',
  publicView: (packet, readStarter) => publicPacket(packet, readStarter),
});
