import { describe, expect, it } from 'vitest';
import { readZipEntries } from '../../../src/bundle/canary.ts';
import { drillKeyMarkdown } from '../../../src/bundle/lab-key.ts';
import { buildReviewerBundle, keyMarkdown, mutationEvidence, rehearsalEvidence } from '../../../src/bundle/reviewer-bundle.ts';
import { loadPackets } from '../../../src/packets/load.ts';
import { packetsOfKind } from '../../../src/packets/packet.ts';
import { reportElementsScript } from '../../../src/mutate/html-report.ts';
import { summarize, type MutantRecord, type MutationReport } from '../../../src/mutate/report.ts';
import type { RehearsalReport } from '../../../src/rehearse/report.ts';
import { memPacket } from './helpers.ts';

function report(id: string, digest: string): RehearsalReport {
  return {
    schemaVersion: 3,
    date: '2026-11-29T12:00:00.000Z',
    kit: { version: '0.1.0', fingerprint: 'f'.repeat(64) },
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

  it("carries the rubric's reviewer-only sections in KEY.md, under their own heading", async () => {
    const { packet, read } = memPacket((f) => ({ 'rubric.mdx': `${f['rubric.mdx']}\n### Fast path\n\nThe hidden test feeds 7h7m7s.\n\n<ReviewerNotes>\nThe mutant drops the anchored regex.\n</ReviewerNotes>\n` }));
    const { zip } = await buildReviewerBundle(packet, read);
    const key = new TextDecoder().decode((await readZipEntries(zip!.bytes)).find((e) => e.path.endsWith('KEY.md'))!.bytes);
    const notes = key.slice(key.indexOf('\n## Reviewer notes\n'), key.indexOf('\n## Sample solution\n'));
    expect(notes).toContain('Read `NOTES.md` first, then the diff of `src/duration.py`. Score refusal by trying one bad');
    expect(notes).toContain('### Fast path\n\nThe hidden test feeds 7h7m7s.');
    expect(notes).toContain('The mutant drops the anchored regex.');
    expect(notes).not.toContain('<ReviewerNotes>');
    expect(key.indexOf('\n## Rubric\n')).toBeLessThan(key.indexOf('\n## Reviewer notes\n'));
  });

  it("gives a drill's KEY.md its rubric's reviewer notes", async () => {
    const { packets } = await loadPackets({ packetsDir: 'packets', cwd: process.cwd(), ids: ['drill-retry-backoff'] });
    const key = drillKeyMarkdown(packetsOfKind(packets, 'drill')[0]!);
    expect(key).toContain('## Reviewer notes');
    expect(key).toContain('Read the reasons before the verdicts.');
  });

  it("names in KEY.md the page of the site where the packet's answers are scored", async () => {
    const { packet } = memPacket();
    expect(keyMarkdown(packet, {})).toContain("- Scoring page on the packet site: `/packets/mem/rubric/` (import a submission's scorecard.json");
    const { packets } = await loadPackets({ packetsDir: 'packets', cwd: process.cwd(), ids: ['lab-free-time', 'drill-retry-backoff'] });
    const lab = packetsOfKind(packets, 'lab')[0]!;
    expect(keyMarkdown(lab, {})).toContain("- Scoring page on the packet site: `/labs/lab-free-time/score/` (import LAB-KEY.json from this bundle and the candidate's answer sheet");
    expect(keyMarkdown(lab, {})).not.toContain('/packets/lab-free-time/rubric/');
    expect(drillKeyMarkdown(packetsOfKind(packets, 'drill')[0]!)).toContain("- Scoring page on the packet site: `/drills/drill-retry-backoff/score/` (import DRILL-KEY.json from this bundle");
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

  it('carries the last mutation run: the score and the survivors in KEY.md, the reports beside it', async () => {
    const { packet, read } = memPacket();
    const mutants: MutantRecord[] = [
      { id: 1, fault: 'minutes count six seconds', path: 'src/duration.py', status: 'killed', reason: 'r', turn: 1 },
      { id: 2, fault: 'text that is not a string reaches the regex', path: 'src/duration.py', status: 'survived', reason: 'r', turn: 1 },
      { id: 3, fault: 'an import that does not exist', path: 'src/duration.py', status: 'crashed', reason: 'r', turn: 1 },
    ];
    const report = { packet: 'mem', digest: packet.digest, model: 'scripted:mem/mutants', date: '2026-11-29T12:00:00.000Z', verdict: 'classified', mutants, summary: summarize(3, mutants) } as unknown as MutationReport;
    // The page as written carries the elements' script: the secret scan must take it as it is.
    const html = `<!DOCTYPE html><script>${await reportElementsScript()}</script>`;
    const mutation = mutationEvidence({ report, schemaJson: '{"schemaVersion":"2"}\n', html }, packet)!;
    const { zip, diagnostics } = await buildReviewerBundle(packet, read, { mutation });
    expect(diagnostics).toEqual([]);
    const entries = await readZipEntries(zip!.bytes);
    expect(entries.map((e) => e.path)).toEqual(expect.arrayContaining(['mem-0.1.0/MUTATION.json', 'mem-0.1.0/MUTATION.html']));
    const key = new TextDecoder().decode(entries.find((e) => e.path.endsWith('KEY.md'))!.bytes);
    expect(key).toContain('## Mutation testing\n\nMutation score 50%: 3 mutants: 1 killed, 1 survived, 1 crashed, 0 invalid. Model `scripted:mem/mutants`, 2026-11-29. Every mutant, its status and its diff: `MUTATION.json` and `MUTATION.html`.');
    expect(key).toContain('Survivors (behaviour no test checks):\n\n- Mutant 2, `src/duration.py`: text that is not a string reaches the regex');
    expect(mutationEvidence({ report: { ...report, digest: '0'.repeat(64) } }, packet)!.stale).toBe(true);
    expect(mutationEvidence({ report: { ...report, packet: 'other' } }, packet)).toBeUndefined();
    const { zip: plain } = await buildReviewerBundle(packet, read);
    const plainKey = new TextDecoder().decode((await readZipEntries(plain!.bytes)).find((e) => e.path.endsWith('KEY.md'))!.bytes);
    expect(plainKey).toContain('No mutation run: `npx packet mutate mem`');
  });

  it('refuses what the candidate zip refuses, in every tree', async () => {
    const { packet, read } = memPacket(() => ({ 'hidden/.env': 'X=1\n', 'mutants/drops-minutes/id_ed25519': 'k\n' }));
    const { zip, diagnostics } = await buildReviewerBundle(packet, read);
    expect(zip).toBeUndefined();
    expect(diagnostics.map((d) => `${d.code} ${d.file}`)).toEqual(['PK306 packets/mem/hidden/.env', 'PK307 packets/mem/mutants/drops-minutes/id_ed25519']);
  });
});
