import { describe, expect, it } from 'vitest';
import { readZipEntries } from '../../../src/bundle/canary.ts';
import { buildReviewerBundle, rehearsalEvidence } from '../../../src/bundle/reviewer-bundle.ts';
import type { RehearsalReport } from '../../../src/rehearse/report.ts';
import { memPacket } from './helpers.ts';

function report(id: string, digest: string): RehearsalReport {
  return {
    schemaVersion: 2,
    date: '2026-11-29T12:00:00.000Z',
    sandbox: { kind: 'bubblewrap', notice: null },
    interpreter: { python: '3.12.0' },
    jobs: 2,
    packets: [{ id, version: '0.1.0', digest, status: 'fails-closed', checks: [], defects: [], cached: true, durationMs: 1 }],
    summary: { packets: 1, failsClosed: 1, defects: 0, inconclusive: 0, cached: 1, durationMs: 1 },
  };
}

describe('the reviewer bundle', () => {
  it('holds every file of the packet, KEY.md and the rehearsal result', async () => {
    const { packet, read } = memPacket();
    const rehearsal = rehearsalEvidence(report('mem', packet.digest), packet);
    const { zip, diagnostics } = await buildReviewerBundle(packet, read, { candidate: { name: 'mem-0.1.0.zip', sha256: 'c'.repeat(64), size: 123 }, ...(rehearsal ? { rehearsal } : {}) });
    expect(diagnostics).toEqual([]);
    const paths = (await readZipEntries(zip!.bytes)).map((e) => e.path);
    expect(paths).toEqual([...packet.entries.map((e) => `mem-0.1.0/${e.path}`), 'mem-0.1.0/KEY.md', 'mem-0.1.0/REHEARSAL.json'].sort());
    for (const tree of ['sample/', 'hidden/', 'mutants/', 'replies/', 'starter/']) expect(paths.some((p) => p.startsWith(`mem-0.1.0/${tree}`))).toBe(true);
  });

  it("writes a key with every failure mode's signal, mutant and cap, the hire bar and the vetoes", async () => {
    const { packet, read } = memPacket();
    const { zip } = await buildReviewerBundle(packet, read, { candidate: { name: 'mem-0.1.0.zip', sha256: 'c'.repeat(64), size: 123 } });
    const key = new TextDecoder().decode((await readZipEntries(zip!.bytes)).find((e) => e.path.endsWith('KEY.md'))!.bytes);
    for (const mode of packet.failures!.data.modes) {
      expect(key).toContain(`\`${mode.id}\`: ${mode.title}`);
      expect(key).toContain(`/${mode.signal.pattern}/`);
      expect(key).toContain(`Mutant: \`${mode.mutant}\``);
      expect(key).toContain(`Caps: \`${mode.caps.row}\` at ${mode.caps.max}`);
    }
    expect(key).toContain(`${packet.rubric.data.hireBar} of`);
    for (const veto of packet.rubric.data.vetoes) expect(key).toContain(veto.note);
    expect(key).toContain(`sha256 \`${'c'.repeat(64)}\``);
    expect(key).toContain('Not rehearsed');
  });

  it('marks a rehearsal result of another digest as stale', async () => {
    const { packet, read } = memPacket();
    const rehearsal = rehearsalEvidence(report('mem', '0'.repeat(64)), packet)!;
    expect(rehearsal.stale).toBe(true);
    const { zip } = await buildReviewerBundle(packet, read, { rehearsal });
    const key = new TextDecoder().decode((await readZipEntries(zip!.bytes)).find((e) => e.path.endsWith('KEY.md'))!.bytes);
    expect(key).toContain('STALE: this result is for digest 000000000000');
    expect(rehearsalEvidence(report('other', packet.digest), packet)).toBeUndefined();
  });

  it('refuses what the candidate zip refuses, in every tree', async () => {
    const { packet, read } = memPacket(() => ({ 'hidden/.env': 'X=1\n', 'mutants/drops-minutes/id_ed25519': 'k\n' }));
    const { zip, diagnostics } = await buildReviewerBundle(packet, read);
    expect(zip).toBeUndefined();
    expect(diagnostics.map((d) => `${d.code} ${d.file}`)).toEqual(['PK306 packets/mem/hidden/.env', 'PK307 packets/mem/mutants/drops-minutes/id_ed25519']);
  });
});
