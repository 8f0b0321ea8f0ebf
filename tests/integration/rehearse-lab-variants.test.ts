import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import type { PacketReport, RehearsalReport } from '../../src/rehearse/report.ts';
import { promptOnlyLeaks } from '../support/variant-leaks.ts';

/**
 * `packet rehearse` on labs with variants (tests/fixtures/variants/packets). A lab has no sample:
 * the leak check lays the key's answer of one variant (its suggestions' right choices composed
 * into the files they change) over the next variant's starter, judged with its tests, hidden
 * ones included.
 *
 * - variant-lab-sheets: the limit reaches the starter, a suggestion and the tests; v1's key,
 *   whose MAX_LENGTH is v1's limit, fails v2's tests.
 * - variant-lab-prompt-only: the limit reaches only the prompt; every variant's key is the same
 *   code and passes every variant's tests (PK159), though each variant on its own is proven.
 */
const FIXTURES = fileURLToPath(new URL('../fixtures/variants/packets/', import.meta.url));
const IDS = ['variant-lab-sheets', 'variant-lab-prompt-only'];

function env(): Record<string, string | undefined> {
  const { LLM_ENDPOINT: _a, OPENAI_BASE_URL: _b, LLM_MODEL: _c, ...rest } = process.env;
  return rest;
}

let root: string;
const runs: { code: number; stdout: string; report: RehearsalReport }[] = [];
const packetOf = (n: number, id: string): PacketReport => runs[n]!.report.packets.find((p) => p.id === id)!;

async function rehearse(n: number) {
  const io = memoryIo(root, { env: env() });
  const code = await runCli(['rehearse', '--report', `out/r${n}.json`], io);
  const report = JSON.parse(await readFile(path.join(root, `out/r${n}.json`), 'utf8')) as RehearsalReport;
  runs.push({ code, stdout: io.stdout, report });
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'packet-kit-rehearse-lab-variants-'));
  for (const id of IDS) await cp(path.join(FIXTURES, id), path.join(root, 'packets', id), { recursive: true });
  await rehearse(0);
  await rehearse(1);
}, 120_000);

afterAll(() => rm(root, { recursive: true, force: true }));

const LAB_CHECKS = ['lab:key', 'lab:reject:separators', 'lab:reject:length-cut', 'lab:wrong:length-cut:accept', 'lab:all-offered', 'lab:plausible', 'lab:calibration', 'lab:table'];

describe('packet rehearse on a lab with variants', () => {
  it('proves every variant as a lab: its key green, each wrong choice caught, its own table computed', () => {
    for (const id of IDS) {
      const p = packetOf(0, id);
      expect(p.variants!.map((v) => v.id)).toEqual(['v1', 'v2', 'v3']);
      for (const v of p.variants!) {
        expect(v.status, `${id} ${v.id}`).toBe('fails-closed');
        for (const c of LAB_CHECKS) expect(p.checks.find((x) => x.id === `${v.id}:${c}`), `${id} ${v.id}:${c}`).toMatchObject({ ok: true, variant: { id: v.id } });
        expect(p.checks.find((x) => x.id === `${v.id}:lab:table`)!.actual).toMatch(/^27 combinations/);
      }
    }
  });

  it("runs the leak check on a good lab with the key's answer: red on the next variant's tests", () => {
    const p = packetOf(0, 'variant-lab-sheets');
    expect(p.status, p.defects.join('\n')).toBe('fails-closed');
    const leaks = p.checks.filter((c) => c.kind === 'leak');
    expect(leaks.map((c) => [c.id, c.ok, c.code])).toEqual([
      ['leak:v1>v2', true, undefined],
      ['leak:v2>v3', true, undefined],
    ]);
    for (const l of leaks) {
      expect(l.expected).toMatch(/^red: the key's answer of v\d fails the tests of v\d, hidden ones included$/);
      // The key's code ran against the other variant's tests: every test ran, and the limit's tests failed.
      expect(l.actual).toMatch(/^failed: 7 ran, [1-7] failed/);
      expect(l.tests!.ran).toBe(7);
      // The key's separators are in (the bare starter would fail these); the other variant's limit is what fails, a hidden test with it.
      const failing = l.tests!.failing ?? [];
      expect(failing).toContain('tests.test_slug.SlugTest.test_long_titles_fit');
      expect(failing.some((t) => t.startsWith('tests.test_hidden_slug.'))).toBe(true);
      for (const t of ['test_lowercase_words_joined_by_dashes', 'test_punctuation_is_one_separator', 'test_no_dash_at_either_end']) expect(failing).not.toContain(`tests.test_slug.SlugTest.${t}`);
    }
    expect(p.defects.some((d) => d.startsWith('PK159'))).toBe(false);
  });

  it("flags a lab whose parameter reaches only the prompt: the key's answer of one variant passes the next one's tests (PK159)", () => {
    const p = packetOf(0, 'variant-lab-prompt-only');
    const { leaks, v1, v2 } = promptOnlyLeaks(p);
    expect(leaks[0]!.defect).toContain(`The key's answer of variant v1 (limit=${v1.values.limit}), laid over the starter of variant v2 (limit=${v2.values.limit}), passes its tests, hidden ones included`);
    expect(leaks[0]!.actual).toMatch(/^passed: 7 ran, 0 failed/);
    expect(leaks[0]!.hint).toContain('In a lab');
    // Each variant on its own is proven: only the leak check sees this defect.
    expect(p.checks.filter((c) => !c.ok).every((c) => c.kind === 'leak')).toBe(true);
    expect(runs[0]!.code).toBe(1);
    expect(runs[0]!.stdout).toContain("PK159 The key's answer of variant v1");
  });

  it('caches the leak checks by the two digests: the second run re-runs nothing, with the same verdicts', () => {
    for (const id of IDS) {
      const [a, b] = [packetOf(0, id), packetOf(1, id)];
      expect(a.cached).toBe(false);
      expect(b.cached).toBe(true);
      expect(b.checks.map((c) => [c.id, c.ok, c.code])).toEqual(a.checks.map((c) => [c.id, c.ok, c.code]));
    }
  });
});
