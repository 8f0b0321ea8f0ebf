import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { loadPackets } from '../../src/packets/load.ts';
import { codePackets } from '../../src/packets/packet.ts';
import { packetVariants } from '../../src/packets/variants-render.ts';
import type { PacketReport, RehearsalReport } from '../../src/rehearse/report.ts';
import { promptOnlyLeaks } from '../support/variant-leaks.ts';

/**
 * `packet rehearse` on packets with variants (tests/fixtures/variants/packets): every variant is
 * rehearsed as a packet of its own and cached by its digest, the leak check lays one variant's
 * sample over the next variant's starter and hidden tests, and a variant that fails closed worse
 * than the others is named with its values.
 *
 * - variant-planted: every parameter reaches the tests; fails closed in every variant.
 * - variant-prompt-only: its one parameter reaches only the prompt; the leak check must catch it.
 * - variant-weak: the test that kills drops-minutes reads a parameter, and v3's value (7s) is one
 *   the mutant gets right: its mutant escapes in v3 only.
 */
const FIXTURES = fileURLToPath(new URL('../fixtures/variants/packets/', import.meta.url));
const IDS = ['variant-planted', 'variant-prompt-only', 'variant-weak'];

function env(): Record<string, string | undefined> {
  const { LLM_ENDPOINT: _a, OPENAI_BASE_URL: _b, LLM_MODEL: _c, ...rest } = process.env;
  return rest;
}

let root: string;
const runs: { code: number; stdout: string; report: RehearsalReport; xml?: string }[] = [];
const packetOf = (n: number, id: string): PacketReport => runs[n]!.report.packets.find((p) => p.id === id)!;

async function rehearse(n: number, junit: boolean) {
  const io = memoryIo(root, { env: env() });
  const code = await runCli(['rehearse', '--report', `out/r${n}.json`, ...(junit ? ['--junit', `out/j${n}.xml`] : [])], io);
  const report = JSON.parse(await readFile(path.join(root, `out/r${n}.json`), 'utf8')) as RehearsalReport;
  const xml = junit ? await readFile(path.join(root, `out/j${n}.xml`), 'utf8') : undefined;
  runs.push({ code, stdout: io.stdout, report, ...(xml ? { xml } : {}) });
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'packet-kit-rehearse-variants-'));
  for (const id of IDS) await cp(path.join(FIXTURES, id), path.join(root, 'packets', id), { recursive: true });
  await rehearse(0, true);
  await rehearse(1, false);
}, 120_000);

afterAll(() => rm(root, { recursive: true, force: true }));

const CHECKS = ['floor', 'sample', 'mutant:drops-minutes', 'mutant:accepts-garbage', 'signal:drops-minutes', 'signal:accepts-garbage', 'calibration:sample', 'calibration:drops-minutes', 'calibration:accepts-garbage'];

describe('packet rehearse on a packet with variants', () => {
  it('rehearses every variant as a packet of its own, each under its own digest and values', async () => {
    const planted = packetOf(0, 'variant-planted');
    expect(planted.status, planted.defects.join('\n')).toBe('fails-closed');
    const loaded = await loadPackets({ packetsDir: 'packets', cwd: root, ids: ['variant-planted'] });
    const packet = codePackets(loaded.packets)[0]!;
    const rendered = await packetVariants(packet, async (p) => new Uint8Array(await readFile(path.join(root, 'packets/variant-planted', p))));
    expect(planted.variants?.map((v) => [v.id, v.digest, v.values])).toEqual(rendered.map((r) => [r.id, r.variant!.digest, r.values]));
    expect(new Set(planted.variants!.map((v) => v.digest)).size).toBe(3);
    for (const v of planted.variants!) {
      expect(v.status).toBe('fails-closed');
      for (const id of CHECKS) {
        const check = planted.checks.find((c) => c.id === `${v.id}:${id}`);
        expect(check, `${v.id}:${id}`).toMatchObject({ ok: true, variant: { id: v.id, values: v.values } });
      }
    }
    // Each variant's hidden tests ran: its sample ran more tests than its floor.
    for (const v of planted.variants!) {
      const floor = planted.checks.find((c) => c.id === `${v.id}:floor`)!;
      const sample = planted.checks.find((c) => c.id === `${v.id}:sample`)!;
      expect(sample.tests!.ran!).toBeGreaterThan(floor.tests!.ran!);
    }
  });

  it("rehearses the first variant's scripted replies, their placeholders written in: the sample passes and every failure reply is caught", () => {
    const planted = packetOf(0, 'variant-planted');
    const replies = planted.checks.filter((c) => c.kind === 'reply');
    expect(replies.map((c) => c.id).sort()).toEqual(['v1:reply:accepts-garbage', 'v1:reply:drops-minutes', 'v1:reply:sample']);
    for (const r of replies) {
      expect(r.ok, `${r.id}: ${r.actual}`).toBe(true);
      expect(r.model!.verdict).toMatch(r.id === 'v1:reply:sample' ? /^PASS$/ : /^(CAUGHT|FALSE-GREEN)$/);
    }
  });

  it('runs the leak check on each variant against the next: a sample of one variant fails the next one\'s tests', () => {
    const planted = packetOf(0, 'variant-planted');
    const leaks = planted.checks.filter((c) => c.kind === 'leak');
    expect(leaks.map((c) => [c.id, c.ok])).toEqual([
      ['leak:v1>v2', true],
      ['leak:v2>v3', true],
    ]);
    expect(leaks[0]!.actual).toMatch(/^failed: /);
  });

  it('flags a packet whose parameters reach only the prompt: the sample of one variant passes the next one\'s tests (PK159)', () => {
    const p = packetOf(0, 'variant-prompt-only');
    const { leaks, v1, v2 } = promptOnlyLeaks(p);
    expect(leaks[0]!.defect).toContain(`variant v1 (limit=${v1.values.limit})`);
    expect(leaks[0]!.defect).toContain(`variant v2 (limit=${v2.values.limit})`);
    expect(leaks[0]!.hint).toContain('Make a hidden test depend on a parameter');
    // Each variant on its own fails closed: only the leak check can see this defect.
    expect(p.variants!.every((v) => v.status === 'fails-closed')).toBe(true);
    expect(p.checks.filter((c) => !c.ok).every((c) => c.kind === 'leak')).toBe(true);
  });

  it('names the variant that fails closed worse than the others, with its values (PK158)', () => {
    const p = packetOf(0, 'variant-weak');
    expect(p.status).toBe('defect');
    expect(p.variants!.map((v) => [v.id, v.status, v.values.case])).toEqual([
      ['v1', 'fails-closed', '1h30m=5400'],
      ['v2', 'fails-closed', '1h30m=5400'],
      ['v3', 'defect', '7s=7'],
    ]);
    const escaped = p.checks.find((c) => c.id === 'v3:mutant:drops-minutes')!;
    expect(escaped).toMatchObject({ ok: false, code: 'PK446', variant: { id: 'v3', values: { case: '7s=7', func: 'to_seconds' } } });
    expect(escaped.defect).toMatch(/^Variant v3 \(case=7s=7, func=to_seconds\): /);
    const weak = p.checks.filter((c) => c.kind === 'variant');
    expect(weak.map((c) => [c.id, c.code])).toEqual([['variant:v3', 'PK158']]);
    expect(weak[0]!.defect).toContain('Variant v3 (case=7s=7, func=to_seconds) fails closed worse than the others: mutant:drops-minutes fails in it and holds in v1, v2');
    expect(weak[0]!.hint).toBeTruthy();
    expect(p.checks.find((c) => c.id === 'v1:mutant:drops-minutes')!.ok).toBe(true);
  });

  it('names the variants in the terminal and the JUnit reports', () => {
    const { stdout, xml, code } = runs[0]!;
    expect(code).toBe(1);
    expect(stdout).toContain('variant v3 (case=7s=7, func=to_seconds): defect');
    expect(stdout).toContain('PK158 Variant v3 (case=7s=7, func=to_seconds) fails closed worse than the others');
    expect(stdout).toContain('PK159 The sample of variant v1');
    type Case = { name: string; failure?: { type: string } };
    type Suite = { name: string; properties: { property: { name: string; value: string }[] }; testcase: Case[] };
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => ['testsuite', 'testcase', 'property'].includes(n) }).parse(xml!) as { testsuites: { testsuite: Suite[] } };
    const weak = doc.testsuites.testsuite.find((s) => s.name === 'variant-weak')!;
    expect(weak.properties.property.find((x) => x.name === 'variant v3')!.value).toMatch(/^case=7s=7, func=to_seconds; digest [0-9a-f]{64}; defect$/);
    expect(weak.testcase.find((c) => c.name === 'variant:v3')!.failure!.type).toBe('PK158');
    expect(weak.testcase.find((c) => c.name === 'v2:floor')!.failure).toBeUndefined();
    const leaky = doc.testsuites.testsuite.find((s) => s.name === 'variant-prompt-only')!;
    expect(leaky.testcase.find((c) => c.name === 'leak:v1>v2')!.failure!.type).toBe('PK159');
  });

  it('re-runs nothing the second time: every variant and every leak check comes from the cache, with the same verdicts', () => {
    const second = runs[1]!.report;
    expect(second.summary.cached).toBe(3);
    for (const id of IDS) {
      const [a, b] = [packetOf(0, id), packetOf(1, id)];
      expect(a.cached).toBe(false);
      expect(a.variants!.some((v) => v.cached)).toBe(false);
      expect(b.cached).toBe(true);
      expect(b.variants!.every((v) => v.cached)).toBe(true);
      expect(b.checks.map((c) => [c.id, c.ok, c.code])).toEqual(a.checks.map((c) => [c.id, c.ok, c.code]));
    }
    expect(runs[1]!.stdout).toContain('(3 cached)');
  });
});
