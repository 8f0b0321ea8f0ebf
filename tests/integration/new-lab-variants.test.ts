import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { folderReader } from '../../src/grade/grade-variants.ts';
import type { Scorecard } from '../../src/judge/scorecard.ts';
import { loadPackets } from '../../src/packets/load.ts';
import type { Lab } from '../../src/packets/packet.ts';
import { packetVariants, type PacketVariant } from '../../src/packets/variants-render.ts';
import type { RehearsalReport } from '../../src/rehearse/report.ts';
import { hardCodedCut, variantSheet } from '../support/lab-variant-sheets.ts';

/**
 * `packet new --kind lab --variants` end to end: the scaffold checks clean and its rehearsal is
 * green in the sandbox, every variant proven on its own (the key green, each wrong choice caught,
 * the table computed) and the leak check red for each pair (the limit reaches the tests).
 */
function env(): Record<string, string | undefined> {
  const { LLM_ENDPOINT: _a, OPENAI_BASE_URL: _b, LLM_MODEL: _c, ...rest } = process.env;
  return rest;
}

let root: string;
let made: { code: number; stdout: string; stderr: string };
let checked: { code: number; stdout: string };
let rehearsed: { code: number; stdout: string; report: RehearsalReport };
let graded: { own: Scorecard; copied: Scorecard };

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'packet-kit-new-lab-variants-'));
  const io = memoryIo(root, { env: env() });
  made = { code: await runCli(['new', 'slug-limits', '--kind', 'lab', '--variants'], io), stdout: io.stdout, stderr: io.stderr };
  const cio = memoryIo(root, { env: env() });
  checked = { code: await runCli(['check', '--format', 'json'], cio), stdout: cio.stdout };
  const rio = memoryIo(root, { env: env() });
  const code = await runCli(['rehearse', '--report', 'out/r.json'], rio);
  rehearsed = { code, stdout: rio.stdout, report: JSON.parse(await readFile(path.join(root, 'out/r.json'), 'utf8')) as RehearsalReport };
  // The limit reaches the tests: v1's length cut with v1's limit typed in is green as v1 and, sent as v2, red and flagged.
  const loaded = await loadPackets({ packetsDir: 'packets', cwd: root });
  const lab = loaded.packets.find((p) => p.id === 'slug-limits') as Lab;
  const [v1, v2] = (await packetVariants(lab, folderReader(path.join(root, 'packets/slug-limits')))).map((r) => r.variant!) as [PacketVariant, PacketVariant];
  await mkdir(path.join(root, 'sheets'));
  await writeFile(path.join(root, 'sheets/own.json'), JSON.stringify(variantSheet(v1, {}, { 'length-cut': hardCodedCut(v1) })));
  await writeFile(path.join(root, 'sheets/copied.json'), JSON.stringify(variantSheet(v2, {}, { 'length-cut': hardCodedCut(v1) })));
  await runCli(['grade', 'slug-limits', 'sheets/own.json', 'sheets/copied.json'], memoryIo(root, { env: env() }));
  const card = async (n: string) => JSON.parse(await readFile(path.join(root, 'out/grades/slug-limits', n, 'scorecard.json'), 'utf8')) as Scorecard;
  graded = { own: await card('own'), copied: await card('copied') };
}, 120_000);

afterAll(() => rm(root, { recursive: true, force: true }));

describe('packet new --kind lab --variants', () => {
  it('scaffolds a lab that checks clean', () => {
    expect(made.code, made.stderr).toBe(0);
    expect(checked.code, checked.stdout).toBe(0);
    expect(JSON.parse(checked.stdout).diagnostics).toEqual([]);
  });

  it('rehearses green: every variant fails closed, and one variant’s key is red on the next', () => {
    expect(rehearsed.code, rehearsed.stdout).toBe(0);
    const p = rehearsed.report.packets.find((x) => x.id === 'slug-limits')!;
    expect(p.status, p.defects.join('\n')).toBe('fails-closed');
    expect(p.variants?.map((v) => [v.id, v.values.limit, v.status])).toEqual([
      ['v1', expect.any(Number), 'fails-closed'],
      ['v2', expect.any(Number), 'fails-closed'],
      ['v3', expect.any(Number), 'fails-closed'],
    ]);
    expect(new Set(p.variants!.map((v) => v.values.limit)).size).toBe(3);
    const ids = p.checks.map((c) => c.id);
    for (const v of ['v1', 'v2', 'v3']) for (const c of ['lab:key', 'lab:wrong:length-cut:accept', 'lab:table']) expect(ids).toContain(`${v}:${c}`);
    const leaks = p.checks.filter((c) => c.id.startsWith('leak:'));
    expect(leaks.length).toBeGreaterThan(0);
    // A lab has no sample: the rehearsal's leak check lays the starter, so the grade below proves the limit reaches the tests.
    for (const l of leaks) expect([l.id, l.ok, l.actual]).toEqual([l.id, true, expect.stringMatching(/^failed: /)]);
  });

  it('puts the limit in the tests: a hand edit with v1’s limit typed in passes as v1 and, as v2, fails with PK584 naming v1', () => {
    expect(graded.own).toMatchObject({ verdict: 'PASS', variant: { id: 'v1' } });
    expect(graded.copied).toMatchObject({ graded: true, variant: { id: 'v2', leakCheck: { passed: 'v1' } }, decision: { state: 'no-hire' } });
    expect(graded.copied.verdict).not.toBe('PASS');
    expect(graded.copied.findings.map((f) => f.code)).toContain('PK584');
  });
});
