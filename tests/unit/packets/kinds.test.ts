import { describe, expect, expectTypeOf, it } from 'vitest';
import { KINDS, kindNamed, kindOf, type KindDescriptor } from '../../../src/packets/kinds/index.ts';
import { loadPackets } from '../../../src/packets/load.ts';
import { codePackets, hasCode, packetsOfKind, type CodePacket, type Drill, type Lab, type Packet, type Takehome } from '../../../src/packets/packet.ts';
import { declaredKind } from '../../../src/packets/parse.ts';
import { publicDrillSchema } from '../../../src/packets/public-drill.ts';
import { publicPacketSchema } from '../../../src/packets/public.ts';
import { PART_FILES, promptSchema, type PacketKind } from '../../../src/packets/schema/index.ts';
import { templateFiles, ROOT } from '../lint/helpers.ts';
import { parseMemory, scaffoldFiles } from '../labs/helpers.ts';

/** The scaffold `packet new --kind <kind>` writes, in memory. */
const scaffoldOf = (kind: PacketKind): Record<string, string> => (kind === 'takehome' ? templateFiles() : scaffoldFiles(kind));

const COLLECTION_SCHEMAS = { packets: publicPacketSchema, drills: publicDrillSchema } as const;

describe('the kind list', () => {
  it('names each kind once, the kinds the prompt schema accepts, and finds each by its name', () => {
    const names = KINDS.map((k) => k.kind);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual([...promptSchema.shape.kind.options].sort());
    for (const kind of KINDS) expect(kindNamed(kind.kind)).toBe(kind);
    expect(() => kindNamed('quiz' as PacketKind)).toThrow(/not in the list of kinds/);
  });

  it('is the Packet union: one member per kind, narrowed by `kind`', () => {
    expectTypeOf<Packet>().toEqualTypeOf<Takehome | Lab | Drill>();
    expectTypeOf<Packet['kind']>().toEqualTypeOf<(typeof KINDS)[number]['kind']>();
    expectTypeOf<Packet['kind']>().toEqualTypeOf<PacketKind>();
    expectTypeOf<CodePacket>().toEqualTypeOf<Takehome | Lab>();
  });

  it('gives every kind a prompt and a rubric, and parts the loader knows', () => {
    for (const kind of KINDS) {
      expect(kind.parts.slice(0, 2)).toEqual(['prompt', 'rubric']);
      for (const part of kind.parts) expect(PART_FILES).toContain(part);
    }
  });

  it("says in PK181's hint which parts the packet's own kind reads", () => {
    const hint = (kind: PacketKind, part: string) => parseMemory({ ...scaffoldOf(kind), [`${part}.mdx`]: '---\nlabel: unused\n---\n' }).diagnostics.find((d) => d.code === 'PK181')?.hint;
    expect(hint('takehome', 'assistant')).toBe("Remove it, or change the prompt's kind (a take-home reads prompt, rubric, sample and failures).");
    expect(hint('lab', 'sample')).toBe("Remove it, or change the prompt's kind (a lab reads prompt, rubric and assistant).");
    expect(hint('drill', 'failures')).toBe("Remove it, or change the prompt's kind (a drill reads prompt, rubric and assistant).");
  });

  it('the first kind is the kind of a prompt that names none, or names one the list lacks', () => {
    expect(declaredKind('---\ntitle: T\n---\nBody\n')).toBe(KINDS[0].kind);
    expect(declaredKind('---\nkind: quiz\n---\nBody\n')).toBe(KINDS[0].kind);
    for (const kind of KINDS) {
      expect(declaredKind(`---\nkind: ${kind.kind}\n---\nBody\n`)).toBe(kind.kind);
      // A prompt whose YAML is broken still says its kind on a plain line.
      expect(declaredKind(`---\nkind: ${kind.kind}\ntitle: [unclosed\n---\nBody\n`)).toBe(kind.kind);
    }
  });
});

describe('every packet of packets/ narrows to a registered kind', () => {
  it('loads as a packet of its kind, with exactly its kind\'s parts and a public view its collection accepts', async () => {
    const { packets, diagnostics } = await loadPackets({ packetsDir: 'packets', cwd: ROOT });
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(new Set(packets.map((p) => p.kind))).toEqual(new Set(KINDS.map((k) => k.kind)));
    for (const packet of packets) {
      const kind: KindDescriptor = kindOf(packet);
      expect(kind.kind).toBe(packet.kind);
      expect(packet.prompt.data.kind).toBe(packet.kind);
      const record = packet as unknown as Record<string, unknown>;
      for (const part of PART_FILES) expect([packet.id, part, record[part] !== undefined]).toEqual([packet.id, part, kind.parts.includes(part)]);
      expect(COLLECTION_SCHEMAS[kind.collection].safeParse(kind.publicView(packet, () => undefined)).success).toBe(true);
    }
    // The helpers that narrow by kind agree with `kind`.
    expect(codePackets(packets).every(hasCode)).toBe(true);
    expect(codePackets(packets).map((p) => p.id)).toEqual(packets.filter((p) => p.kind !== 'drill').map((p) => p.id));
    for (const kind of KINDS) expect(packetsOfKind(packets, kind.kind).every((p: Packet) => p.kind === kind.kind)).toBe(true);
  });
});

describe("a kind's parts drive the loader", () => {
  for (const kind of KINDS) {
    describe(kind.kind, () => {
      it('parses its scaffold as a packet of its kind', () => {
        const { packet, diagnostics } = parseMemory(scaffoldOf(kind.kind));
        expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        expect(packet?.kind).toBe(kind.kind);
      });

      it('reports each of its parts, when missing, with its own diagnostic, and gives no packet', () => {
        for (const part of kind.parts) {
          const files = scaffoldOf(kind.kind);
          delete files[`${part}.mdx`];
          const { packet, diagnostics } = parseMemory(files);
          expect(packet).toBeUndefined();
          // Without a prompt nothing declares the kind: the folder is read as the first kind of the list.
          const expected = part === 'prompt' ? KINDS[0] : kind;
          expect(diagnostics).toContainEqual(expected.missingPart(`packets/mem/${part}.mdx`, part));
        }
      });

      it('warns of a part it does not read (PK181), and reads the packet anyway', () => {
        for (const part of PART_FILES.filter((p) => !kind.parts.includes(p))) {
          const { packet, diagnostics } = parseMemory({ ...scaffoldOf(kind.kind), [`${part}.mdx`]: '---\nlabel: unused\n---\n' });
          expect(packet?.kind).toBe(kind.kind);
          expect(diagnostics.map((d) => `${d.code} ${d.severity} ${d.file}`)).toContain(`PK181 warning packets/mem/${part}.mdx`);
        }
      });
    });
  }
});
