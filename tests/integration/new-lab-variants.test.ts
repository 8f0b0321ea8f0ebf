import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import type { RehearsalReport } from '../../src/rehearse/report.ts';

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

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'packet-kit-new-lab-variants-'));
  const io = memoryIo(root, { env: env() });
  made = { code: await runCli(['new', 'slug-limits', '--kind', 'lab', '--variants'], io), stdout: io.stdout, stderr: io.stderr };
  const cio = memoryIo(root, { env: env() });
  checked = { code: await runCli(['check', '--format', 'json'], cio), stdout: cio.stdout };
  const rio = memoryIo(root, { env: env() });
  const code = await runCli(['rehearse', '--report', 'out/r.json'], rio);
  rehearsed = { code, stdout: rio.stdout, report: JSON.parse(await readFile(path.join(root, 'out/r.json'), 'utf8')) as RehearsalReport };
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
    for (const l of leaks) expect([l.id, l.ok, l.actual]).toEqual([l.id, true, expect.stringMatching(/^failed: /)]);
  });
});
