import { describe, expect, expectTypeOf, it } from 'vitest';
import { LintErrors } from '../../../src/errors/lint-catalog.ts';
import { lintPacket, lintPackets } from '../../../src/lint/engine.ts';
import { memoryPacketFiles } from '../../../src/lint/files.ts';
import { defineRule, ruleReads, type Rule } from '../../../src/lint/rule.ts';
import { lintRules } from '../../../src/lint/rules/index.ts';
import { KINDS } from '../../../src/packets/kinds/index.ts';
import type { CodePacket, Drill, Packet } from '../../../src/packets/packet.ts';
import type { PacketKind } from '../../../src/packets/schema/index.ts';
import { labWith, parseMemory, scaffoldFiles } from '../labs/helpers.ts';
import { memoryPacket } from './helpers.ts';

/** One packet of each kind, parsed from its scaffold, with a reader over its files. */
function packetsOfEveryKind(): { packets: Packet[]; files: ReturnType<typeof memoryPacketFiles> } {
  const takehome = memoryPacket(undefined, 'take');
  const labFiles = labWith().files;
  const drillFiles = scaffoldFiles('drill', 'drill');
  const lab = labWith().packet!;
  const drill = parseMemory(drillFiles, 'drill').packet!;
  const memory = memoryPacketFiles({ lab: labFiles, drill: drillFiles });
  return {
    packets: [takehome.packet, { ...lab, id: 'lab' }, drill],
    files: { read: (p, rel) => (p.id === 'take' ? takehome.files.read(p, rel) : memory.read(p, rel)) },
  };
}

/** A rule that reads the given kinds and records what it was shown; on a drill it reports the first diff. */
function probe<const K extends PacketKind>(kinds: readonly K[], seen: { kind: PacketKind; starter: number }[]) {
  return defineRule({
    id: `probe-${kinds.join('-')}`,
    defaultSeverity: 'warning',
    entry: LintErrors.DrillVerdictsOneSided,
    docs: { summary: 'A probe.', bad: '', good: '' },
    kinds,
    async check(ctx) {
      const packet: Packet = ctx.packet;
      seen.push({ kind: packet.kind, starter: (await ctx.starterFiles()).length });
      if (packet.kind !== 'drill') return [];
      return [{ place: ctx.field('assistant', ['diffs', 0, 'key', 'verdict']), params: { verdict: packet.diffs[0]!.key.verdict } }];
    },
  });
}

describe('a lint rule reads only the kinds it declares', () => {
  it('is given only packets of its kinds, through its one check', async () => {
    const { packets, files } = packetsOfEveryKind();
    expect(packets.map((p) => p.kind)).toEqual(['takehome', 'lab', 'drill']);
    for (const kinds of [['drill'], ['lab'], ['takehome', 'lab'], ['takehome', 'lab', 'drill']] as PacketKind[][]) {
      const seen: { kind: PacketKind; starter: number }[] = [];
      const found = [];
      for (const p of packets) found.push(...(await lintPacket(p, { files, rules: [probe(kinds, seen)] })));
      expect(seen.map((s) => s.kind)).toEqual(packets.map((p) => p.kind).filter((k) => kinds.includes(k)));
      // A packet with code shows its starter files; a drill has none.
      for (const s of seen) expect([s.kind, s.starter > 0]).toEqual([s.kind, s.kind !== 'drill']);
      // Findings become diagnostics of the rule, at the rule's severity, in the drill's own file.
      expect(found.map((d) => `${d.code} ${d.severity} ${d.rule} ${d.file}`)).toEqual(
        kinds.includes('drill') ? [`PK252 warning probe-${kinds.join('-')} packets/drill/assistant.mdx`] : [],
      );
    }
  });

  it('narrows the packet type to its kinds', () => {
    defineRule({
      id: 'types',
      defaultSeverity: 'warning',
      entry: LintErrors.DrillVerdictsOneSided,
      docs: { summary: '', bad: '', good: '' },
      kinds: ['drill'],
      check(ctx) {
        expectTypeOf(ctx.packet).toEqualTypeOf<Drill>();
        return [];
      },
    });
    defineRule({
      id: 'types',
      defaultSeverity: 'warning',
      entry: LintErrors.DrillVerdictsOneSided,
      docs: { summary: '', bad: '', good: '' },
      kinds: ['takehome', 'lab'],
      check(ctx) {
        expectTypeOf(ctx.packet).toEqualTypeOf<CodePacket>();
        return [];
      },
    });
  });

  it('every shipped rule declares kinds from the kind list, and the shipped drill rules skip other kinds', async () => {
    const names: readonly PacketKind[] = KINDS.map((k) => k.kind);
    for (const rule of lintRules as readonly Rule[]) {
      expect([rule.id, rule.kinds.length > 0]).toEqual([rule.id, true]);
      for (const kind of rule.kinds) expect(names).toContain(kind);
    }
    const drillOnly = lintRules.filter((r) => r.kinds.length === 1 && ruleReads(r, 'drill'));
    expect(drillOnly.map((r) => r.id).sort()).toEqual(['drill-diff-context', 'drill-verdict-balance']);
    // The take-home and the lab reach no drill rule, whatever they hold.
    const { packets, files } = packetsOfEveryKind();
    const diagnostics = await lintPackets(packets.slice(0, 2), { files, rules: drillOnly });
    expect(diagnostics).toEqual([]);
  });
});
