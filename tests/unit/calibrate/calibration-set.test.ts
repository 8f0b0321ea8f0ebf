import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { calibrationName, calibrationOrder, calibrationReadme, calibrationSubmissions, expectedOf, type CalibrationKey } from '../../../src/calibrate/calibration-set.ts';
import type { Scorecard } from '../../../src/judge/scorecard.ts';
import { loadPackets } from '../../../src/packets/load.ts';
import type { CodePacket } from '../../../src/packets/packet.ts';
import { tempPackets, type TempPackets } from '../../support/packet-fixtures.ts';

let t: TempPackets;
let packet: CodePacket;

beforeAll(async () => {
  t = await tempPackets();
  await t.add('scaffold');
  packet = (await loadPackets({ packetsDir: t.packets, cwd: t.root })).packets.find((p) => p.id === 'scaffold') as CodePacket;
});
afterAll(() => t.dispose());

/** A zip's entries and their text. */
function unzip(bytes: Uint8Array): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(Buffer.from(bytes), { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out = new Map<string, string>();
      zip.on('entry', (e: yauzl.Entry) =>
        zip.openReadStream(e, async (err2, stream) => {
          if (err2 || !stream) return reject(err2);
          const chunks: Buffer[] = [];
          for await (const c of stream) chunks.push(c as Buffer);
          out.set(e.fileName, Buffer.concat(chunks).toString('utf8'));
          zip.readEntry();
        }),
      );
      zip.on('end', () => resolve(out));
      zip.readEntry();
    });
  });
}

describe('the calibration set', () => {
  it('orders the submissions by the seed alone: the same seed the same order, another seed another', () => {
    const sources = ['sample', 'mutant:a', 'mutant:b', 'mutant:c', 'mutant:d'] as const;
    const once = calibrationOrder(sources, 'seed-1');
    expect(calibrationOrder([...sources].reverse(), 'seed-1')).toEqual(once);
    expect([...once].sort()).toEqual([...sources].sort());
    const orders = new Set(['seed-1', 'seed-2', 'seed-3', 'seed-4'].map((s) => calibrationOrder(sources, s).join()));
    expect(orders.size).toBeGreaterThan(1);
  });

  it('names them cal-01, cal-02 ..., with as many digits as the count needs', () => {
    expect([0, 1, 8].map((i) => calibrationName(i, 9))).toEqual(['cal-01', 'cal-02', 'cal-09']);
    expect(calibrationName(4, 120)).toBe('cal-005');
  });

  it('lays the sample and each mutant over the candidate zip, entries at the root, nothing of their origin in a name', async () => {
    const { submissions, diagnostics } = await calibrationSubmissions(packet, `${t.packets}/scaffold`, 'fixed');
    expect(diagnostics).toEqual([]);
    expect(submissions.map((s) => s.name)).toEqual(['cal-01', 'cal-02', 'cal-03']);
    expect(submissions.map((s) => s.source).sort()).toEqual(['mutant:accepts-garbage', 'mutant:drops-minutes', 'sample']);
    const sample = await unzip(submissions.find((s) => s.source === 'sample')!.bytes);
    expect(sample.get('README.md')).toContain(`Digest: \`${packet.digest}\``);
    expect([...sample.keys()].every((p) => !p.startsWith('scaffold-'))).toBe(true);
    expect(sample.get('src/duration.py')).toBe(await t.read('scaffold', 'sample/src/duration.py'));
    const mutant = await unzip(submissions.find((s) => s.source === 'mutant:drops-minutes')!.bytes);
    expect(mutant.get('src/duration.py')).toBe(await t.read('scaffold', 'mutants/drops-minutes/src/duration.py'));
    // Deterministic: the same packet and seed give the same bytes.
    const again = await calibrationSubmissions(packet, `${t.packets}/scaffold`, 'fixed');
    expect(again.submissions.map((s) => s.sha256)).toEqual(submissions.map((s) => s.sha256));
  });

  it("expects what the rehearsal expects: reviewer rows at their best (a cap's ceiling), then the bar and the vetoes", () => {
    const row = (id: string, max: number, score: number | null, auto: string | null, cap: { mode: string; max: number } | null = null) => ({ id, criterion: id, max, auto, score, evidence: null, cap });
    const card = (rows: ReturnType<typeof row>[], verdict = 'CAUGHT') => ({ verdict, rows }) as unknown as Scorecard;
    const sample = expectedOf(packet, 'sample', card([row('correctness', 3, 3, 'tests'), row('refusal', 3, null, null), row('notes', 2, null, null)], 'PASS'));
    expect(sample).toEqual({ decision: 'hire', reason: 'the sample solution, graded PASS; every reviewer row at its best allowed score: 8 of 8 clears the hire bar of 6', scores: { correctness: 3 } });
    const capped = expectedOf(packet, 'mutant:accepts-garbage', card([row('correctness', 3, 3, 'tests'), row('refusal', 3, null, null, { mode: 'accepts-garbage', max: 0 }), row('notes', 2, null, null)]));
    expect(capped.decision).toBe('no-hire');
    expect(capped.reason).toBe('the mutant of failure mode "accepts-garbage", graded CAUGHT; every reviewer row at its best allowed score: veto on refusal (0 <= 0)');
    expect(capped.scores).toEqual({ correctness: 3, refusal: 0 });
  });

  it('writes a README that keeps the key with the hiring lead', () => {
    const key: CalibrationKey = { kind: 'packet-kit/calibration-key', schemaVersion: 1, packet: { id: 'p', version: '1.0.0', digest: 'd'.repeat(64) }, submissions: [] };
    const text = calibrationReadme(key, 'grades/p');
    expect(text).toContain('`reviewer/grades/p/` holds their scorecards and `summary.json`');
    expect(text).toContain('never send it to a reviewer');
    expect(text).toContain('`/packets/p/rubric/`');
  });
});
