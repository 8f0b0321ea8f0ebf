import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { diffLines } from 'diff';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { folderReader } from '../../src/grade/grade-variants.ts';
import type { MutationReport } from '../../src/mutate/report.ts';
import { loadPackets } from '../../src/packets/load.ts';
import { hasCode } from '../../src/packets/packet.ts';
import { packetVariants } from '../../src/packets/variants-render.ts';

/**
 * `packet mutate` on every shipped take-home, each of which carries scripted mutants
 * (replies/mutants.md), served by the embedded endpoint and judged in the sandbox. Each run
 * classifies every mutant, its counts add up, and each survivor is one the packet's sample.mdx
 * explains under "What the tests leave open", by the very change the mutant makes. The runs go
 * two at a time, from one beforeAll.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The outcome of each packet's scripted mutants today, in order; a change here is a change in the tests or the mutants. */
const EXPECTED = {
  'red-log-gate': { killed: 6, survived: 0, statuses: ['killed', 'killed', 'killed', 'killed', 'killed', 'killed'] },
  'fetch-retry-ticket': { killed: 6, survived: 0, statuses: ['killed', 'killed', 'killed', 'killed', 'killed', 'killed'] },
  'loop-budget-ledger': { killed: 5, survived: 1, statuses: ['killed', 'killed', 'killed', 'survived', 'killed', 'killed'] },
  'agent-budget-receipt': { killed: 6, survived: 0, statuses: ['killed', 'killed', 'killed', 'killed', 'killed', 'killed'] },
  'dead-target-abort': { killed: 6, survived: 0, statuses: ['killed', 'killed', 'killed', 'killed', 'killed', 'killed'] },
  'idempotent-intake': { killed: 6, survived: 0, statuses: ['killed', 'killed', 'killed', 'killed', 'killed', 'killed'] },
  'log-labeler-payload': { killed: 6, survived: 0, statuses: ['killed', 'killed', 'killed', 'killed', 'killed', 'killed'] },
} as const;
type Id = keyof typeof EXPECTED;
const IDS = Object.keys(EXPECTED) as Id[];

let out: string;
const runs = new Map<Id, { code: number; stdout: string; stderr: string; report: MutationReport; printed: MutationReport }>();

function env(): Record<string, string | undefined> {
  const { LLM_ENDPOINT: _a, OPENAI_BASE_URL: _b, OPENAI_API_KEY: _c, ...rest } = process.env;
  return rest;
}

beforeAll(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'packet-kit-mutate-shipped-'));
  const queue = [...IDS];
  const worker = async (): Promise<void> => {
    for (let id = queue.shift(); id; id = queue.shift()) {
      const io = memoryIo(ROOT, { env: env() });
      const code = await runCli(['mutate', id, '--out', path.join(out, id), '--format', 'json', '--jobs', '2'], io);
      const report = JSON.parse(await readFile(path.join(out, id, 'report.json'), 'utf8')) as MutationReport;
      runs.set(id, { code, stdout: io.stdout, stderr: io.stderr, report, printed: JSON.parse(io.stdout) as MutationReport });
    }
  };
  await Promise.all([worker(), worker()]);
}, 180_000);

afterAll(() => rm(out, { recursive: true, force: true }));

/** The backticked spans of sample.mdx's "What the tests leave open" section. */
async function explained(id: Id): Promise<string[]> {
  const text = await readFile(path.join(ROOT, 'packets', id, 'sample.mdx'), 'utf8');
  const section = /^#+ What the tests leave open\n([\s\S]*?)(?=^#|(?![\s\S]))/m.exec(text)?.[1] ?? '';
  return [...section.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!).filter((span) => span !== 'packet mutate');
}

/** The lines a mutant adds to the sample's file. */
async function addedLines(id: Id, file: string, code: string): Promise<string> {
  const sample = await readFile(path.join(ROOT, 'packets', id, 'sample', file), 'utf8');
  return diffLines(sample, code)
    .filter((part) => part.added)
    .map((part) => part.value)
    .join('');
}

it('pins every take-home the library ships, and no other packet', async () => {
  const takehomes: string[] = [];
  for (const entry of await readdir(path.join(ROOT, 'packets'), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const prompt = await readFile(path.join(ROOT, 'packets', entry.name, 'prompt.mdx'), 'utf8').catch(() => '');
    if (/^kind: takehome$/m.test(prompt)) takehomes.push(entry.name);
  }
  expect([...IDS].sort()).toEqual(takehomes.sort());
});

describe.each(IDS)('packet mutate %s (shipped, scripted mutants)', (id) => {
  it('exits 0 with every mutant classified, and prints report.json', () => {
    const run = runs.get(id)!;
    expect(run.code, run.stderr).toBe(0);
    expect(run.report.verdict).toBe('classified');
    expect(run.report.scripted).toBe(true);
    expect(run.report.model).toBe(`scripted:${id}/mutants`);
    expect(run.printed.summary).toEqual(run.report.summary);
  });

  it('has counts that add up to what was proposed, and the score of killed over judged', () => {
    const { summary, mutants } = runs.get(id)!.report;
    expect(summary.proposed).toBe(mutants.length);
    expect(summary.killed + summary.survived + summary.crashed + summary.invalid + summary.duplicates + summary.unjudged).toBe(summary.proposed);
    expect(summary.score).toBe(Math.round((summary.killed / (summary.killed + summary.survived)) * 1000) / 10);
  });

  it('kills and leaves alive exactly the mutants it does today', () => {
    const { summary, mutants } = runs.get(id)!.report;
    const expected = EXPECTED[id];
    expect(mutants.map((m) => m.status)).toEqual(expected.statuses);
    expect(summary).toMatchObject({ proposed: expected.statuses.length, killed: expected.killed, survived: expected.survived, crashed: 0, invalid: 0, duplicates: 0, unjudged: 0 });
    for (const m of mutants.filter((x) => x.status === 'killed')) expect(m.killedBy?.length, `#${m.id} ${m.fault}`).toBeGreaterThan(0);
  });

  it("leaves only survivors the sample explains, by the change they make, and warns of each", async () => {
    const run = runs.get(id)!;
    const spans = await explained(id);
    const survivors = run.report.mutants.filter((m) => m.status === 'survived');
    if (survivors.length) expect(spans, 'sample.mdx has no "What the tests leave open" section naming the change').not.toEqual([]);
    for (const m of survivors) {
      const added = await addedLines(id, m.path, m.code!);
      expect(
        spans.filter((span) => added.includes(span)),
        `survivor #${m.id} (${m.fault}) adds:\n${added}\nwhich no code span of sample.mdx's "What the tests leave open" (${spans.join(', ')}) names`,
      ).not.toEqual([]);
      expect(run.stderr).toContain(`PK623 warning Mutant #${m.id} of "${id}" survives every test, visible and held out: ${m.fault} (${m.path}).`);
    }
    expect(run.stderr.match(/PK623/g) ?? []).toHaveLength(survivors.length);
  });
});

describe('packet mutate on a shipped take-home with variants', () => {
  const WITH_VARIANTS = ['fetch-retry-ticket', 'dead-target-abort'] as const;

  it.each(WITH_VARIANTS)('%s is mutated as its variant v1: the report names v1\'s digest, and the run says so', async (id) => {
    const loaded = await loadPackets({ packetsDir: 'packets', cwd: ROOT, ids: [id] });
    const packet = loaded.packets.find((p) => p.id === id)!;
    if (!hasCode(packet)) throw new Error(`${id} is a take-home`);
    expect(packet.prompt.data.variants).toBeDefined();
    const [v1] = await packetVariants(packet, folderReader(path.join(ROOT, 'packets', id)), 1);
    const run = runs.get(id)!;
    expect(run.report.digest).toBe(v1!.variant!.digest);
    expect(run.report.digest).not.toBe(packet.digest);
    expect(run.stdout + run.stderr).toContain(`note: "${id}" has variants; mutants are proposed against variant v1's sample.`);
  });

  it('refuses --adopt, which would write variant v1\'s values into the packet, and writes nothing', async () => {
    const io = memoryIo(ROOT, { env: env() });
    const before = await readdir(path.join(ROOT, 'packets', 'fetch-retry-ticket', 'mutants'));
    const code = await runCli(['mutate', 'fetch-retry-ticket', '--out', path.join(out, 'fetch-retry-ticket'), '--adopt', '1', '--as', 'adopted-here'], io);
    expect(code).toBe(1);
    expect(io.stdout + io.stderr).toMatch(/"fetch-retry-ticket" has variants, and --adopt would write variant v1's values into mutants\/adopted-here\/\. Copy the mutant there by hand with its \[\[variant\.NAME\]\] placeholders/);
    expect(await readdir(path.join(ROOT, 'packets', 'fetch-retry-ticket', 'mutants'))).toEqual(before);
  });
});
