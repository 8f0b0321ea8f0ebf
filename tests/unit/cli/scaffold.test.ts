import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSpec } from '../../../src/cli/command-specs.ts';
import { TEMPLATES, writeScaffold } from '../../../src/cli/scaffold.ts';
import { KINDS } from '../../../src/packets/kinds/index.ts';
import { loadPackets } from '../../../src/packets/load.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'packet-scaffold-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("packet new's templates", () => {
  it('are one per registered kind, the folder its descriptor names, and the choices of --kind', () => {
    expect(Object.keys(TEMPLATES)).toEqual(KINDS.map((k) => k.kind));
    for (const k of KINDS) expect(TEMPLATES[k.kind]).toBe(path.join(import.meta.dirname, '../../../src/cli', k.scaffold) + path.sep);
    expect(newSpec.flags.kind.choices).toEqual(KINDS.map((k) => k.kind));
  });

  it("each write a packet of the kind that loads without an error", async () => {
    const packets = path.join(root, 'packets');
    for (const k of KINDS) await writeScaffold(k.kind, path.join(packets, `new-${k.kind}`), { id: `new-${k.kind}`, title: `New ${k.word}`, date: '2026-12-01' });
    const loaded = await loadPackets({ packetsDir: packets, cwd: root });
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(loaded.packets.map((p) => [p.id, p.kind]).sort()).toEqual(KINDS.map((k) => [`new-${k.kind}`, k.kind]).sort());
  });
});
