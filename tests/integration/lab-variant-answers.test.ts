import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeRun } from '../../src/judge/judge-run.ts';
import { loadPacketFiles, type PacketFiles } from '../../src/judge/workspace.ts';
import { composeLab } from '../../src/packets/lab-compose.ts';
import { loadPackets } from '../../src/packets/load.ts';
import { codePackets, labModelOf } from '../../src/packets/packet.ts';
import { packetVariants, type PacketVariant } from '../../src/packets/variants-render.ts';
import { prepareRunEnvironment, type RunEnvironment } from '../../src/runs/environment.ts';

/**
 * The shipped lab with variants, lab-paginate-results: the code of each variant's key (every
 * suggestion at its key's choice, composed onto that variant's starter) passes its own variant's
 * visible and held-out tests, judged in the sandbox, and fails every other variant's. So the code
 * a candidate copies from another variant's page fails, whichever variant it came from.
 */
const LAB = 'lab-paginate-results';
const ROOT = path.resolve(import.meta.dirname, '../..');

let env: RunEnvironment;
let scratch: string;
const variants: { v: PacketVariant; files: PacketFiles; key: Map<string, string> }[] = [];

beforeAll(async () => {
  const loaded = await loadPackets({ packetsDir: 'packets', cwd: ROOT, ids: [LAB] });
  const lab = codePackets(loaded.packets).find((p) => p.id === LAB)!;
  const dir = path.join(ROOT, lab.dir);
  scratch = await mkdtemp(path.join(tmpdir(), 'lab-variant-answers-'));
  for (const r of await packetVariants(lab, async (rel) => readFile(path.join(dir, rel)).then((b) => new Uint8Array(b), () => undefined))) {
    const v = r.variant!;
    const vdir = path.join(scratch, v.id);
    for (const [rel, bytes] of v.files) {
      await mkdir(path.dirname(path.join(vdir, rel)), { recursive: true });
      await writeFile(path.join(vdir, rel), bytes);
    }
    const model = labModelOf(v.packet)!;
    variants.push({ v, files: await loadPacketFiles(v.packet, vdir), key: composeLab(model, model.suggestions.map((s) => s.key.choice)) });
  }
  const prepared = await prepareRunEnvironment({ env: process.env, tmpDir: tmpdir(), allowUnconfined: false });
  if (!prepared.ok) throw new Error(prepared.message);
  env = prepared.environment;
}, 60_000);

afterAll(async () => {
  await env?.dispose();
  await rm(scratch, { recursive: true, force: true });
});

async function green(code: Map<string, string>, files: PacketFiles): Promise<boolean> {
  const run = await judgeRun({
    files,
    submission: { files: code, deleted: [] },
    withHidden: true,
    runner: { sandbox: env.sandbox, mounts: env.interpreter.mounts, timeoutMs: 20_000 },
    scratchDir: scratch,
    random: Math.random,
    now: () => performance.now(),
  });
  if ('rejected' in run) throw new Error(run.rejected);
  if (run.judgement.findings.some((f) => f.kind === 'infra')) throw new Error(run.judgement.description);
  return run.judgement.testsGreen;
}

describe("a shipped lab's variants: a copied answer fails another variant", () => {
  it('has four variants with four different limits', () => {
    expect(variants.map((x) => x.v.id)).toEqual(['v1', 'v2', 'v3', 'v4']);
    expect(new Set(variants.map((x) => x.v.values.limit)).size).toBe(4);
  });

  it("passes each variant's own tests with its key's code, and fails every other variant's", async () => {
    const verdicts: string[] = [];
    for (const from of variants) {
      for (const to of variants) verdicts.push(`${from.v.id} on ${to.v.id}: ${(await green(from.key, to.files)) ? 'green' : 'red'}`);
    }
    const expected = variants.flatMap((from) => variants.map((to) => `${from.v.id} on ${to.v.id}: ${from === to ? 'green' : 'red'}`));
    expect(verdicts).toEqual(expected);
  }, 120_000);
});
